/** The settings of «Смотрят, но не звонят» (docs/admin.md, "Cars nobody
 * calls about"): the days the dashboard looks back over and the views from
 * which a car with no contact and no call is listed, checked as the server
 * checks them. */
import { wholeIn } from "./personalDataRetention";

export const QUIET_DAYS_MIN = 3;
export const QUIET_DAYS_MAX = 90;
export const QUIET_VIEWS_MIN = 1;
export const QUIET_VIEWS_MAX = 100_000;
/** The server's words for a value out of range. */
export const QUIET_DAYS_MESSAGE = "Период «Смотрят, но не звонят» — от 3 до 90 дней";
export const QUIET_VIEWS_MESSAGE = "Порог просмотров «Смотрят, но не звонят» — от 1 до 100 000";

export interface QuietForm {
  quietCarDays: string;
  quietCarViews: string;
}

export const QUIET_FIELDS = ["quietCarDays", "quietCarViews"] as const;

export function quietForm(s: { quietCarDays?: number | null; quietCarViews?: number | null }) {
  return {
    quietCarDays: String(s.quietCarDays ?? 14),
    quietCarViews: String(s.quietCarViews ?? 100),
  };
}

/** The views may be typed with spaces between digits: «10 000». */
const digits = (v: string) => v.replace(/[\s\u00a0]/g, "");

export const quietRules = {
  quietCarDays: {
    validate: (v: string) =>
      wholeIn(v, QUIET_DAYS_MIN, QUIET_DAYS_MAX) !== null || QUIET_DAYS_MESSAGE,
  },
  quietCarViews: {
    validate: (v: string) =>
      wholeIn(digits(v), QUIET_VIEWS_MIN, QUIET_VIEWS_MAX) !== null || QUIET_VIEWS_MESSAGE,
  },
};

export function quietPatch(form: QuietForm): { quietCarDays: number; quietCarViews: number } {
  return {
    quietCarDays: Number(form.quietCarDays.trim()),
    quietCarViews: Number(digits(form.quietCarViews)),
  };
}
