/** The salon form's logic (issue 46): its values, checks in the server's
 * words (src/domain/salons.rs), what it sends, and the delete's question.
 * The screens are salons.tsx and salons-form.tsx. */
import type { components } from "../../api/schema";
import { isEmail } from "./rules";
import type { SalonRecord } from "./salons";
import { type DayForm, scheduleForm, schedulePatch } from "./schedule";

export type SalonInput = components["schemas"]["SalonInput"];
type LeadType = components["schemas"]["LeadType"];

export const SALON_MESSAGES = {
  name: "Название салона обязательно",
  latitude: "Широта: число от -90 до 90",
  longitude: "Долгота: число от -180 до 180",
  pair: "Укажите и широту, и долготу (или ни одну)",
  email: "Неверный формат email",
  phoneClass: "Класс номеров: латинские буквы, цифры, дефис и подчёркивание",
  mainStays: "Основной салон не удаляется: его данные — настройки компании",
} as const;

/** The question before deleting a salon: one with cars cannot go. */
export function deleteQuestion(salon: Pick<SalonRecord, "name" | "cars">): string {
  if (salon.cars > 0) {
    return `В салоне «${salon.name}» автомобилей: ${salon.cars}. Сервер не удалит салон, пока они не переведены в другой салон.`;
  }
  return `Салон «${salon.name}» будет удалён. Его выгрузки перейдут к основному салону, заявки останутся в истории.`;
}

// ---- the form -----------------------------------------------------------------

export interface RecipientValues {
  email: string;
  telegramChatId: string;
}

export interface SalonValues {
  name: string;
  address: string;
  fullAddress: string;
  latitude: string;
  longitude: string;
  phone: string;
  phoneSecondary: string;
  phoneClass: string;
  email: string;
  workSchedule: DayForm[];
  notificationEmail: string;
  telegramChatId: string;
  /** One row per lead type. */
  leadRecipients: Record<string, RecipientValues>;
  operatorName: string;
  operatorInn: string;
  operatorOgrn: string;
  operatorAddress: string;
}

/** The fields a refusal may name. */
export const SALON_FIELDS = [
  "name",
  "address",
  "fullAddress",
  "latitude",
  "longitude",
  "phone",
  "phoneSecondary",
  "phoneClass",
  "email",
  "workSchedule",
  "notificationEmail",
  "telegramChatId",
  "leadRecipients",
  "operatorName",
  "operatorInn",
  "operatorOgrn",
  "operatorAddress",
] as const;

/** The texts' labels and lengths as the server counts them. */
export const SALON_LIMITS: Partial<Record<keyof SalonValues, [string, number]>> = {
  name: ["Название салона", 255],
  address: ["Адрес", 255],
  fullAddress: ["Полный адрес", 500],
  phone: ["Телефон", 50],
  phoneSecondary: ["Дополнительный телефон", 50],
  phoneClass: ["Класс номеров", 100],
  email: ["E-mail", 255],
  notificationEmail: ["Адрес для уведомлений", 255],
  telegramChatId: ["Чат Telegram", 100],
};

/** A limit's message, or true. */
export function withinLimit(field: keyof SalonValues, value: string): true | string {
  const limit = SALON_LIMITS[field];
  if (!limit || [...value.trim()].length <= limit[1]) return true;
  return `Поле «${limit[0]}» не должно быть длиннее ${limit[1]} символов`;
}

const coordinate = (n: number | null | undefined) => (n == null ? "" : String(n));

/** The form's start: a new salon empty (the default hours), or `salon`. */
export function salonValues(salon: SalonRecord | null, types: readonly LeadType[]): SalonValues {
  const recipients: Record<string, RecipientValues> = {};
  for (const t of types) {
    const r = salon?.leadRecipients?.[t];
    recipients[t] = { email: r?.email ?? "", telegramChatId: r?.telegramChatId ?? "" };
  }
  return {
    name: salon?.name ?? "",
    address: salon?.address ?? "",
    fullAddress: salon?.fullAddress ?? "",
    latitude: coordinate(salon?.latitude),
    longitude: coordinate(salon?.longitude),
    phone: salon?.phone ?? "",
    phoneSecondary: salon?.phoneSecondary ?? "",
    phoneClass: salon?.phoneClass ?? "",
    email: salon?.email ?? "",
    workSchedule: scheduleForm(salon?.workSchedule),
    notificationEmail: salon?.notificationEmail ?? "",
    telegramChatId: salon?.telegramChatId ?? "",
    leadRecipients: recipients,
    operatorName: salon?.operatorName ?? "",
    operatorInn: salon?.operatorInn ?? "",
    operatorOgrn: salon?.operatorOgrn ?? "",
    operatorAddress: salon?.operatorAddress ?? "",
  };
}

/** A coordinate typed (a comma as the decimal point), null when empty,
 * NaN when it is no number. */
export function parseCoordinate(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (t === "") return null;
  return /^[-+]?\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/** A latitude's check; `other` is the longitude typed (both or neither). */
export function checkLatitude(text: string, other: string): true | string {
  const n = parseCoordinate(text);
  if (n !== null && !(n >= -90 && n <= 90)) return SALON_MESSAGES.latitude;
  if (n === null && parseCoordinate(other) !== null) return SALON_MESSAGES.pair;
  return true;
}

export function checkLongitude(text: string, other: string): true | string {
  const n = parseCoordinate(text);
  if (n !== null && !(n >= -180 && n <= 180)) return SALON_MESSAGES.longitude;
  if (n === null && parseCoordinate(other) !== null) return SALON_MESSAGES.pair;
  return true;
}

/** Addresses by commas (or semicolons), or nothing. */
export function checkEmails(text: string): true | string {
  const all = text
    .split(/[,;]/)
    .map((a) => a.trim())
    .filter(Boolean);
  return all.every(isEmail) || SALON_MESSAGES.email;
}

/** One address, or nothing. */
export function checkEmail(text: string): true | string {
  const t = text.trim();
  return t === "" || isEmail(t) || SALON_MESSAGES.email;
}

/** The first problem of several checks, or true. */
export function firstProblem(...results: (true | string)[]): true | string {
  return results.find((r) => r !== true) ?? true;
}

/** The CSS class of call tracking: Latin letters, digits, - and _. */
export function checkPhoneClass(text: string): true | string {
  return /^[A-Za-z0-9_-]*$/.test(text.trim()) || SALON_MESSAGES.phoneClass;
}

export function checkName(text: string): true | string {
  return text.trim() !== "" ? withinLimit("name", text) : SALON_MESSAGES.name;
}

/** What POST / PUT take: texts trimmed, coordinates as numbers (null when
 * empty), the schedule, recipients only for the types that have any; the
 * main salon's call-tracking class is the configuration's, never sent. */
export function salonInput(v: SalonValues, main: boolean): SalonInput {
  const recipients: Record<string, RecipientValues> = {};
  for (const [type, r] of Object.entries(v.leadRecipients)) {
    const email = r.email.trim();
    const telegramChatId = r.telegramChatId.trim();
    if (email || telegramChatId) recipients[type] = { email, telegramChatId };
  }
  return {
    name: v.name.trim(),
    address: v.address.trim(),
    fullAddress: v.fullAddress.trim(),
    latitude: parseCoordinate(v.latitude),
    longitude: parseCoordinate(v.longitude),
    phone: v.phone.trim(),
    phoneSecondary: v.phoneSecondary.trim(),
    ...(main ? {} : { phoneClass: v.phoneClass.trim() }),
    email: v.email.trim(),
    workSchedule: schedulePatch(v.workSchedule),
    notificationEmail: v.notificationEmail.trim(),
    telegramChatId: v.telegramChatId.trim(),
    leadRecipients: recipients,
    operatorName: v.operatorName.trim(),
    operatorInn: v.operatorInn.trim(),
    operatorOgrn: v.operatorOgrn.trim(),
    operatorAddress: v.operatorAddress.trim(),
  };
}
