/** The settings form's values: what the server's settings become in the
 * form, the fields a refusal may name, and where a link's anchor
 * (`/admin/settings#consent`) puts the focus. */
import type { AssignmentRule } from "../../api/types";
import { operatorFocus } from "../lib/operator";
import { RETENTION_FIELDS, type RetentionForm, retentionForm } from "../lib/personalData";
import { QUIET_FIELDS, type QuietForm, quietForm } from "../lib/quietCars";
import { type DayForm, scheduleForm } from "../lib/schedule";
import {
  type AdminSettings,
  assignmentForm,
  COMPANY_FORM_FIELDS,
  type CompanyForm,
  companyForm,
  mailLimitForm,
  thresholdForm,
} from "../lib/settings";
import { ANALYTICS_SWITCH, OPERATOR_IDS } from "./settings-legal";
import { RETENTION_ANCHOR, RETENTION_YEARS_ID } from "./settings-retention";

export type SettingsValues = CompanyForm &
  RetentionForm &
  QuietForm & {
    workSchedule: DayForm[];
    leadAssignment: AssignmentRule;
    /** Whole working minutes, as typed. */
    responseThresholdMinutes: string;
    /** The site's visitor mails in any 24 hours, as typed. */
    visitorMailDailyLimit: string;
  };

export const FIELDS = [
  ...COMPANY_FORM_FIELDS,
  "workSchedule",
  "leadAssignment",
  "responseThresholdMinutes",
  "visitorMailDailyLimit",
  ...RETENTION_FIELDS,
  ...QUIET_FIELDS,
];

export function formValues(s: AdminSettings): SettingsValues {
  return {
    ...companyForm(s),
    workSchedule: scheduleForm(s.workSchedule),
    leadAssignment: assignmentForm(s.leadAssignment),
    responseThresholdMinutes: thresholdForm(s.responseThresholdMinutes),
    visitorMailDailyLimit: mailLimitForm(s.visitorMailDailyLimit),
    ...retentionForm(s),
    ...quietForm(s),
  };
}

/** What a link may point at (`/admin/settings#consent`): the input it
 * focuses. The section of the operator lands on its first empty field. */
export function anchorTarget(anchor: string, values: SettingsValues): string | null {
  switch (anchor) {
    case "consent":
    case "privacy":
    case "assignment":
      return anchor;
    case "operator":
      return OPERATOR_IDS[operatorFocus(values)];
    case "analytics":
      return ANALYTICS_SWITCH;
    case RETENTION_ANCHOR:
      return RETENTION_YEARS_ID;
    default:
      return null;
  }
}
