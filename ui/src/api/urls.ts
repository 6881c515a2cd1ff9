/** API URLs, built exactly as the server keys the data it embeds in pages
 * (src/http/pages/data.rs): the rule is in docs/catalogue.md, and
 * tests/fixtures/catalogue-urls.json holds examples both sides are tested
 * against. */
import type { BodyTypeCode, CarSort, CarStatus } from "./types";

export const SETTINGS = "/api/settings";
export const BRANDS = "/api/brands/fast";
export const BODY_TYPES = "/api/body-types";
export const PROMOTIONS = "/api/promotions?active=true";
export const REVIEWS = "/api/reviews?approved=true";
export const PARTNER_BANKS = "/api/partner-banks";
export const CREDIT_PROGRAMS = "/api/credit-programs";
export const HOME_FEATURED = "/api/cars/fast?featured=true&status=new,used&limit=12";
export const HOME_CATALOGUE = "/api/cars/fast?status=new,used&limit=12";
export const LEADS = "/api/leads";

/** Cars per request of a catalogue page: a desktop page, half a phone page's
 * batch, the new-cars load-more step. Offsets are multiples of it. */
export const CAR_BATCH = 20;

/** Which cars a list asks for; null and empty leave a filter out. */
export interface CarsQuery {
  /** Empty: every status. */
  status: CarStatus[];
  brandId: string | null;
  bodyType: BodyTypeCode | null;
  /** Highest price in whole rubles. */
  maxPrice: number | null;
  /** One salon's cars (several salons, issue 46; 1: the main). */
  salon?: number | null;
  /** One model's cars (a brand page's model filter). */
  model?: string | null;
  sort: CarSort | null;
}

export const ALL_CARS: CarsQuery = {
  status: [],
  brandId: null,
  bodyType: null,
  maxPrice: null,
  salon: null,
  sort: null,
};

/** The lease page's list, a page at a time. */
export const LEASE_CARS: CarsQuery = { ...ALL_CARS, status: ["lease"] };

/** A brand's cars of one status (all: null), of one model or all
 * (`model` null), cheapest first: a section of its page, or with no
 * model and no sort a counter of it. */
export const brandCars = (
  brandId: string,
  status: CarStatus | null,
  model: string | null = null,
  sort: CarSort | null = "price_asc",
): CarsQuery => ({
  ...ALL_CARS,
  status: status ? [status] : [],
  brandId,
  model,
  sort,
});

/** The filters in their one order: status, brandId, bodyType, maxPrice, salon, model, sort. */
function filterParams(q: CarsQuery): string[] {
  const params: string[] = [];
  if (q.status.length > 0) params.push(`status=${q.status.join(",")}`);
  if (q.brandId) params.push(`brandId=${encodeURIComponent(q.brandId)}`);
  if (q.bodyType) params.push(`bodyType=${q.bodyType}`);
  if (q.maxPrice !== null) params.push(`maxPrice=${q.maxPrice}`);
  if (q.salon) params.push(`salon=${q.salon}`);
  if (q.model) params.push(`model=${encodeURIComponent(q.model)}`);
  return params;
}

/** `/api/cars/fast?{filters}&sort=…&limit=…&offset=…` */
export function carsList(q: CarsQuery, offset: number, limit = CAR_BATCH): string {
  const params = filterParams(q);
  if (q.sort) params.push(`sort=${q.sort}`);
  params.push(`limit=${limit}`, `offset=${offset}`);
  return `/api/cars/fast?${params.join("&")}`;
}

/** `/api/cars/count?{filters}`: the order does not change a count. */
export function carsCount(q: CarsQuery): string {
  const params = filterParams(q);
  return params.length > 0 ? `/api/cars/count?${params.join("&")}` : "/api/cars/count";
}

export function similarCars(code: BodyTypeCode): string {
  return `/api/cars/body-type/${code}/fast?limit=5`;
}

export const carBySlug = (slug: string) => `/api/cars/slug/${encodeURIComponent(slug)}`;
export const brandBySlug = (slug: string) => `/api/brands/slug/${encodeURIComponent(slug)}`;
/** A brand's models (of its published cars). */
export const brandModels = (id: string) => `/api/brands/${encodeURIComponent(id)}/models`;
export const bodyType = (code: string) => `/api/body-types/${encodeURIComponent(code)}`;
export const legal = (doc: "consent" | "privacy") => `/api/legal/${doc}`;

/** Cars by slug, for favourites and compare: at most this many per request. */
export const BY_SLUGS_MAX = 20;
export const carsBySlugs = (slugs: string[]) =>
  `/api/cars/by-slugs?slugs=${slugs.map((s) => encodeURIComponent(s)).join(",")}`;
