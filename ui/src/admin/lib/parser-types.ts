/** The inventory parser's answers as the admin API gives them: a run of an
 * import (preview, applied, discarded, failed), its counts, new, changed,
 * unchanged and gone cars, row errors and warnings, photos, the schedule's
 * settings and the export feeds. `parser.ts` holds the screen's rules and
 * words over them. */

export type RunId = number | string;

export type RunStatus = "preview" | "applied" | "discarded" | "failed";
export type RunTrigger = "manual" | "schedule";
export type FeedFormat = "autoru" | "avito" | "csv";
export type CarStatus = "new" | "used" | "lease";

export interface RunCounts {
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
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
  source: { kind: "url" | "file"; name: string };
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
}

export interface UnchangedCar {
  key: string;
  carId: string;
  slug: string;
  title: string;
}

export interface GoneCar {
  carId: string;
  slug: string;
  title: string;
  externalId: string | null;
  vin: string | null;
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
  /** drivetrain | engine | power | trim | vin | discount */
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

export interface ImportRun extends ImportRunSummary {
  new: NewCar[];
  changed: ChangedCar[];
  unchanged: UnchangedCar[];
  gone: GoneCar[];
  errors: RowError[];
  /** Brands the feed names that the catalogue lacks: created on apply. */
  newBrands?: string[];
  /** Body types likewise. */
  newBodyTypes?: NewBodyType[];
  warnings?: RowWarning[];
  photoErrors: PhotoError[];
}

export interface ImportRuns {
  items: ImportRunSummary[];
}

export interface FeedLink {
  name: string;
  url: string;
}

export interface ParserSettings {
  feedUrl: string | null;
  /** 0: no schedule. */
  intervalHours: number;
  lastRunAt: string | null;
  nextRunAt: string | null;
  feeds?: FeedLink[];
}

/** The dashboard's note of the latest run when it failed. */
export interface ImportFailed {
  id: RunId;
  createdAt: string;
  error: string | null;
}
