/** The inventory parser screen's rules and words: the runs of an import
 * (preview, applied, discarded, failed), their counts and changes, a
 * feed's schedule interval, the export feeds (docs/admin.md). The feeds'
 * own rules are in parser-feeds.ts. */
import { formatPrice, plural } from "../../lib/format";
import { MB } from "../uploads";
import type {
  CarStatus,
  FeedFormat,
  FeedLink,
  FieldChange,
  ImportRun,
  ImportRunSummary,
  NewBodyType,
  ParserSettings,
  PhotoProgress,
  ReportList,
  ReportPage,
  RowError,
  RowWarning,
  RunCounts,
  RunId,
  RunStatus,
  RunTrigger,
} from "./parser-types";

export type * from "./parser-types";

export const IMPORTS_URL = "/api/admin/imports";
export const PARSER_SETTINGS_URL = "/api/admin/parser/settings";

export const importUrl = (id: RunId) => `${IMPORTS_URL}/${encodeURIComponent(String(id))}`;
export const applyUrl = (id: RunId) => `${importUrl(id)}/apply`;

/** The parser screen with a run's report open (inside the admin panel's
 * routes: `/admin` is added by the router). */
export const importReportHref = (id: RunId) => `/parser?run=${encodeURIComponent(String(id))}`;

/** The counts in the order the screen shows them, with their words. */
export const COUNT_LABELS: { key: keyof RunCounts; label: string }[] = [
  { key: "new", label: "Новые" },
  { key: "changed", label: "Изменятся" },
  { key: "unchanged", label: "Без изменений" },
  { key: "gone", label: "Снимутся с публикации" },
  { key: "left", label: "Уйдут из фида, останутся на сайте" },
  { key: "errors", label: "Ошибки" },
  { key: "warnings", label: "Предупреждения" },
];

/** The same counts once the run is applied (past tense). */
export const APPLIED_COUNT_LABELS: Record<keyof RunCounts, string> = {
  new: "Добавлены",
  changed: "Изменены",
  unchanged: "Без изменений",
  gone: "Сняты с публикации",
  left: "Ушли из фида, остались на сайте",
  errors: "Пропущены с ошибками",
  warnings: "С предупреждениями",
};

export const STATUS_LABELS: Record<RunStatus, string> = {
  preview: "Предпросмотр",
  applied: "Применён",
  discarded: "Отменён",
  failed: "Ошибка",
};

/** The colour of a run's badge (`badge-{kind}` in content.css). */
export const STATUS_BADGES: Record<RunStatus, string> = {
  preview: "blue",
  applied: "green",
  discarded: "gray",
  failed: "red",
};

export const TRIGGER_LABELS: Record<RunTrigger, string> = {
  manual: "Вручную",
  schedule: "По расписанию",
};

export const FORMAT_LABELS: Record<FeedFormat, string> = {
  autoru: "Авто.ру XML",
  avito: "Avito XML",
  csv: "CSV",
};

export const CAR_STATUS_LABELS: Record<CarStatus, string> = {
  new: "Новый",
  used: "С пробегом",
  lease: "Аренда с выкупом",
};

/** "Файл stock.xml" or the feed's address. */
export function sourceText(source: ImportRunSummary["source"]): string {
  return source.kind === "file" ? `Файл ${source.name}` : source.name;
}

// ---- the source form ----------------------------------------------------------

export const URL_REQUIRED = "Укажите адрес фида";
export const URL_INVALID = "Адрес должен начинаться с http:// или https://";
export const FILE_REQUIRED = "Выберите файл фида (XML или CSV)";
export const FILE_WRONG_TYPE = "Нужен файл XML или CSV";
export const FILE_EMPTY = "Файл пуст";
/** The server's default limit of a feed (parser.max_feed_mb); it checks again. */
export const MAX_FEED_BYTES = 50 * MB;
export const FILE_TOO_BIG = "Файл больше 50 МБ";
export const FEED_ACCEPT = ".xml,.csv,.yml,text/xml,application/xml,text/csv";

/** A feed address as typed: null when it may be sent. */
export function checkFeedUrl(text: string): string | null {
  const value = text.trim();
  if (!value) return URL_REQUIRED;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return URL_INVALID;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return URL_INVALID;
  return null;
}

/** The extensions of a feed file. */
export const FEED_EXTENSIONS = ["xml", "csv", "yml"] as const;

/** A chosen feed file: null when it may be sent, else why not, before
 * anything is sent. The server tells the format by the content; here the
 * name's extension decides (a .txt or .png is refused even when the browser
 * calls it text), and the type only for a name without one. */
export function checkFeedFile(
  file: { name: string; type: string; size: number } | null | undefined,
): string | null {
  if (!file) return FILE_REQUIRED;
  const dot = file.name.lastIndexOf(".");
  const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : "";
  const ok = ext
    ? (FEED_EXTENSIONS as readonly string[]).includes(ext)
    : /(^text\/(xml|csv|plain)$)|(^application\/(xml|.*\+xml)$)/.test(file.type);
  if (!ok) return FILE_WRONG_TYPE;
  if (file.size === 0) return FILE_EMPTY;
  if (file.size > MAX_FEED_BYTES) return FILE_TOO_BIG;
  return null;
}

// ---- a run's report -----------------------------------------------------------

/** Photos still on their way after an apply (the report then asks again). */
export function photosPending(run: Pick<ImportRunSummary, "status" | "photos">): boolean {
  const { total, done, failed } = run.photos;
  return run.status === "applied" && done + failed < total;
}

/** "Фото: 3 из 5 загружены, 1 с ошибкой". */
export function photoText(photos: PhotoProgress): string {
  if (photos.total === 0) return "Фото в фиде нет или они не изменились";
  const failed = photos.failed > 0 ? `, с ошибкой: ${photos.failed}` : "";
  return `Фото: загружено ${photos.done} из ${photos.total}${failed}`;
}

/** Fields whose values are money strings ("2500000.00"). */
export const MONEY_FIELDS = new Set([
  "price",
  "monthlyPayment",
  "dailyPrice",
  "creditDiscount",
  "tradeinDiscount",
  "insuranceDiscount",
  "maxDiscount",
]);

/** One side of a change as the screen shows it: money as "2 500 000 ₽", an
 * empty value as a dash. */
export function changeValue(field: string, value: string | null | undefined): string {
  const text = (value ?? "").trim();
  if (!text) return "—";
  if (MONEY_FIELDS.has(field) && /^-?\d+(\.\d+)?$/.test(text)) return formatPrice(text);
  return text;
}

/** "Цена: 2 500 000 ₽ → 2 400 000 ₽" */
export function changeText(change: FieldChange): string {
  return `${change.label}: ${changeValue(change.field, change.old)} → ${changeValue(change.field, change.new)}`;
}

/** What the apply confirmation says will happen. */
export function applySummary(counts: RunCounts): string {
  const parts = [
    `добавлено: ${counts.new}`,
    `изменено: ${counts.changed}`,
    `снято с публикации: ${counts.gone}`,
  ];
  let text = `Будет ${parts.join(", ")}.`;
  if (counts.gone > 0) {
    text +=
      " Снятые с публикации автомобили пропадут с сайта, но не удаляются: их можно опубликовать снова.";
  }
  const left = counts.left ?? 0;
  if (left > 0) {
    text += ` Уйдут из этого фида, но останутся на сайте (их перечисляют другие фиды): ${left}.`;
  }
  if (counts.errors > 0) {
    text += ` Строки с ошибками (${counts.errors}) будут пропущены.`;
  }
  // Warnings are no errors: those cars are loaded, and counted above.
  const warned = counts.warnings ?? 0;
  if (warned > 0) {
    text += ` Автомобили с предупреждениями (${warned}) загрузятся: в фиде у них не указаны некоторые поля, их можно дополнить вручную.`;
  }
  return text;
}

/** Whether applying would change anything at all. */
export function changesAnything(counts: RunCounts): boolean {
  return counts.new + counts.changed + counts.gone > 0;
}

/** "Строка 12, поле «mark_id»: …"; an XML record also gives its line in
 * the file: "Строка 2 (строка файла 14), …". */
export function rowErrorText(error: RowError): string {
  const field = error.field ? `, поле «${error.field}»` : "";
  return `${rowPlace(error.row, error.line)}${field}: ${error.message}`;
}

/** One car's warnings, as the report lists them. */
export interface CarWarnings {
  key: string;
  title: string;
  row: number;
  line: number;
  warnings: { field: string; message: string }[];
}

/** The warnings grouped by car (its key), in the feed's order, each car's
 * in the order the server gave them. */
export function groupWarnings(warnings: readonly RowWarning[]): CarWarnings[] {
  const byKey = new Map<string, CarWarnings>();
  for (const w of warnings) {
    let car = byKey.get(w.key);
    if (!car) {
      car = { key: w.key, title: w.title, row: w.row, line: w.line, warnings: [] };
      byKey.set(w.key, car);
    }
    car.warnings.push({ field: w.field, message: w.message });
  }
  return [...byKey.values()].sort((a, b) => a.row - b.row);
}

/** "Строка 2 (строка файла 14)": where a car is in the feed. */
export function rowPlace(row: number, line?: number): string {
  return `Строка ${row}${line && line !== row ? ` (строка файла ${line})` : ""}`;
}

/** "Минивэн (minivan), Лифтбек (liftback)". */
export function newBodyTypesText(types: readonly NewBodyType[]): string {
  return types.map((t) => `${t.labelSingle} (${t.bodyType})`).join(", ");
}

/** Lists longer than this are shown a page at a time. */
export const LIST_PAGE = 20;

/** Items asked of the server at a time, once the run's own are shown. */
export const REPORT_PAGE = 100;

/** Where the next items of a run's list are. */
export const reportItemsUrl = (id: RunId, list: ReportList, offset: number) =>
  `${importUrl(id)}/items?list=${list}&offset=${offset}&limit=${REPORT_PAGE}`;

/** The items of a list the run's answer carries. */
export function runItems<L extends ReportList>(run: ImportRun, list: L): ReportPage[L] {
  return (run[list] ?? []) as ReportPage[L];
}

/** How many items a list holds in all: the server's size, else what the
 * answer carries (a run from before the lists were paged). */
export function listSize(run: ImportRun, list: ReportList): number {
  return run.lists?.[list] ?? runItems(run, list).length;
}

// ---- a feed's schedule --------------------------------------------------------

export const MAX_INTERVAL_HOURS = 168;
export const INTERVAL_PRESETS = [0, 1, 3, 6, 12, 24] as const;
export const CUSTOM_INTERVAL = "custom";
export const INTERVAL_INVALID = `Интервал: целое число часов от 1 до ${MAX_INTERVAL_HOURS}`;

/** "Выкл", "Каждый час", "Каждые 3 часа", "Каждые 24 часа". */
export function intervalLabel(hours: number): string {
  if (hours === 0) return "Выкл";
  if (hours === 1) return "Каждый час";
  return `${hours % 10 === 1 && hours % 100 !== 11 ? "Каждый" : "Каждые"} ${hours} ${plural(hours, ["час", "часа", "часов"])}`;
}

/** The select's value for a stored interval: a preset, or "custom". */
export function intervalChoice(hours: number): string {
  return (INTERVAL_PRESETS as readonly number[]).includes(hours) ? String(hours) : CUSTOM_INTERVAL;
}

/** The interval from the select and the number field; a message when wrong. */
export function parseInterval(choice: string, custom: string): number | { error: string } {
  if (choice !== CUSTOM_INTERVAL) return Number(choice);
  const text = custom.trim();
  if (!/^\d+$/.test(text)) return { error: INTERVAL_INVALID };
  const n = Number(text);
  if (n < 1 || n > MAX_INTERVAL_HOURS) return { error: INTERVAL_INVALID };
  return n;
}

// ---- export feeds -------------------------------------------------------------

/** Where each marketplace takes the feed's address. */
export function feedHint(name: string): string {
  const n = name.toLowerCase();
  if (n.includes("avito") || n.includes("авито")) {
    return "Avito: «Автозагрузка» в профессиональных инструментах → «Настройки» → ссылка на файл.";
  }
  if (n.includes("авто.ру") || n.includes("auto.ru") || n.includes("autoru")) {
    return "Авто.ру: кабинет дилера → «Склад» → «Автозагрузка» → ссылка на XML-фид.";
  }
  if (n.includes("яндекс") || n.includes("yandex")) {
    return "Яндекс: «Товары и цены» (Яндекс Бизнес) или фиды Директа → загрузка по ссылке (YML).";
  }
  return "Вставьте ссылку в настройки автозагрузки площадки.";
}

/** The feeds to show: the server's list, or the five addresses on this
 * site when the server gives none. */
export function feedLinks(settings: Pick<ParserSettings, "feeds">, origin: string): FeedLink[] {
  if (settings.feeds && settings.feeds.length > 0) return settings.feeds;
  return [
    { name: "Avito", url: `${origin}/feeds/avito.xml` },
    { name: "Авто.ру", url: `${origin}/feeds/autoru.xml` },
    { name: "Авто.ру, новые", url: `${origin}/feeds/autoru-new.xml` },
    { name: "Авто.ру, с пробегом", url: `${origin}/feeds/autoru-used.xml` },
    { name: "Яндекс", url: `${origin}/feeds/yandex.yml` },
  ];
}
