/** How fast the team answers leads (docs/response-times.md): the dashboard's
 * figures per period and staff user, the 14-day chart and the leads still new
 * past the threshold. Minutes are working minutes. */
import type { components } from "../../api/schema";

export const RESPONSE_TIMES_URL = "/api/admin/response-times";

export type PeriodKey = components["schemas"]["ResponsePeriodName"];
/** Leads answered and their median and 90th percentile (null: none answered). */
export type ResponseStats = components["schemas"]["ResponseFigures"];
export type UserStats = components["schemas"]["UserResponseFigures"];
/** The calls of a period and its missed calls called back. */
export type PhoneStats = components["schemas"]["PhoneFigures"];
/** A user's missed calls' leads and how they were called back. */
export type MissedCallStats = components["schemas"]["MissedCallFigures"];
export type PeriodStats = components["schemas"]["ResponsePeriod"];
/** One Moscow day of the chart ("2026-11-10"). */
export type DayStats = components["schemas"]["ResponseDay"];
export type OverdueLead = components["schemas"]["OverdueLead"];
export type ResponseTimes = components["schemas"]["ResponseTimes"];

export const PERIOD_LABELS: Record<PeriodKey, string> = {
  today: "Сегодня",
  thisWeek: "Эта неделя",
  lastWeek: "Прошлая неделя",
};

/** "7 мин", "1 ч", "1 ч 20 мин"; "—" when there is no figure. */
export function formatMinutes(minutes: number | null | undefined): string {
  if (minutes == null || !Number.isFinite(minutes)) return "—";
  const m = Math.max(0, Math.round(minutes));
  const hours = Math.floor(m / 60);
  const rest = m % 60;
  if (hours === 0) return `${rest} мин`;
  return rest === 0 ? `${hours} ч` : `${hours} ч ${rest} мин`;
}

/** A short label of the chart's axis: "30 мин", "2 ч", "1,5 ч". */
export function axisLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} мин`;
  const hours = minutes / 60;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1).replace(".", ",")} ч`;
}

/** The top of the chart's scale: the first of these at or above the
 * largest figure (and the threshold, so its line fits), then whole 8-hour
 * working days. Every one is even: the middle tick is whole minutes. */
const NICE_TOPS = [10, 20, 30, 40, 60, 90, 120, 180, 240, 360, 480];

export function scaleTop(values: readonly (number | null | undefined)[], threshold = 0): number {
  const largest = Math.max(threshold, ...values.map((v) => v ?? 0));
  const nice = NICE_TOPS.find((top) => top >= largest);
  return nice ?? Math.ceil(largest / 480) * 480;
}

/** The chart's coordinates: `SLOT` units a day across, `HEIGHT` units up. */
export const SLOT = 10;
export const HEIGHT = 100;
/** A bar of a day with a figure never disappears, even at 0 minutes. */
const MIN_BAR = 1;

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

export interface DayBars {
  date: string;
  median: Bar | null;
  p90: Bar | null;
}

export interface Chart {
  top: number;
  /** The axis ticks, bottom up, and where they sit (0..HEIGHT from the bottom). */
  ticks: { minutes: number; at: number }[];
  /** The threshold line's height from the bottom (0..HEIGHT). */
  threshold: number;
  days: DayBars[];
  width: number;
}

function bar(value: number | null | undefined, x: number, width: number, top: number): Bar | null {
  if (value == null) return null;
  const height = Math.max(MIN_BAR, Math.min(HEIGHT, (value / top) * HEIGHT));
  return { x, y: HEIGHT - height, width, height, value };
}

/** Two bars a day, the median then the 90th percentile, side by side in the
 * day's slot; bar heights in proportion to the scale's top. */
export function chartLayout(daily: readonly DayStats[], thresholdMinutes: number): Chart {
  const top = scaleTop(
    daily.flatMap((d) => [d.medianMinutes, d.p90Minutes]),
    thresholdMinutes,
  );
  const gap = 1.5;
  const width = (SLOT - 2 * gap) / 2;
  const days = daily.map((d, i) => {
    const x = i * SLOT + gap;
    return {
      date: d.date,
      median: bar(d.medianMinutes, x, width, top),
      p90: bar(d.p90Minutes, x + width, width, top),
    };
  });
  return {
    top,
    ticks: [0, top / 2, top].map((minutes) => ({ minutes, at: (minutes / top) * HEIGHT })),
    threshold: Math.min(HEIGHT, (thresholdMinutes / top) * HEIGHT),
    days,
    width: daily.length * SLOT,
  };
}

const dayMonth = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/** "2026-11-10" → "10 ноября". */
export function dayLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayMonth.format(d);
}

/** "2026-11-10" → "10" (under the chart's bars). */
export function dayNumber(date: string): string {
  const n = Number(date.slice(8, 10));
  return Number.isFinite(n) && n > 0 ? String(n) : date;
}

/** What the chart shows, in words (its accessible name). */
export function chartSummary(daily: readonly DayStats[], thresholdMinutes: number): string {
  const first = daily[0];
  const last = daily[daily.length - 1];
  const span =
    first && last ? `с ${dayLabel(first.date)} по ${dayLabel(last.date)}` : "за последние 14 дней";
  const answered = daily.reduce((n, d) => n + d.answered, 0);
  const medians = daily.flatMap((d) => (d.medianMinutes == null ? [] : [d.medianMinutes]));
  const p90s = daily.flatMap((d) => (d.p90Minutes == null ? [] : [d.p90Minutes]));
  const head = `Время ответа на заявки по дням ${span}`;
  if (answered === 0 || medians.length === 0) return `${head}: ответов не было.`;
  const lo = Math.min(...medians);
  const hi = Math.max(...medians);
  const median = lo === hi ? formatMinutes(lo) : `от ${formatMinutes(lo)} до ${formatMinutes(hi)}`;
  return (
    `${head}: ответов ${answered}; медиана за день ${median}; ` +
    `90-й процентиль до ${formatMinutes(Math.max(...p90s))}; ` +
    `порог ${formatMinutes(thresholdMinutes)}.`
  );
}

/** One row of the staff table: a user's figures in each period (null: no
 * answers from them then). */
export interface UserRow {
  username: string;
  periods: Record<PeriodKey, UserStats | null>;
}

/** Every user of any period, by name, with their figures per period. */
export function userRows(periods: readonly PeriodStats[]): UserRow[] {
  const names = [...new Set(periods.flatMap((p) => p.users.map((u) => u.username)))].sort((a, b) =>
    a.localeCompare(b, "ru"),
  );
  return names.map((username) => {
    const row: Record<PeriodKey, UserStats | null> = {
      today: null,
      thisWeek: null,
      lastWeek: null,
    };
    for (const p of periods) row[p.period] = p.users.find((u) => u.username === username) ?? null;
    return { username, periods: row };
  });
}

/** A period's calls in a line, or null when no call came and none was
 * missed: "Звонков: 4, пропущено: 3. Перезвонили 2 из 3, вовремя 1". */
export function phoneSummary(phone: PhoneStats | undefined): string | null {
  if (!phone || (phone.calls === 0 && phone.missed === 0)) return null;
  const calls = `Звонков: ${phone.calls}, пропущено: ${phone.missedCalls}`;
  return phone.missed === 0 ? calls : `${calls}. ${callbackText(phone)}`;
}

/** "Перезвонили 1 из 3, вовремя 0"; "—" without missed calls. */
export function callbackText(m: MissedCallStats | null | undefined): string {
  if (!m || m.missed === 0) return "—";
  return `Перезвонили ${m.calledBack} из ${m.missed}, вовремя ${m.inTime}`;
}

/** Whether any period has a missed call to call back (the staff table of
 * call-backs is shown then). */
export function hasMissedCalls(periods: readonly PeriodStats[]): boolean {
  return periods.some((p) => (p.phone?.missed ?? 0) > 0);
}
