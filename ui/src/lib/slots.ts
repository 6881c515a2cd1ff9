import { MONTHS, MONTHS_SHORT, WEEKDAYS_LONG } from "./format";

/** Test-drive days and time slots from the salon's working schedule, in
 * Moscow time (UTC+3 all year), as the server checks them (docs/leads.md):
 * a slot every 30 minutes from opening, the last one starting at least 30
 * minutes before closing; today's slots that have begun are not offered. */

export interface DayHours {
  /** "09:00" */
  open: string;
  close: string;
}

/** Monday first; null is a day off. */
export interface WorkSchedule {
  days: (DayHours | null)[];
}

export interface OpenDay {
  /** "2026-11-24" */
  date: string;
  /** "Сегодня", "Завтра" or "Чт" */
  weekday: string;
  /** "24 нояб." */
  label: string;
  slots: string[];
  /** The day's first and last slot start, whether or not already begun. */
  first: string;
  last: string;
}

export const SLOT_MINUTES = 30;
/** Days offered in the dialog. */
export const DAYS_SHOWN = 14;
/** The server takes bookings up to 60 days ahead. */
const DAYS_AHEAD = 60;
const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const WEEKDAYS = ["Вс", "Пн", "Вт", "Ср", "Чт", "Пт", "Сб"];
/** "3 нояб." of a UTC midnight. */
const dayLabel = {
  format: (d: Date) => `${d.getUTCDate()} ${MONTHS_SHORT[d.getUTCMonth()]}`,
};
/** "суббота, 3 января" of a UTC midnight. */
const longDay = {
  format: (d: Date) =>
    `${WEEKDAYS_LONG[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`,
};

/** "09:30" → 570; null when it is not a time of day. */
export function minutes(time: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

function hhmm(total: number): string {
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

/** Slot starts of a day's hours: 09:00–21:00 gives 09:00 … 20:30. */
export function daySlots(hours: DayHours | null | undefined): string[] {
  if (!hours) return [];
  const open = minutes(hours.open);
  const close = minutes(hours.close);
  if (open === null || close === null) return [];
  const out: string[] = [];
  for (let t = open; t + SLOT_MINUTES <= close; t += SLOT_MINUTES) out.push(hhmm(t));
  return out;
}

/** A moment as Moscow's calendar date and minute of the day. */
export function moscowNow(now: Date): { date: string; minute: number } {
  const m = new Date(now.getTime() + MOSCOW_OFFSET_MS);
  return {
    date: m.toISOString().slice(0, 10),
    minute: m.getUTCHours() * 60 + m.getUTCMinutes(),
  };
}

/** The next `count` days the salon is open with a slot still free, from
 * today (Moscow), looking no further than the server accepts. */
export function openDays(schedule: WorkSchedule, now: Date, count = DAYS_SHOWN): OpenDay[] {
  const today = moscowNow(now);
  const start = Date.parse(`${today.date}T00:00:00Z`);
  const out: OpenDay[] = [];
  for (let i = 0; i <= DAYS_AHEAD && out.length < count; i++) {
    const day = new Date(start + i * DAY_MS);
    const weekday = day.getUTCDay();
    // Monday first in the schedule, Sunday first in Date.
    const all = daySlots(schedule.days[(weekday + 6) % 7]);
    const slots = i === 0 ? all.filter((s) => (minutes(s) ?? 0) > today.minute) : all;
    if (slots.length === 0) continue;
    out.push({
      date: day.toISOString().slice(0, 10),
      weekday: i === 0 ? "Сегодня" : i === 1 ? "Завтра" : WEEKDAYS[weekday],
      label: dayLabel.format(day),
      slots,
      first: all[0],
      last: all[all.length - 1],
    });
  }
  return out;
}

/** The message for a day chosen without a time: the server's words. */
export function noTimeMessage(day: Pick<OpenDay, "first" | "last">): string {
  return `Выберите время с ${day.first} до ${day.last}`;
}

/** "2026-11-24" as "вторник, 24 ноября". */
export function longDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : longDay.format(d);
}

/** The weekday after «в», in the accusative: «в среду», «во вторник». */
const ON_WEEKDAY = [
  "в воскресенье",
  "в понедельник",
  "во вторник",
  "в среду",
  "в четверг",
  "в пятницу",
  "в субботу",
];

/** The test drive's toast: "Ждём вас в воскресенье, 6 декабря, в 20:30." */
export function visitText(date: string, time: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = Number.isNaN(d.getTime())
    ? date
    : `${ON_WEEKDAY[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]},`;
  return `Ждём вас ${day} в ${time}.`;
}

/** The salon is open every day from 9 to 21 unless settings say otherwise. */
export const DEFAULT_SCHEDULE: WorkSchedule = {
  days: Array.from({ length: 7 }, () => ({ open: "09:00", close: "21:00" })),
};
