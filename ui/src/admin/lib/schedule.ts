/** The settings screen's working schedule: one row per weekday (Monday
 * first), open and close times or a day off. Test-drive slots come from it
 * (docs/leads.md). */
import { DEFAULT_SCHEDULE, minutes, type WorkSchedule } from "../../lib/slots";

export const WEEKDAY_NAMES = [
  "Понедельник",
  "Вторник",
  "Среда",
  "Четверг",
  "Пятница",
  "Суббота",
  "Воскресенье",
];

export interface DayForm {
  closed: boolean;
  open: string;
  close: string;
}

export function scheduleForm(schedule: WorkSchedule | null | undefined): DayForm[] {
  const days = schedule?.days?.length === 7 ? schedule.days : DEFAULT_SCHEDULE.days;
  return days.map((d) =>
    d ? { closed: false, open: d.open, close: d.close } : { closed: true, open: "", close: "" },
  );
}

export function schedulePatch(days: DayForm[]): WorkSchedule {
  return {
    days: days.map((d) => (d.closed ? null : { open: d.open.trim(), close: d.close.trim() })),
  };
}

/** The first problem of the schedule, in the words the server uses. */
export function scheduleError(days: DayForm[]): string | null {
  for (const [i, d] of days.entries()) {
    if (d.closed) continue;
    const open = minutes(d.open.trim());
    const close = minutes(d.close.trim());
    const day = WEEKDAY_NAMES[i] ?? "";
    if (open === null || close === null)
      return `${day}: время указывается как ЧЧ:ММ, например 09:00`;
    if (open >= close) return `${day}: время открытия должно быть раньше времени закрытия`;
  }
  return null;
}
