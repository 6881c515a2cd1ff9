/** The settings screens: what each form sends, and the consent-version
 * notice (a new consent text is a new edition; docs/leads.md). */
import type { components } from "../../api/schema";
import type { AssignmentRule } from "../../api/types";

export type AdminSettings = components["schemas"]["Settings"];
export type SettingsPatch = components["schemas"]["SettingsPatch"];

/** The company form's fields, in the order of the form. */
export const COMPANY_FIELDS = [
  "salonName",
  "phone",
  "phoneSecondary",
  "email",
  "address",
  "fullAddress",
  "heroTitle",
  "heroSubtitle",
  "homeBanner",
  "favicon",
  "googleAnalyticsId",
  "yandexMetrikaId",
  "operatorName",
  "operatorInn",
  "operatorOgrn",
  "operatorAddress",
  "consentText",
  "privacyPolicy",
] as const;

export type CompanyField = (typeof COMPANY_FIELDS)[number];
export type CompanyForm = Record<CompanyField, string> & {
  /** Google Analytics starts only when this is on (docs/personal-data.md). */
  googleAnalyticsEnabled: boolean;
};

/** Every field the company form sends, the switch included: a refusal
 * naming one of them is shown at it. */
export const COMPANY_FORM_FIELDS = [...COMPANY_FIELDS, "googleAnalyticsEnabled"] as const;

export function companyForm(s: AdminSettings): CompanyForm {
  return {
    ...(Object.fromEntries(COMPANY_FIELDS.map((f) => [f, s[f] ?? ""])) as Record<
      CompanyField,
      string
    >),
    googleAnalyticsEnabled: s.googleAnalyticsEnabled ?? false,
  };
}

/** What the company form sends: every text field trimmed, and the switch. */
export function companyPatch(form: CompanyForm): SettingsPatch {
  return {
    ...(Object.fromEntries(
      COMPANY_FIELDS.map((f) => [f, (form[f] ?? "").trim()]),
    ) as SettingsPatch),
    googleAnalyticsEnabled: form.googleAnalyticsEnabled === true,
  };
}

/** The e-mail notification form of the leads screen. */
export interface EmailForm {
  notificationEmail: string;
  fromEmail: string;
  emailNotificationsEnabled: boolean;
}

export function emailForm(s: Pick<AdminSettings, keyof EmailForm>): EmailForm {
  return {
    notificationEmail: s.notificationEmail ?? "",
    fromEmail: s.fromEmail ?? "",
    emailNotificationsEnabled: s.emailNotificationsEnabled ?? true,
  };
}

export function emailPatch(form: EmailForm): SettingsPatch {
  return {
    notificationEmail: form.notificationEmail.trim(),
    fromEmail: form.fromEmail.trim(),
    emailNotificationsEnabled: form.emailNotificationsEnabled,
  };
}

/** Always shown by the consent text: what editing it does. */
export function consentHint(version: number): string {
  return `Действующая редакция № ${version}. Каждое изменение текста согласия или политики конфиденциальности создаёт новую редакцию; с каждой заявкой хранится номер редакции, на которую согласился посетитель.`;
}

/** The hint under the privacy policy: the consent links to it, so a new
 * policy is a new consent edition (docs/admin.md), as the server does. */
export const PRIVACY_HINT =
  "Страница /privacy. Согласие ссылается на политику, поэтому её изменение тоже создаёт новую редакцию согласия.";

/** The texts a consent edition is made of: the consent and the policy. */
export interface ConsentTexts {
  consentText: string;
  privacyPolicy: string;
}

/** Shown while the consent text or the privacy policy differs from the
 * saved one: saving makes the next edition. */
export function consentNotice(
  saved: ConsentTexts,
  current: ConsentTexts,
  version: number,
): string | null {
  const same = (a: string, b: string) => a.trim() === b.trim();
  const consent = !same(saved.consentText, current.consentText);
  const policy = !same(saved.privacyPolicy, current.privacyPolicy);
  if (!consent && !policy) return null;
  const what =
    consent && policy
      ? "Текст согласия и политика изменены"
      : consent
        ? "Текст согласия изменён"
        : "Политика конфиденциальности изменена";
  return `${what}: после сохранения согласие станет редакцией № ${version + 1}. Новые заявки будут ссылаться на неё, старые сохранят свою редакцию.`;
}

/** The response-time threshold (docs/response-times.md): a lead still new after
 * this many working minutes is overdue and announced once more. */
export const THRESHOLD_MIN = 1;
export const THRESHOLD_MAX = 480;
export const DEFAULT_THRESHOLD = 15;
/** The server's words for a threshold out of range. */
export const THRESHOLD_MESSAGE = "Порог ответа — от 1 до 480 минут";

/** The threshold's input: the saved minutes, or the default. */
export function thresholdForm(minutes: number | null | undefined): string {
  return String(minutes ?? DEFAULT_THRESHOLD);
}

/** The typed threshold as whole minutes in range, or null. */
export function thresholdValue(input: string): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= THRESHOLD_MIN && n <= THRESHOLD_MAX ? n : null;
}

export const thresholdRules = {
  validate: (v: unknown) =>
    (typeof v === "string" && thresholdValue(v) !== null) || THRESHOLD_MESSAGE,
};

/** The site's total of mails visitors may trigger to any address (saved
 * searches' confirmations) in any 24 hours (docs/saved-searches.md, "Mail a
 * stranger can trigger"). */
export const MAIL_LIMIT_MIN = 1;
export const MAIL_LIMIT_MAX = 10_000;
export const DEFAULT_MAIL_LIMIT = 300;
/** The server's words for a total out of range. */
export const MAIL_LIMIT_MESSAGE = "Писем посетителям в сутки — от 1 до 10 000";

/** The total's input: the saved number, or the default. */
export function mailLimitForm(limit: number | null | undefined): string {
  return String(limit ?? DEFAULT_MAIL_LIMIT);
}

/** The typed total as a whole number in range (spaces between digits
 * allowed: "1 000"), or null. */
export function mailLimitValue(input: string): number | null {
  const text = input.replace(/[\s\u00a0]/g, "");
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= MAIL_LIMIT_MIN && n <= MAIL_LIMIT_MAX ? n : null;
}

export const mailLimitRules = {
  validate: (v: unknown) =>
    (typeof v === "string" && mailLimitValue(v) !== null) || MAIL_LIMIT_MESSAGE,
};

/** How a new lead finds its assignee (docs/leads.md, "Who answers a lead"),
 * in the order the settings offer them. */
export const ASSIGNMENT_RULES: readonly AssignmentRule[] = ["none", "round_robin", "least_loaded"];

export const ASSIGNMENT_LABELS: Record<AssignmentRule, string> = {
  none: "Вручную: менеджеры берут заявки сами, владелец передаёт",
  round_robin: "По очереди между менеджерами на смене",
  least_loaded: "Наименее загруженному менеджеру на смене",
};

/** Where the rule is set: the settings' field (`#assignment` focuses it). */
export const ASSIGNMENT_SETTINGS_HREF = "/settings#assignment";

/** The team screen's line naming the rule in force (docs/admin.md, "The team"). */
export function assignmentLine(rule: AssignmentRule | null | undefined): string {
  return `Новые заявки распределяются так: ${ASSIGNMENT_LABELS[assignmentForm(rule)].replace(/^./, (c) => c.toLowerCase())}.`;
}

/** Said under the choice: who gets leads by a rule, and when nobody does. */
export const ASSIGNMENT_HINT =
  "Автоматически заявки получают только действующие менеджеры в свои рабочие часы. Если на смене никого нет, заявка остаётся без ответственного.";

/** The saved rule, or "none" (an older server without it). */
export function assignmentForm(rule: AssignmentRule | null | undefined): AssignmentRule {
  return rule && ASSIGNMENT_RULES.includes(rule) ? rule : "none";
}
