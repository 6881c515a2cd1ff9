/** API URLs, built exactly as the server keys the data it embeds in pages
 * (src/http/pages/data.rs): keep the parameter order in step. */
import type { BodyTypeCode, CarStatus } from "./types";

export const SETTINGS = "/api/settings";
export const BRANDS = "/api/brands/fast";
export const BODY_TYPES = "/api/body-types";
export const PROMOTIONS = "/api/promotions?active=true";
export const REVIEWS = "/api/reviews?approved=true";
export const PARTNER_BANKS = "/api/partner-banks";
export const HOME_FEATURED = "/api/cars/fast?featured=true&status=new,used&limit=12";
export const HOME_CATALOGUE = "/api/cars/fast?status=new,used&limit=12";
export const LEADS = "/api/leads";

/** Cars per request of the whole-list pages. */
export const ALL_BATCH = 100;
/** The new-cars fetch batch. */
export const NEW_BATCH = 20;

export interface NewCarsQuery {
  brandId: string | null;
  bodyType: BodyTypeCode | null;
  maxPrice: number | null;
}

/** "status=new&brandId=…&bodyType=…&maxPrice=…" */
export function newCarsFilterQuery(q: NewCarsQuery): string {
  let query = "status=new";
  if (q.brandId) query += `&brandId=${encodeURIComponent(q.brandId)}`;
  if (q.bodyType) query += `&bodyType=${q.bodyType}`;
  if (q.maxPrice !== null) query += `&maxPrice=${q.maxPrice}`;
  return query;
}

export function newCarsPage(q: NewCarsQuery, offset: number, limit = NEW_BATCH): string {
  return `/api/cars/fast?${newCarsFilterQuery(q)}&limit=${limit}&offset=${offset}`;
}

export function newCarsCount(q: NewCarsQuery): string {
  return `/api/cars/count?${newCarsFilterQuery(q)}`;
}

/** The first batch of a whole list; more follow with a larger offset. */
export function carsByStatus(status: CarStatus): string {
  return `/api/cars/fast?status=${status}&`;
}

export function carsOfBrand(brandId: string): string {
  return `/api/cars/brand/${encodeURIComponent(brandId)}/fast?sort=price_asc&`;
}

export function carsOfBodyType(code: BodyTypeCode): string {
  return `/api/cars/body-type/${code}/fast?`;
}

export function withPage(base: string, offset: number, limit = ALL_BATCH): string {
  return `${base}limit=${limit}&offset=${offset}`;
}

export function similarCars(code: BodyTypeCode): string {
  return `/api/cars/body-type/${code}/fast?limit=5`;
}

export const carBySlug = (slug: string) => `/api/cars/slug/${encodeURIComponent(slug)}`;
export const brandBySlug = (slug: string) => `/api/brands/slug/${encodeURIComponent(slug)}`;
export const bodyType = (code: string) => `/api/body-types/${encodeURIComponent(code)}`;
export const legal = (doc: "consent" | "privacy") => `/api/legal/${doc}`;
