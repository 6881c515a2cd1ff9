/** Which salon is open now and which opens soonest, in Moscow time (UTC+3
 * all year): a general form offers the salons «the nearest open first»
 * (issue 46). Loaded by the browser only, when the site has several salons
 * (components/leads/SalonSelect.tsx): the server's page is kept and cannot
 * know the moment it is read. */
import type { WorkSchedule } from "./slots";
import { minutes, moscowNow } from "./slots";

const DAY = 24 * 60;
const ON_WEEKDAY = [
  "в понедельник",
  "во вторник",
  "в среду",
  "в четверг",
  "в пятницу",
  "в субботу",
  "в воскресенье",
];

export interface SalonState {
  open: boolean;
  /** Open: when it closes; closed: when it opens next ("09:00"), null never. */
  at: string | null;
  /** Minutes until it opens: 0 when open, Infinity when it never does. */
  wait: number;
  /** Days until the opening: 0 today, 1 tomorrow (0 when open). */
  days: number;
  /** The weekday it opens, Monday 0. */
  weekday: number;
}

/** A salon's state at `now` by its weekly schedule (Monday first, null a
 * day off; a day's hours open ≤ t < close). */
export function salonState(schedule: WorkSchedule | null | undefined, now: Date): SalonState {
  const { date, minute } = moscowNow(now);
  // Monday 0 … Sunday 6.
  const today = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  const days = schedule?.days ?? [];
  for (let i = 0; i <= 7; i++) {
    const weekday = (today + i) % 7;
    const hours = days[weekday];
    if (!hours) continue;
    const open = minutes(hours.open);
    const close = minutes(hours.close);
    if (open === null || close === null || close <= open) continue;
    if (i === 0 && minute >= open && minute < close) {
      return { open: true, at: hours.close, wait: 0, days: 0, weekday };
    }
    const wait = i * DAY + open - minute;
    if (wait > 0) return { open: false, at: hours.open, wait, days: i, weekday };
  }
  return { open: false, at: null, wait: Number.POSITIVE_INFINITY, days: 0, weekday: today };
}

/** «открыт до 21:00», «откроется в 09:00», «откроется завтра в 09:00»,
 * «откроется в понедельник в 09:00». */
export function stateText(state: SalonState): string {
  if (state.open) return `открыт до ${state.at}`;
  if (state.at === null) return "закрыт";
  const day =
    state.days === 0 ? "" : state.days === 1 ? "завтра " : `${ON_WEEKDAY[state.weekday]} `;
  return `откроется ${day}в ${state.at}`;
}

/** The salons, those open now first (in their own order, the main first),
 * then the closed ones by how soon they open; each with its state. */
export function nearestOpenFirst<T extends { workSchedule?: WorkSchedule | null }>(
  salons: readonly T[],
  now: Date,
): { salon: T; state: SalonState }[] {
  return salons
    .map((salon, index) => ({ salon, index, state: salonState(salon.workSchedule, now) }))
    .sort((a, b) => a.state.wait - b.state.wait || a.index - b.index)
    .map(({ salon, state }) => ({ salon, state }));
}
