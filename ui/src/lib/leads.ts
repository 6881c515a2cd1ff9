/** Building and checking what a lead form sends. */
import type { Car, LeadPayload, LeadType } from "../api/types";
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

/** The first rule the input breaks, or null. */
export function checkContact(type: LeadType, input: ContactInput): string | null {
  if (!input.name.trim() || !input.phone.trim()) return requiredMessage(type);
  if (!isValidPhone(input.phone)) return PHONE_RULE_MESSAGE;
  if (!input.consent) return CONSENT_REQUIRED;
  return null;
}

/** carId, carInfo (brand + model), carPrice (with ₽) and carStatus. */
export function carFields(
  car: Car,
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
