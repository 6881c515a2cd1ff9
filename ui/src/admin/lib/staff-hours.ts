/** A staff member's working hours in the team's forms (docs/admin.md, "The
 * team"; docs/leads.md, "Who answers a lead"): the salon's (`null` in the
 * API) or their own seven days. New leads are given out by the settings'
 * rule only to a manager within these hours. */
import type { StaffUser, WorkSchedule } from "../../api/types";
import { type DayForm, scheduleError, scheduleForm, schedulePatch } from "./schedule";

/** The radio group: "Как у салона" or "Свои часы". */
export type HoursChoice = "salon" | "own";

export const HOURS_LABELS: Record<HoursChoice, string> = {
  salon: "Как у салона",
  own: "Свои часы",
};

/** The hours part of the add and edit forms. */
export interface HoursValues {
  hours: HoursChoice;
  /** The seven days' editor; kept while "Как у салона" is chosen, so
   * switching back and forth loses nothing. */
  workSchedule: DayForm[];
}

/** The form's hours from an account's: their own when set; otherwise the
 * salon's choice, with the editor prefilled from the salon's schedule (or
 * the default one while it is unknown). */
export function hoursValues(
  own: WorkSchedule | null | undefined,
  salon?: WorkSchedule | null,
): HoursValues {
  return own
    ? { hours: "own", workSchedule: scheduleForm(own) }
    : { hours: "salon", workSchedule: scheduleForm(salon) };
}

/** What the API takes for the choice: null for the salon's hours, the
 * schedule for one's own. */
export function hoursSchedule(values: HoursValues): WorkSchedule | null {
  return values.hours === "own" ? schedulePatch(values.workSchedule) : null;
}

/** The first problem of one's own hours, in the server's words (none for
 * the salon's). */
export function hoursError(values: HoursValues): string | null {
  return values.hours === "own" ? scheduleError(values.workSchedule) : null;
}

/** A schedule as one comparable text, whatever the order of its keys. */
function scheduleKey(schedule: WorkSchedule | null | undefined): string {
  if (!schedule) return "salon";
  return schedule.days.map((d) => (d ? `${d.open}-${d.close}` : "off")).join(",");
}

/** The `workSchedule` of a change: absent (undefined) when the hours stay
 * as they are, null to go back to the salon's, or the new schedule. */
export function hoursChange(
  user: Pick<StaffUser, "workSchedule">,
  values: HoursValues,
): WorkSchedule | null | undefined {
  const next = hoursSchedule(values);
  return scheduleKey(next) === scheduleKey(user.workSchedule) ? undefined : next;
}

/** The team table's note beside an account with hours of its own. */
export function hoursNote(user: Pick<StaffUser, "workSchedule">): string | null {
  return user.workSchedule ? "свои часы" : null;
}
