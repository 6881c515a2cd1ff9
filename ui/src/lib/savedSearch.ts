/** Saved searches with alerts (docs/saved-searches.md): what a catalogue page asks
 * the server to follow and the form's checks with the server's messages
 * (the mails' links: savedSearchLink.ts). */
import type { BrandBrief, CarStatus, SearchFilter, SubscribeInput } from "../api/types";
import type { CarsQuery } from "../api/urls";
import { isEmail } from "./email";
import { formatPrice } from "./format";
import { bodyTypeName } from "./labels";
import { CONSENT_REQUIRED } from "./leads";

export const SAVED_SEARCHES = "/api/saved-searches";

/** What the form sends: every field of the request. */
export type SavedSearchRequest = Required<Omit<SubscribeInput, "filter">> & {
  email: string;
  filter: SearchFilter;
  pageUrl: string;
  /** The honeypot: people leave it empty. */
  website: string;
};

/** The server's words (docs/saved-searches.md). */
export const EMAIL_INVALID = "Укажите корректный e-mail";
export const ADVERTISING_REQUIRED = "Необходимо согласие на получение рекламных рассылок";
export const SUBSCRIBE_FAILED = "Не удалось оформить подписку. Попробуйте еще раз.";
/** The advertising consent of a saved search (38-FZ art. 18): its own box,
 * unticked, required. */
export const ADVERTISING_LABEL =
  "Я согласен получать рекламные рассылки о новых автомобилях и снижении цен по этой подборке";

/** The filter the catalogue's API query applies: the same status, brand,
 * body type and highest price, the empty ones left out. A query of several
 * statuses (none on a catalogue page) follows every status. */
export function savedSearchFilter(query: CarsQuery): SearchFilter {
  const filter: SearchFilter = {};
  if (query.status.length === 1) filter.status = query.status[0];
  if (query.brandId) filter.brandId = query.brandId;
  if (query.bodyType) filter.bodyType = query.bodyType;
  if (query.maxPrice !== null) filter.maxPrice = query.maxPrice;
  return filter;
}

const STATUS_WORDS: Record<CarStatus, string> = {
  new: "Новые",
  used: "С пробегом",
  lease: "Аренда с выкупом",
};

/** What a filter follows, in words, as the server says it:
 * "Новые · Haval · Кроссовер · до 3 000 000 ₽". `bodyLabel` is the body
 * type's name from the body-type table (its singular label). */
export function describeFilter(
  filter: SearchFilter,
  brands: BrandBrief[],
  bodyLabel?: string,
): string {
  const parts: string[] = [];
  if (filter.status) parts.push(STATUS_WORDS[filter.status]);
  const brand = filter.brandId ? brands.find((b) => b.id === filter.brandId) : undefined;
  if (brand) parts.push(brand.name);
  if (filter.bodyType) {
    parts.push(bodyLabel || bodyTypeName(filter.bodyType, undefined) || filter.bodyType);
  }
  if (filter.maxPrice != null) parts.push(`до ${formatPrice(filter.maxPrice)}`);
  return parts.length > 0 ? parts.join(" · ") : "Все автомобили";
}

/** What the visitor filled in. */
export interface SubscribeForm {
  email: string;
  consent: boolean;
  advertisingConsent: boolean;
}

export type SubscribeField = keyof SubscribeForm;

/** Each wrong field's message, in the order of the form (e-mail, then the
 * two consents): the server's messages. */
export function subscribeErrors(input: SubscribeForm): Partial<Record<SubscribeField, string>> {
  const errors: Partial<Record<SubscribeField, string>> = {};
  if (!isEmail(input.email.trim())) errors.email = EMAIL_INVALID;
  if (!input.consent) errors.consent = CONSENT_REQUIRED;
  if (!input.advertisingConsent) errors.advertisingConsent = ADVERTISING_REQUIRED;
  return errors;
}

/** The body of POST /api/saved-searches. */
export function subscribeRequest(
  input: SubscribeForm,
  filter: SearchFilter,
  pageUrl: string,
  honeypot: string,
): SavedSearchRequest {
  return {
    email: input.email.trim(),
    filter,
    pageUrl,
    consent: input.consent,
    advertisingConsent: input.advertisingConsent,
    website: honeypot,
  };
}

/** What the dialog says once the confirmation mail is on its way. */
export function confirmationSent(email: string): string {
  return `Мы отправили письмо на ${email}. Подтвердите подписку по ссылке из письма.`;
}
