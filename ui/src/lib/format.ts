/** Russian number, money and date formats. */

/** The dealership's time zone: Saint Petersburg keeps Moscow time, UTC+3 all
 * year, the server's fixed zone (src/clock.rs). Every date and time on the
 * site and in the admin panel is shown in it, whatever the browser's zone. */
export const TIME_ZONE = "Europe/Moscow";

/* Numbers and dates are spelled here, not by Intl: the server draws the
 * pages with the same code in QuickJS, which has no Intl (docs/rendering.md),
 * and a page must read the same before and after the browser takes it over.
 * tests/unit/format.test.ts holds them equal to Chrome's ru-RU Intl. */

/** The Moscow offset: UTC+3 all year since 2014. */
const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;
const NBSP = "\u00a0";

/** Month names in the genitive ("22 ноября"). */
export const MONTHS = [
  "января",
  "февраля",
  "марта",
  "апреля",
  "мая",
  "июня",
  "июля",
  "августа",
  "сентября",
  "октября",
  "ноября",
  "декабря",
];
/** Short month names as ru-RU prints them ("3 нояб."). */
export const MONTHS_SHORT = [
  "янв.",
  "февр.",
  "мар.",
  "апр.",
  "мая",
  "июн.",
  "июл.",
  "авг.",
  "сент.",
  "окт.",
  "нояб.",
  "дек.",
];
/** Weekdays from Sunday, in full ("суббота"). */
export const WEEKDAYS_LONG = [
  "воскресенье",
  "понедельник",
  "вторник",
  "среда",
  "четверг",
  "пятница",
  "суббота",
];

/** Digits in groups of three, joined by a no-break space ("2 500 000"). */
function groups(digits: string): string {
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += NBSP;
    out += digits[i];
  }
  return out;
}

/** A number as ru-RU prints it: groups of three, a comma before the
 * fraction, `min`..`max` fraction digits (half away from zero). */
export function decimal(value: number, min: number, max: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const [whole, fraction = ""] = Math.abs(value).toFixed(max).split(".");
  let digits = fraction;
  while (digits.length > min && digits.endsWith("0")) digits = digits.slice(0, -1);
  return `${sign}${groups(whole)}${digits ? `,${digits}` : ""}`;
}

/** The calendar fields of a moment in Moscow. */
export function moscowParts(date: Date) {
  const at = new Date(date.getTime() + MOSCOW_OFFSET_MS);
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth(),
    day: at.getUTCDate(),
    weekday: at.getUTCDay(),
    hours: at.getUTCHours(),
    minutes: at.getUTCMinutes(),
  };
}

const two = (n: number) => String(n).padStart(2, "0");

/** Money from the API ("2500000.00") or a number, as whole rubles. */
export function toRubles(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number.parseFloat(value);
  return Number.isFinite(n) ? Math.floor(n) : null;
}

export function formatNumber(value: number): string {
  return decimal(value, 0, 0);
}

/** "2 500 000 ₽" */
export function formatPrice(value: string | number): string {
  return `${formatNumber(toRubles(value) ?? 0)} ₽`;
}

/** "от 2 500 000 ₽" */
export function fromPrice(value: string | number): string {
  return `от ${formatPrice(value)}`;
}

/** "от 45 000 ₽/мес" */
export function monthlyPrice(value: string | number): string {
  return `от ${formatNumber(toRubles(value) ?? 0)} ₽/мес`;
}

/** "3 500 ₽/сут" */
export function dailyPrice(value: string | number): string {
  return `${formatNumber(toRubles(value) ?? 0)} ₽/сут`;
}

export function formatMileage(km: number): string {
  return `${formatNumber(km)} км`;
}

/** A date (ISO text) as "22 ноября 2026 г." in Moscow ("2026-11-22", a
 * calendar day, is that day); free text is kept as it is. */
export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const p = moscowParts(date);
  return `${p.day} ${MONTHS[p.month]} ${p.year} г.`;
}

/** A moment (ISO text) as "22 ноября 2026 г. в 13:05", Moscow time. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const p = moscowParts(date);
  return `${p.day} ${MONTHS[p.month]} ${p.year} г. в ${two(p.hours)}:${two(p.minutes)}`;
}

/** Russian plural: plural(5, ["автомобиль", "автомобиля", "автомобилей"]). */
export function plural(n: number, forms: [string, string, string]): string {
  const abs = Math.abs(n) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) return forms[2];
  if (last > 1 && last < 5) return forms[1];
  if (last === 1) return forms[0];
  return forms[2];
}

export const CAR_FORMS: [string, string, string] = ["автомобиль", "автомобиля", "автомобилей"];

/** "Найдено: 21 автомобиль" */
export function foundCars(n: number): string {
  return `Найдено: ${n} ${plural(n, CAR_FORMS)}`;
}

/** Slider labels: 500 000 → "500 тыс.", 10 000 000 → "10 млн." */
export function shortPrice(value: number): string {
  if (value >= 1_000_000) {
    const m = value / 1_000_000;
    return `${Number.isInteger(m) ? m : m.toFixed(1).replace(".", ",")} млн.`;
  }
  return `${Math.round(value / 1000)} тыс.`;
}

/* Own advertising marked (38-FZ art. 18.1, docs/advertising.md): an ad on
 * the site carries «Реклама», its advertiser and the token (erid) the
 * advertising data operator gave it. Kept here, in a module the public page
 * and the panel share already, so it costs no chunk of its own. */

/** A mark: a banner's as the settings hold it. */
export interface AdMark {
  erid?: string | null;
  advertiser?: string | null;
}

/** "Реклама · ООО «Хавейл Мотор Рус» · erid: LjN8Kaaxi"; the advertiser or
 * the token left out when empty; null when neither is set (not an ad). */
export function adLabel({ erid, advertiser }: AdMark): string | null {
  const parts = [advertiser?.trim(), erid?.trim() && `erid: ${erid.trim()}`].filter(Boolean);
  return parts.length > 0 ? ["Реклама", ...parts].join(" · ") : null;
}
