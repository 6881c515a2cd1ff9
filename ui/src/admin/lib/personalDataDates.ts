/** Dates of the personal-data screen (docs/personal-data.md): today in
 * Moscow, working and calendar days between two dates, the answer's
 * deadline (working days after a date), and dates as words. */
import { MONTHS, moscowParts } from "../../lib/format";

const two = (n: number) => String(n).padStart(2, "0");

/** Today's date in Moscow, "YYYY-MM-DD". */
export function moscowToday(now: Date = new Date()): string {
  const p = moscowParts(now);
  return `${p.year}-${two(p.month + 1)}-${two(p.day)}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** "YYYY-MM-DD" as a day number (days since 1970-01-01), or null. */
export function dayNumber(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? null : Math.round(ms / DAY_MS);
}

/** Monday to Friday (1970-01-01 was a Thursday). */
function isWorkingDay(n: number): boolean {
  const weekday = (((n + 4) % 7) + 7) % 7; // 0 Sunday
  return weekday !== 0 && weekday !== 6;
}

/** The working days (Mon–Fri) after `from` up to and including `to`; 0 when
 * `to` is not later. */
export function workingDaysBetween(from: string, to: string): number {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === null || b === null) return 0;
  let count = 0;
  for (let d = a + 1; d <= b; d++) if (isWorkingDay(d)) count++;
  return count;
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null ? 0 : b - a;
}

/** The day `working` working days after `from` (the server's deadline). */
export function addWorkingDays(from: string, working: number): string {
  let d = dayNumber(from);
  if (d === null) return from;
  let left = working;
  while (left > 0) {
    d++;
    if (isWorkingDay(d)) left--;
  }
  const date = new Date(d * DAY_MS);
  return `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
}

/** "26 ноября 2026 г." for "2026-11-26" (text that is not a date stays). */
export function dayText(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]} г.`;
}

/** Ends a sentence: a text already ending in a period (an abbreviation,
 * «2026 г.») takes no second one. */
export function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

/** The Moscow date of a moment, "26 ноября 2026 г.". */
export function momentDay(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : dayText(moscowToday(date));
}
