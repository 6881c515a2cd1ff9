/** A person's requests about their personal data (152-FZ; docs/personal-data.md):
 * the URLs of the screen "Персональные данные", the labels of request kinds
 * and outcomes, the deadline (10 working days) as words, what each form
 * sends, the masked subject, the export's file name, and the texts of what
 * was found, erased and is due to be erased by the retention period. */

import type { components } from "../../api/schema";
import { isEmail } from "../../lib/email";
import { plural } from "../../lib/format";
import { dayNumber, daysBetween, momentDay, workingDaysBetween } from "./personalDataDates";

type Schemas = components["schemas"];

export type DataRequest = Schemas["DataRequest"];
export type DestructionAct = Schemas["DestructionAct"];
export type RetentionDue = Schemas["RetentionDue"];
export type RetentionRun = Schemas["RetentionRun"];
export type NewDataRequest = Schemas["NewDataRequest"];
export type AnswerInput = Schemas["AnswerInput"];
export type ExportInput = Schemas["ExportInput"];
export type EraseInput = Schemas["EraseInput"];
export type PersonData = Schemas["PersonData"];
export type Erased = Schemas["Erased"];
export type SubjectInput = Schemas["SubjectInput"];

export type RequestKind = DataRequest["kind"];
export type RequestOutcome = NonNullable<DataRequest["outcome"]>;
/** What closing a request by hand may say (erasing closes it as "erased"). */
export type AnswerOutcome = AnswerInput["outcome"];
/** What an owner registers (a withdrawal comes only by the mail's link). */
export type NewRequestKind = NewDataRequest["kind"];
export type ExportFormat = ExportInput["format"];

// ---- URLs ---------------------------------------------------------------------

const BASE = "/api/admin/personal-data";
export const REQUESTS_URL = `${BASE}/requests`;
export const FIND_URL = `${BASE}/find`;
export const ERASE_URL = `${BASE}/erase`;
export const ACTS_URL = `${BASE}/acts`;
export const RETENTION_URL = `${BASE}/retention`;
export const RETENTION_RUN_URL = `${BASE}/retention/run`;
export const SETTINGS_URL = "/api/admin/settings";
/** The public page of the withdrawal link (and its call). */
export const FORGET_URL = "/api/personal-data/forget";

export const answerUrl = (id: number) => `${REQUESTS_URL}/${id}/answer`;
export const actUrl = (id: number) => `${ACTS_URL}/${id}`;

/** The screen in the panel, and where the settings edit the periods. */
export const PERSONAL_DATA_SCREEN = "/personal-data";
export const RETENTION_SETTINGS_HREF = "/settings#retention";

// ---- labels -------------------------------------------------------------------

export const KIND_LABELS: Record<RequestKind, string> = {
  access: "О предоставлении сведений",
  erase: "Об удалении",
  withdrawal: "Отзыв согласия по ссылке из письма",
};

/** The kinds an owner registers, in the form's order. */
export const NEW_REQUEST_KINDS: readonly NewRequestKind[] = ["access", "erase"];

export const OUTCOME_LABELS: Record<RequestOutcome, string> = {
  provided: "Сведения предоставлены",
  erased: "Данные удалены",
  nothing_held: "Данных нет",
  refused: "Отказано",
};

/** The outcomes of closing a request by hand, in the dialog's order. */
export const ANSWER_OUTCOMES: readonly AnswerOutcome[] = ["provided", "nothing_held", "refused"];

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind as RequestKind] ?? kind;
}

export function outcomeLabel(outcome: string | null | undefined): string {
  if (!outcome) return "";
  return OUTCOME_LABELS[outcome as RequestOutcome] ?? outcome;
}

// ---- messages (the server's words) ---------------------------------------------

export const SUBJECT_REQUIRED = "Укажите телефон или e-mail человека";
export const BAD_EMAIL = "Неверный формат email";
export const REFUSAL_NOTE_REQUIRED = "Укажите причину отказа";
export const NOTE_MAX = 2000;
export const NOTE_TOO_LONG = "Не длиннее 2000 символов";
export const RECEIVED_ON_RANGE = "Дата обращения — не позже сегодняшней и не раньше чем год назад";
export const NOTHING_FOUND = "Ничего не найдено";
/** The deadline of an answer (152-FZ art. 20 as amended: 10 working days). */
export const ANSWER_WORKING_DAYS = 10;

// ---- deadlines (the dates themselves: personalDataDates.ts) -------------------------

const DAY_FORMS: [string, string, string] = ["день", "дня", "дней"];
const WORKING_DAY_FORMS: [string, string, string] = ["рабочий день", "рабочих дня", "рабочих дней"];
/** How an open request stands against its deadline: "осталось 3 рабочих
 * дня", "срок истекает сегодня", "просрочен на 2 дня"; null once answered.
 * The server's `overdue` wins when the browser's clock disagrees. */
export function dueLabel(
  r: Pick<DataRequest, "dueOn" | "answeredAt" | "overdue">,
  today: string,
): string | null {
  if (r.answeredAt) return null;
  const late = daysBetween(r.dueOn, today);
  if (r.overdue || late > 0) {
    const n = Math.max(1, late);
    return `просрочен на ${n} ${plural(n, DAY_FORMS)}`;
  }
  const left = workingDaysBetween(today, r.dueOn);
  if (left === 0) return "срок истекает сегодня";
  const verb = plural(left, ["остался", "осталось", "осталось"]);
  return `${verb} ${left} ${plural(left, WORKING_DAY_FORMS)}`;
}

/** Open requests (not yet answered), in the server's order. */
export function openRequests<T extends Pick<DataRequest, "answeredAt">>(list: readonly T[]): T[] {
  return list.filter((r) => r.answeredAt == null);
}

/** "Закрыт 26 ноября 2026 г.: Данные удалены". */
export function closedText(r: Pick<DataRequest, "answeredAt" | "outcome">): string {
  if (!r.answeredAt) return "";
  const outcome = outcomeLabel(r.outcome);
  return `Закрыт ${momentDay(r.answeredAt)}${outcome ? `: ${outcome}` : ""}`;
}

// ---- the subject, shown and masked ----------------------------------------------

/** "+7 921 555-00-11" for a stored "+79215550011" (anything else stays):
 * how the panel (the leads list and details, the person's data) shows a
 * phone, as the HTML export does (`phone::display`). */
export function formatPhone(phone: string): string {
  const m = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  return m ? `+7 ${m[1]} ${m[2]}-${m[3]}-${m[4]}` : phone;
}

/** What the panel shows instead of an erased lead's phone (erasure keeps
 * the lead for the figures and empties its phone: no call link to `tel:`). */
export const PHONE_ERASED = "Телефон удалён";

/** "+7 *** ***-45-67": only the last four digits, as the server masks an
 * answered request. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 4) return "***";
  return `+7 *** ***-${digits.slice(-4, -2)}-${digits.slice(-2)}`;
}

/** "a***@b.ru": the first letter and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email[0]}***${email.slice(at)}`;
}

/** Whom a request is about: an open one's phone and address as a person
 * reads them ("+7 921 123-45-67, a@b.ru"), an answered one as the server
 * masked it. */
export function subjectText(r: Pick<DataRequest, "phone" | "email" | "subject">): string {
  const parts = [r.phone ? formatPhone(r.phone) : null, r.email || null].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : r.subject;
}

/** Whom a request is about, masked (the dashboard shows no one in full):
 * an open one from its phone and address, an answered one as the server
 * already masked it. */
export function maskedSubject(r: Pick<DataRequest, "phone" | "email" | "subject">): string {
  const parts = [r.phone ? maskPhone(r.phone) : null, r.email ? maskEmail(r.email) : null].filter(
    Boolean,
  );
  return parts.length > 0 ? parts.join(", ") : r.subject;
}

// ---- forms and what they send ------------------------------------------------------

export interface SubjectForm {
  phone: string;
  email: string;
}

export const SUBJECT_FIELDS = ["phone", "email"] as const;

export const emptySubject = (): SubjectForm => ({ phone: "", email: "" });

/** The subject trimmed; a blank field is left out. */
export function subjectBody(form: SubjectForm): SubjectInput {
  const body: SubjectInput = {};
  const phone = form.phone.trim();
  const email = form.email.trim();
  if (phone) body.phone = phone;
  if (email) body.email = email;
  return body;
}

/** Whether two subjects are the same person's as typed (spaces and case of
 * the address aside). */
export function sameSubject(a: SubjectForm, b: SubjectForm): boolean {
  const phone = (s: SubjectForm) => s.phone.replace(/\D/g, "").replace(/^8/, "7");
  const email = (s: SubjectForm) => s.email.trim().toLowerCase();
  return phone(a) === phone(b) && email(a) === email(b);
}

/** The subject's form filled from a request. */
export function subjectOf(r: Pick<DataRequest, "phone" | "email">): SubjectForm {
  return { phone: r.phone ? formatPhone(r.phone) : "", email: r.email ?? "" };
}

/** The client's check of a subject: something to search by, an address
 * well formed. The phone's spelling is left to the server (its message lands
 * on the field), so the panel does not carry the forms' phone rule. */
export const subjectRules = {
  phone: {
    validate: (value: string, form: SubjectForm) =>
      !!value.trim() || !!form.email.trim() || SUBJECT_REQUIRED,
  },
  email: {
    validate: (value: string) => {
      const email = value.trim();
      return !email || isEmail(email) || BAD_EMAIL;
    },
  },
};

export interface RequestForm extends SubjectForm {
  kind: NewRequestKind;
  /** "YYYY-MM-DD"; blank: today (the server's default). */
  receivedOn: string;
  note: string;
}

export const REQUEST_FIELDS = ["kind", "phone", "email", "receivedOn", "note"] as const;

export function requestFormDefaults(today: string): RequestForm {
  return { kind: "access", phone: "", email: "", receivedOn: today, note: "" };
}

/** What registering a request sends: blanks are left out. */
export function newRequestBody(form: RequestForm): NewDataRequest {
  const body: NewDataRequest = { kind: form.kind, ...subjectBody(form) };
  const receivedOn = form.receivedOn.trim();
  const note = form.note.trim();
  if (receivedOn) body.receivedOn = receivedOn;
  if (note) body.note = note;
  return body;
}

/** A received date the server takes: not after today, not over a year ago. */
export function receivedOnError(value: string, today: string): string | null {
  const day = value.trim();
  if (!day) return null;
  const back = daysBetween(day, today);
  if (dayNumber(day) === null || back < 0 || back > 366) return RECEIVED_ON_RANGE;
  // Exactly a year back is the earliest ("2025-11-26" on 2026-11-26).
  const [y, m, d] = today.split("-");
  const yearAgo = `${Number(y) - 1}-${m}-${d}`;
  return day < yearAgo ? RECEIVED_ON_RANGE : null;
}

const noteTooLong = (note: string) => [...note.trim()].length > NOTE_MAX;

export const noteRule = {
  validate: (value: string) => !noteTooLong(value) || NOTE_TOO_LONG,
};

export interface AnswerForm {
  outcome: AnswerOutcome | "";
  note: string;
}

export const ANSWER_FIELDS = ["outcome", "note"] as const;

/** The closing dialog's check: an outcome, and a reason for a refusal. */
export function answerErrors(form: AnswerForm): Partial<Record<keyof AnswerForm, string>> {
  const errors: Partial<Record<keyof AnswerForm, string>> = {};
  if (!form.outcome) errors.outcome = "Выберите итог";
  if (form.outcome === "refused" && !form.note.trim()) errors.note = REFUSAL_NOTE_REQUIRED;
  else if (noteTooLong(form.note)) errors.note = NOTE_TOO_LONG;
  return errors;
}

/** What closing a request sends; a blank note is left out. */
export function answerBody(form: AnswerForm & { outcome: AnswerOutcome }): AnswerInput {
  const note = form.note.trim();
  return note ? { outcome: form.outcome, note } : { outcome: form.outcome };
}

export function exportBody(form: SubjectForm, format: ExportFormat): ExportInput {
  return { ...subjectBody(form), format };
}

/** What erasing sends: with the request it answers, when the search came
 * from one. */
export function eraseBody(form: SubjectForm, requestId: number | null): EraseInput {
  return requestId == null ? subjectBody(form) : { ...subjectBody(form), requestId };
}

// ---- what was found and erased --------------------------------------------------------

const count = (n: number, forms: [string, string, string]) => `${n} ${plural(n, forms)}`;

/** Whether nothing is held about the person. */
export function nothingFound(data: PersonData): boolean {
  return (
    data.leads.length === 0 &&
    data.subscriptions.length === 0 &&
    data.deliveries.length === 0 &&
    data.audit.length === 0 &&
    data.comments.length === 0
  );
}

/** "Найдено: заявок 2, подписок 1, уведомлений 3, записей журнала 4,
 * комментариев 1" or "Ничего не найдено". */
export function foundSummary(data: PersonData): string {
  if (nothingFound(data)) return NOTHING_FOUND;
  return `Найдено: заявок ${data.leads.length}, подписок ${data.subscriptions.length}, уведомлений ${data.deliveries.length}, записей журнала ${data.audit.length}, комментариев ${data.comments.length}`;
}

/** What the erase confirmation lists. */
export function eraseWarning(data: PersonData): string {
  // Only what the person has: no «0 комментариев».
  const parts = [
    data.leads.length > 0 &&
      `имя, телефон, e-mail и сообщения в ${count(data.leads.length, ["заявке", "заявках", "заявках"])} (останутся только тип, статус и даты)`,
    data.comments.length > 0 &&
      count(data.comments.length, ["комментарий", "комментария", "комментариев"]),
    data.subscriptions.length > 0 &&
      `${count(data.subscriptions.length, ["подписка", "подписки", "подписок"])} с их письмами`,
    data.deliveries.length > 0 &&
      `содержимое ${count(data.deliveries.length, ["уведомления", "уведомлений", "уведомлений"])}`,
  ].filter(Boolean);
  const erased = parts.length > 0 ? `Будут удалены: ${parts.join(", ")}` : "";
  const audit =
    data.audit.length > 0 ? "в журнале имя, телефон и адрес будут заменены на «[удалено]»" : "";
  const text = [erased, audit].filter(Boolean).join("; ");
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "";
}

export const ERASE_IRREVERSIBLE =
  "Это действие нельзя отменить: восстановить данные будет невозможно.";

/** "Удалено: заявок 1, комментариев 0, подписок 1, уведомлений 2, записей
 * журнала 3", or that there was nothing to erase. */
export function erasedSummary(e: Erased): string {
  const total = e.leads + e.comments + e.subscriptions + e.deliveries + e.auditEntries;
  if (total === 0) return "Ничего не удалено: данных об этом человеке нет";
  const parts: [number, string][] = [
    [e.leads, "заявок"],
    [e.comments, "комментариев"],
    [e.subscriptions, "подписок"],
    [e.deliveries, "уведомлений"],
    [e.auditEntries, "записей журнала"],
  ];
  return `Удалено: ${parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${what} ${n}`)
    .join(", ")}`;
}

export * from "./personalDataDates";
export * from "./personalDataExport";
export * from "./personalDataRetention";
