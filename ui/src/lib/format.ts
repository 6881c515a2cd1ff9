/** Russian number, money and date formats. */

/** The dealership's time zone: Saint Petersburg keeps Moscow time, UTC+3 all
 * year, the server's fixed zone (src/clock.rs). Every date and time on the
 * site and in the admin panel is shown in it, whatever the browser's zone. */
export const TIME_ZONE = "Europe/Moscow";

const numberFormat = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 0 });
const dateFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: TIME_ZONE,
});
const dateTimeFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TIME_ZONE,
});

/** Money from the API ("2500000.00") or a number, as whole rubles. */
export function toRubles(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number.parseFloat(value);
  return Number.isFinite(n) ? Math.floor(n) : null;
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
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
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** A moment (ISO text) as "22 ноября 2026 г. в 13:05", Moscow time. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeFormat.format(date);
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
