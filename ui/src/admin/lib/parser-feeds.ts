/** The parser screen's feeds (docs/admin.md, "The parser screen"): their
 * addresses in the API, the words of their schedule, condition and order,
 * the add/edit form's values and body, the order's moves, what a preview
 * says of a car another feed lists too, and the history's feed filter. */
import { plural } from "../../lib/format";
import { CUSTOM_INTERVAL, checkFeedUrl, IMPORTS_URL, intervalChoice } from "./parser";
import type {
  AlsoIn,
  CarStatus,
  Feed,
  FeedCondition,
  FeedInput,
  GoneCar,
  ImportRunSummary,
  SourceKind,
} from "./parser-types";

export const FEEDS_URL = "/api/admin/feeds";
export const FEEDS_ORDER_URL = `${FEEDS_URL}/order`;
export const feedUrl = (id: string) => `${FEEDS_URL}/${encodeURIComponent(id)}`;

/** The history of one feed (`null`: every feed's). */
export function historyUrl(feedId: string | null): string {
  return feedId ? `${IMPORTS_URL}?feedId=${encodeURIComponent(feedId)}` : IMPORTS_URL;
}

/** The preview's condition for all its cars. */
export const conditionUrl = (runId: string | number) =>
  `${IMPORTS_URL}/${encodeURIComponent(String(runId))}/condition`;

export const FEED_KINDS: { value: SourceKind; label: string }[] = [
  { value: "url", label: "По адресу" },
  { value: "file", label: "Файл" },
];

/** A feed's condition, worded for a dealer (the add/edit dialog's select
 * and the feed's card). */
export const CONDITION_LABELS: Record<FeedCondition, string> = {
  record: "По данным фида (без данных — новые)",
  new: "Новые, если фид не говорит иначе",
  used: "С пробегом, если фид не говорит иначе",
  lease: "Все — аренда с выкупом",
};

export const CONDITIONS: FeedCondition[] = ["record", "new", "used", "lease"];

/** The preview's select «Состояние всех машин предпросмотра»: "" is the
 * feed's own rules. */
export const PREVIEW_CONDITIONS: { value: "" | CarStatus; label: string }[] = [
  { value: "", label: "По данным фида" },
  { value: "new", label: "Новые" },
  { value: "used", label: "С пробегом" },
  { value: "lease", label: "Аренда с выкупом" },
];

/** The body of PUT /api/admin/imports/{id}/condition from the select. */
export function conditionBody(value: string): { condition: CarStatus | null } {
  return { condition: value === "new" || value === "used" || value === "lease" ? value : null };
}

/** «Расписание: каждые 6 ч», «Расписание: вручную». */
export function scheduleText(feed: Pick<Feed, "kind" | "intervalHours">): string {
  const h = feed.kind === "url" ? feed.intervalHours : 0;
  if (h <= 0) return "Расписание: вручную";
  if (h === 1) return "Расписание: каждый час";
  const every = h % 10 === 1 && h % 100 !== 11 ? "каждый" : "каждые";
  return `Расписание: ${every} ${h} ч`;
}

/** «Машин в фиде: 12». */
export const carsText = (n: number) => `Машин в фиде: ${n}`;

/** «1 фид», «4 фида». */
export const feedsCount = (n: number) => `${n} ${plural(n, ["фид", "фида", "фидов"])}`;

/** What the order means, said once above the list. */
export const ORDER_NOTE =
  "Порядок важен: если машина есть в двух фидах, её данные берутся из того фида, что выше в списке.";

/** The delete confirmation: the cars stay as they are. */
export function deleteMessage(feed: Pick<Feed, "name" | "cars">): string {
  return `Фид «${feed.name}» пропадёт из списка и больше не будет загружаться. Его машины (${feed.cars}) останутся на сайте как есть — их можно снять с публикации вручную; история его запусков сохранится.`;
}

/** The order with one feed moved up (-1) or down (+1); null at an edge. */
export function moveFeed(ids: readonly string[], id: string, delta: -1 | 1): string[] | null {
  const from = ids.indexOf(id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= ids.length) return null;
  const next = [...ids];
  next[from] = ids[to] as string;
  next[to] = id;
  return next;
}

// ---- the add/edit dialog --------------------------------------------------------

export interface FeedFormValues {
  name: string;
  kind: SourceKind;
  url: string;
  /** A preset of hours, or CUSTOM_INTERVAL. */
  interval: string;
  custom: string;
  condition: FeedCondition;
  /** The salon its new cars stand in ("1": the main), sent only when the
   * install has several salons (docs/salons.md). */
  salon?: string;
}

export const NAME_REQUIRED = "Укажите название фида";
export const NAME_TOO_LONG = "Название — не длиннее 100 символов";

/** The form's values for a new feed (null) or the feed edited. */
export function feedFormValues(feed: Feed | null): FeedFormValues {
  if (!feed) {
    return { name: "", kind: "url", url: "", interval: "0", custom: "", condition: "record" };
  }
  const choice = intervalChoice(feed.intervalHours);
  return {
    name: feed.name,
    kind: feed.kind,
    url: feed.kind === "url" ? feed.source : "",
    interval: choice,
    custom: choice === CUSTOM_INTERVAL ? String(feed.intervalHours) : "",
    condition: feed.condition,
  };
}

/** The form's first problem before sending: the field and its message. */
export function checkFeedForm(
  v: Pick<FeedFormValues, "name" | "kind" | "url">,
): { field: "name" | "url"; message: string } | null {
  const name = v.name.trim();
  if (!name) return { field: "name", message: NAME_REQUIRED };
  if ([...name].length > 100) return { field: "name", message: NAME_TOO_LONG };
  if (v.kind === "url") {
    const problem = checkFeedUrl(v.url);
    if (problem) return { field: "url", message: problem };
  }
  return null;
}

/** The body of POST /api/admin/feeds and PUT /api/admin/feeds/{id}: a file
 * feed has no address and no schedule. */
export function feedPayload(v: FeedFormValues, intervalHours: number): FeedInput {
  const url = v.kind === "url";
  return {
    name: v.name.trim(),
    kind: v.kind,
    url: url ? v.url.trim() : null,
    intervalHours: url ? intervalHours : 0,
    condition: v.condition,
    ...(v.salon ? { salonId: Number(v.salon) } : {}),
  };
}

/** The salon select's value for a feed (none: the main salon, "1"). */
export const feedSalonValue = (feed: Feed | null): string => String(feed?.salonId ?? 1);

// ---- the preview and the history --------------------------------------------------

/** «Также в фиде «Авито Б/У»: его значения главнее». */
export function alsoInText(other: AlsoIn): string {
  return `Также в фиде «${other.feedName}»: ${other.wins ? "его значения главнее" : "значения этого фида главнее"}`;
}

/** A car leaving this feed that stays on the site: «есть в фиде «X»». */
export function staysInText(car: Pick<GoneCar, "staysIn">): string {
  return car.staysIn ? `есть в фиде «${car.staysIn}»` : "есть в другом фиде";
}

/** «Фид «Новые Hyundai»» for a run, or what is left of a deleted one. */
export function runFeedText(run: Pick<ImportRunSummary, "feedId" | "feedName">): string {
  if (run.feedName) return `Фид «${run.feedName}»`;
  return run.feedId ? "Фид" : "Фид удалён";
}

/** «Состояние: с пробегом, если фид не говорит иначе» for a feed's card. */
export function conditionText(condition: FeedCondition): string {
  const label = CONDITION_LABELS[condition] ?? condition;
  return `Состояние: ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}
