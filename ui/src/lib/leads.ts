/** Building and checking what a lead form sends. */
import type { CarBrief, Lead, LeadPayload, LeadType } from "../api/types";
import { formatPrice } from "./format";
import { isValidPhone, PHONE_RULE_MESSAGE } from "./phone";
import { analyticsClientId, storedUtm } from "./utm";

export const LEAD_FAILED = "Не удалось отправить заявку. Попробуйте еще раз.";
export const CONSENT_REQUIRED = "Необходимо согласие на обработку персональных данных";

/** The required-fields message of each form (docs/leads.md). */
export function requiredMessage(type: LeadType): string {
  if (type === "lease_booking") return "Пожалуйста, заполните все поля";
  if (type === "auto_selection") return "Пожалуйста, заполните все обязательные поля";
  return "Пожалуйста, заполните обязательные поля";
}

export interface ContactInput {
  name: string;
  phone: string;
  consent: boolean;
}

export type ContactField = "name" | "phone" | "consent";

/** Each wrong field's message, in the order of the form (name, phone,
 * consent): an empty name or phone gets the form's required message, a
 * phone that breaks the phone rule the rule's message. */
export function contactErrors(
  type: LeadType,
  input: ContactInput,
): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  if (!input.name.trim()) errors.name = requiredMessage(type);
  if (!input.phone.trim()) errors.phone = requiredMessage(type);
  else if (!isValidPhone(input.phone)) errors.phone = PHONE_RULE_MESSAGE;
  if (!input.consent) errors.consent = CONSENT_REQUIRED;
  return errors;
}

/** The first rule the input breaks, or null. */
export function checkContact(type: LeadType, input: ContactInput): string | null {
  const errors = contactErrors(type, input);
  return errors.name ?? errors.phone ?? errors.consent ?? null;
}

/** The visitor's own car (trade-in): the server's range (src/domain/leads.rs,
 * CAR_YEAR_MIN and CAR_MILEAGE_MAX), checked before sending. */
export const CAR_YEAR_MIN = 1950;
export const CAR_MILEAGE_MAX = 10_000_000;

/** The trade-in form's year and mileage problems, by input name. Empty
 * inputs are fine: both are optional. */
export function tradeInProblems(
  year: string,
  mileage: string,
  now: Date = new Date(),
): Record<string, string> {
  const problems: Record<string, string> = {};
  const latest = now.getFullYear() + 1;
  const y = year.trim();
  if (y !== "") {
    const value = Number(y);
    if (!Number.isInteger(value) || value < CAR_YEAR_MIN || value > latest) {
      problems.carYear = `Год выпуска должен быть от ${CAR_YEAR_MIN} до ${latest}`;
    }
  }
  const km = mileage.replace(/\s/g, "");
  if (km !== "") {
    const value = Number(km);
    if (!Number.isInteger(value) || value < 0 || value > CAR_MILEAGE_MAX) {
      problems.carMileage = "Пробег указан неверно";
    }
  }
  return problems;
}

/** carId, carInfo (brand + model), carPrice (with ₽) and carStatus. */
export function carFields(
  car: CarBrief,
): Pick<LeadPayload, "carId" | "carInfo" | "carPrice" | "carStatus"> {
  return {
    carId: car.id,
    carInfo: `${car.brandName} ${car.model}`.trim(),
    carPrice: formatPrice(car.price),
    carStatus: car.status,
  };
}

/** Adds what every lead carries: source URL, UTM of the visit, analytics id. */
export function withVisit(
  payload: Omit<LeadPayload, "sourceUrl" | "website">,
  honeypot: string,
): LeadPayload {
  const clientId = typeof document === "undefined" ? undefined : analyticsClientId(document.cookie);
  return {
    ...payload,
    ...storedUtm(),
    ...(clientId ? { analyticsClientId: clientId } : {}),
    sourceUrl: typeof location === "undefined" ? "" : location.href.slice(0, 500),
    website: honeypot,
  };
}

/** What a visitor reads once their callback request is stored: the PBX
 * rings now, the salon calls at opening (out of hours), or a manager calls
 * back soon. */
export function callbackAnswer(lead: Pick<Lead, "callbackState" | "callbackDetail">): {
  title: string;
  description: string;
} {
  if (lead.callbackState === "out_of_hours") {
    return {
      title: "Заявка принята",
      description: lead.callbackDetail
        ? `Салон сейчас закрыт. Мы перезвоним вам ${lead.callbackDetail}`
        : "Салон сейчас закрыт. Мы перезвоним вам, как только откроемся",
    };
  }
  if (lead.callbackState === "calling" || lead.callbackState === "rung") {
    return {
      title: "Заявка принята",
      description: "Сейчас мы вам перезвоним: ответьте, пожалуйста, на звонок",
    };
  }
  return { title: "Заявка принята", description: "Менеджер перезвонит вам в ближайшее время" };
}
