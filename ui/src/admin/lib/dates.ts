/** Dates in the admin panel, in the dealership's time zone (Moscow time, the
 * zone of Saint Petersburg and of the dashboard's "created today"), whatever
 * the browser's zone: every time the panel shows goes through here. */
import { TIME_ZONE } from "../../lib/format";

export { TIME_ZONE };

/** What the settings screen says of the times shown, once for the panel. */
export const TIME_ZONE_NOTE = "Время в панели и на сайте — московское (UTC+3)";

const longDateTimeFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TIME_ZONE,
});

const shortDateTimeFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TIME_ZONE,
});

const dayFormat = new Intl.DateTimeFormat("en-CA", {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  timeZone: TIME_ZONE,
});

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "22 ноября 2026 г. в 13:05" (reviews, a lead's details, the audit trail);
 * text that is not a date is kept as it is. */
export function longDateTime(value: string | null | undefined): string {
  const date = parse(value);
  return date ? longDateTimeFormat.format(date) : (value ?? "");
}

/** "22.11.2026, 13:05" (the rows of the leads list). */
export function shortDateTime(value: string | null | undefined): string {
  const date = parse(value);
  return date ? shortDateTimeFormat.format(date) : (value ?? "");
}

/** Whether the moment falls on the same Moscow calendar day as `now`. */
export function isSameDay(value: string, now: Date = new Date()): boolean {
  const date = parse(value);
  return !!date && dayFormat.format(date) === dayFormat.format(now);
}
