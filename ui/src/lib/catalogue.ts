/** The catalogue pages' one rule (docs/catalogue.md): the page URL's filters
 * become API filters the server applies, and a page reads its cars in
 * batches of CAR_BATCH at offsets that are multiples of it. The server
 * (src/http/pages/data.rs) embeds the same URLs' answers in the page. */
import type { BodyTypeCode, BodyTypeInfo, BrandBrief } from "../api/types";
import {
  BODY_TYPES,
  BRANDS,
  bodyType,
  CAR_BATCH,
  type CarsQuery,
  carsCount,
  carsList,
} from "../api/urls";
import { type CatalogueFilters, PRICE_MAX } from "./filters";
import { type Salon, salonOf } from "./salons";

/** Which catalogue: new cars, used cars or one body type. */
export type CatalogueScope =
  | { kind: "new" }
  | { kind: "used" }
  | { kind: "body"; code: BodyTypeCode };

/** Cars per page: 20 on desktop, 10 when the window is narrower than 768 px.
 * Both divide CAR_BATCH, so a page always lies in one batch. */
export const PAGE_SIZE_DESKTOP = 20;
export const PAGE_SIZE_PHONE = 10;

/** The body types a catalogue knows (`GET /api/body-types`): only codes matter here. */
export type KnownBodyTypes = readonly Pick<BodyTypeInfo, "bodyType">[];

/** The page URL's body type when the body-type table holds it, else null. */
export function knownBodyType(
  filters: Pick<CatalogueFilters, "body">,
  bodyTypes: KnownBodyTypes,
): BodyTypeCode | null {
  const code = filters.body;
  return code && bodyTypes.some((t) => t.bodyType === code) ? code : null;
}

/** The API filters of a catalogue page. An unknown brand slug, a body
 * type the table lacks, and a salon the site lacks (every salon of one
 * with several: `salons`), filter nothing. */
export function catalogueQuery(
  scope: CatalogueScope,
  filters: CatalogueFilters,
  brands: BrandBrief[],
  bodyTypes: KnownBodyTypes,
  salons?: Salon[],
): CarsQuery {
  const brand = filters.brand ? brands.find((b) => b.slug === filters.brand) : undefined;
  const status =
    scope.kind === "body" ? (filters.condition === "all" ? [] : [filters.condition]) : [scope.kind];
  return {
    status,
    brandId: brand?.id ?? null,
    bodyType: scope.kind === "body" ? scope.code : knownBodyType(filters, bodyTypes),
    maxPrice: filters.price < PRICE_MAX ? filters.price : null,
    salon: filters.salon !== null ? (salonOf(salons, filters.salon)?.id ?? null) : null,
    sort: null,
  };
}

/** The offset of the batch holding the car at `index`. */
export function batchOf(index: number): number {
  return Math.floor(index / CAR_BATCH) * CAR_BATCH;
}

/** The index of a page's first car. */
export function pageStart(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** The list URL holding page `page`, and where the page starts in it. */
export function pageBatch(
  query: CarsQuery,
  page: number,
  pageSize: number,
): { url: string; skip: number } {
  const start = pageStart(page, pageSize);
  return { url: carsList(query, batchOf(start)), skip: start - batchOf(start) };
}

/** The list URLs of the cars [from, from + count). */
export function batchUrls(query: CarsQuery, from: number, count: number): string[] {
  const urls: string[] = [];
  for (let offset = batchOf(from); offset < from + count; offset += CAR_BATCH) {
    urls.push(carsList(query, offset));
  }
  return urls;
}

/** Every API URL a catalogue page's first screen reads at one page size
 * (the settings aside, which every page reads). */
export function catalogueUrls(
  scope: CatalogueScope,
  filters: CatalogueFilters,
  brands: BrandBrief[],
  bodyTypes: KnownBodyTypes,
  pageSize: number,
  salons?: Salon[],
): string[] {
  const query = catalogueQuery(scope, filters, brands, bodyTypes, salons);
  return [
    BRANDS,
    scope.kind === "body" ? bodyType(scope.code) : BODY_TYPES,
    pageBatch(query, filters.page, pageSize).url,
    carsCount(query),
  ];
}
