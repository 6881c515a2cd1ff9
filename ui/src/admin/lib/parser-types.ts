/** The inventory parser's answers as the admin API gives them: the feeds
 * (each with its schedule, condition and place in the order), a run of a
 * feed's import (preview, applied, discarded, failed), its counts, new,
 * changed, unchanged, leaving and gone cars, row errors and warnings,
 * photos, and the export feeds. `parser.ts` and `parser-feeds.ts` hold the
 * screen's rules and words over them. */

export type RunId = number | string;

export type RunStatus = "preview" | "applied" | "discarded" | "failed";
export type RunTrigger = "manual" | "schedule";
export type FeedFormat = "autoru" | "avito" | "csv";
export type CarStatus = "new" | "used" | "lease";
export type SourceKind = "url" | "file";
/** What a feed's cars are when a record does not say (docs/parser.md). */
export type FeedCondition = "record" | "new" | "used" | "lease";

/** One feed the dealer's stock is imported from. */
export interface Feed {
  id: string;
  name: string;
  kind: SourceKind;
  /** The URL, or the name of the file last uploaded (empty before). */
  source: string;
  /** 0: no schedule (always 0 for a file). */
  intervalHours: number;
  condition: FeedCondition;
  /** 1 = the first: its values win for a car other feeds list too. */
  position: number;
  lastRunAt?: string | null;
  nextRunAt?: string | null;
  /** Cars the feed lists now. */
  cars: number;
  /** The salon its new cars stand in; absent: the main (docs/salons.md). */
  salonId?: number | null;
}

export interface FeedList {
  items: Feed[];
}

/** The body of POST and PUT /api/admin/feeds. */
export interface FeedInput {
  name: string;
  kind: SourceKind;
  url?: string | null;
  intervalHours?: number;
  condition?: FeedCondition;
  /** The salon its new cars stand in (1: the main). */
  salonId?: number | null;
}

/** Another feed listing the same car, and which of the two wins. */
export interface AlsoIn {
  feedId: string;
  feedName: string;
  /** True: that feed is higher, its values win. */
  wins: boolean;
}

export interface RunCounts {
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
  /** Cars that leave this feed and stay on the site (another feed lists
   * them); absent on older runs. */
  left?: number;
  errors: number;
  /** Cars that import with fields the feed does not state (not errors);
   * absent on runs made before the server counted them. */
  warnings?: number;
}

export interface PhotoProgress {
  total: number;
  done: number;
  failed: number;
}

export interface ImportRunSummary {
  id: RunId;
  createdAt: string;
  finishedAt: string | null;
  trigger: RunTrigger;
  source: { kind: SourceKind; name: string };
  /** The feed the run is of (none: deleted since). */
  feedId?: string | null;
  feedName?: string | null;
  /** The condition chosen for the whole preview (none: the feed's rules). */
  condition?: CarStatus | null;
  format: FeedFormat | null;
  status: RunStatus;
  error: string | null;
  counts: RunCounts;
  photos: PhotoProgress;
}

export interface NewCar {
  key: string;
  externalId: string | null;
  vin: string | null;
  title: string;
  price: string;
  status: CarStatus;
}

export interface FieldChange {
  field: string;
  label: string;
  old: string;
  new: string;
}

export interface ChangedCar {
  key: string;
  carId: string;
  slug: string;
  title: string;
  changes: FieldChange[];
  alsoIn?: AlsoIn[];
}

export interface UnchangedCar {
  key: string;
  carId: string;
  slug: string;
  title: string;
  alsoIn?: AlsoIn[];
}

export interface GoneCar {
  carId: string;
  slug: string;
  title: string;
  externalId?: string | null;
  vin?: string | null;
  /** A car leaving this feed that stays on the site: the feed listing it. */
  staysIn?: string | null;
}

export interface RowError {
  /** The CSV line, or the XML record's number (`<car>`, `<Ad>`). */
  row: number;
  /** The file's line the row starts on (equal to `row` for CSV). */
  line?: number;
  field: string | null;
  message: string;
}

/** A car that imports, with a field its feed does not state. */
export interface RowWarning {
  row: number;
  line: number;
  /** The car's key in the report (as in `new` and `changed`). */
  key: string;
  title: string;
  /** drivetrain | engine | power | trim | vin | discount | status (looks
   * used, would be new) | mileage (used, no mileage) */
  field: string;
  /** The server's words: "Привод не указан в фиде: …". */
  message: string;
}

/** A body type a feed names that the catalogue lacks: created on apply. */
export interface NewBodyType {
  bodyType: string;
  labelPlural: string;
  labelSingle: string;
}

export interface PhotoError {
  carTitle: string;
  url: string;
  error: string;
}

/** The lists of a run's report; beyond the first 100 items the rest is
 * paged by GET /api/admin/imports/{id}/items?list=…&offset=…. */
export type ReportList =
  | "new"
  | "changed"
  | "unchanged"
  | "gone"
  | "left"
  | "errors"
  | "warnings"
  | "photoErrors";

/** How many items each list holds in all (a warning is one line; a car may
 * have several). */
export type ListSizes = Record<ReportList, number>;

/** The answer carries the first 100 items of each list and, in `lists`,
 * how many each holds. */
export interface ImportRun extends ImportRunSummary {
  new: NewCar[];
  changed: ChangedCar[];
  unchanged: UnchangedCar[];
  gone: GoneCar[];
  /** Leave this feed, stay on the site (another feed lists them). */
  left?: GoneCar[];
  errors: RowError[];
  /** Brands the feed names that the catalogue lacks: created on apply. */
  newBrands?: string[];
  /** Body types likewise. */
  newBodyTypes?: NewBodyType[];
  warnings?: RowWarning[];
  photoErrors: PhotoError[];
  /** Absent on an answer from before the lists were paged. */
  lists?: ListSizes;
}

/** One page of one list: only that list's array holds items. */
export interface ReportPage {
  list: ReportList;
  offset: number;
  total: number;
  new: NewCar[];
  changed: ChangedCar[];
  unchanged: UnchangedCar[];
  gone: GoneCar[];
  left: GoneCar[];
  errors: RowError[];
  warnings: RowWarning[];
  photoErrors: PhotoError[];
}

export interface ImportRuns {
  items: ImportRunSummary[];
}

export interface FeedLink {
  name: string;
  url: string;
}

/** GET /api/admin/parser/settings: the site's own feeds' addresses. */
export interface ParserSettings {
  feeds?: FeedLink[];
}

/** The dashboard's note of the latest run when it failed. */
export interface ImportFailed {
  id: RunId;
  createdAt: string;
  error: string | null;
}
