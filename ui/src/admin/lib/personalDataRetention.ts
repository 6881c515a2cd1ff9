/** The retention periods of personal data and the acts of destruction
 * (docs/personal-data.md): the settings' fields, rules and payload, what is
 * due to be erased and what a run did, an act's counts and who made it. */

import type { components } from "../../api/schema";
import { plural } from "../../lib/format";

type Schemas = components["schemas"];
type RetentionDue = Schemas["RetentionDue"];
type RetentionRun = Schemas["RetentionRun"];
type DestructionAct = Schemas["DestructionAct"];

const count = (n: number, forms: [string, string, string]) => `${n} ${plural(n, forms)}`;

// ---- retention -----------------------------------------------------------------------

const PEOPLE: [string, string, string] = ["человек", "человека", "человек"];
/** "данные 1 человека, 2 человек, 5 человек" */
const OF_PEOPLE: [string, string, string] = ["человека", "человек", "человек"];
const YEARS: [string, string, string] = ["год", "года", "лет"];
const MONTH_FORMS: [string, string, string] = ["месяц", "месяца", "месяцев"];

/** "Сейчас к удалению: 2 человека (заявок 3, подписок 1)". */
export function retentionDueText(due: RetentionDue): string {
  if (due.subjects === 0) return "Сейчас к удалению: никого — сроки хранения ни у кого не истекли";
  return `Сейчас к удалению: ${count(due.subjects, PEOPLE)} (заявок ${due.leads}, подписок ${due.subscriptions})`;
}

/** What a run by hand did. */
export function retentionRunText(run: RetentionRun): string {
  const act = run.act;
  if (!act) return "Удалять было нечего: сроки хранения ни у кого не истекли";
  return `Удалены данные ${act.subjects} ${plural(act.subjects, OF_PEOPLE)} (заявок ${act.leads}, подписок ${act.subscriptions}). Составлен акт № ${act.id}.`;
}

/** "3 года после последнего обращения; отменённые заявки — 6 месяцев после
 * закрытия". */
export function retentionPeriodText(years: number, months: number): string {
  return `Данные хранятся ${count(years, YEARS)} после последнего обращения человека; отменённые заявки — ${count(months, MONTH_FORMS)} после закрытия.`;
}

export const RETENTION_YEARS_MIN = 1;
export const RETENTION_YEARS_MAX = 10;
export const RETENTION_YEARS_DEFAULT = 3;
export const RETENTION_YEARS_MESSAGE = "Срок хранения — от 1 до 10 лет";
export const CANCELLED_MONTHS_MIN = 1;
export const CANCELLED_MONTHS_MAX = 36;
export const CANCELLED_MONTHS_DEFAULT = 6;
export const CANCELLED_MONTHS_MESSAGE = "Срок для отменённых заявок — от 1 до 36 месяцев";

export interface RetentionForm {
  retentionYears: string;
  cancelledRetentionMonths: string;
}

export const RETENTION_FIELDS = ["retentionYears", "cancelledRetentionMonths"] as const;

export function retentionForm(s: {
  retentionYears?: number | null;
  cancelledRetentionMonths?: number | null;
}): RetentionForm {
  return {
    retentionYears: String(s.retentionYears ?? RETENTION_YEARS_DEFAULT),
    cancelledRetentionMonths: String(s.cancelledRetentionMonths ?? CANCELLED_MONTHS_DEFAULT),
  };
}

/** A typed whole number within `min`..`max`, or null. */
export function wholeIn(input: string, min: number, max: number): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

export const retentionRules = {
  retentionYears: {
    validate: (v: string) =>
      wholeIn(v, RETENTION_YEARS_MIN, RETENTION_YEARS_MAX) !== null || RETENTION_YEARS_MESSAGE,
  },
  cancelledRetentionMonths: {
    validate: (v: string) =>
      wholeIn(v, CANCELLED_MONTHS_MIN, CANCELLED_MONTHS_MAX) !== null || CANCELLED_MONTHS_MESSAGE,
  },
};

/** What the retention section saves (its rules passed: numbers in range). */
export function retentionPatch(form: RetentionForm): {
  retentionYears: number;
  cancelledRetentionMonths: number;
} {
  return {
    retentionYears: Number(form.retentionYears.trim()),
    cancelledRetentionMonths: Number(form.cancelledRetentionMonths.trim()),
  };
}

// ---- destruction acts ------------------------------------------------------------------

/** "2 человека; заявок 3, подписок 1, уведомлений 4, записей журнала 2". */
export function actCountsText(
  act: Pick<DestructionAct, "subjects" | "leads" | "subscriptions" | "deliveries" | "auditEntries">,
): string {
  return `${count(act.subjects, PEOPLE)}; заявок ${act.leads}, подписок ${act.subscriptions}, уведомлений ${act.deliveries}, записей журнала ${act.auditEntries}`;
}

/** Who destroyed: the login, the nightly job or the person by the link. */
export function actByText(act: Pick<DestructionAct, "by" | "reason">): string {
  if (act.by) return `Удалил: ${act.by}`;
  return act.reason === "withdrawal"
    ? "Удалено по ссылке из письма"
    : "Удалено автоматически по сроку хранения";
}
