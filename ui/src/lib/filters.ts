/** Catalogue filters and page number ↔ the page URL's query string. The
 * server reads page URLs by the same rule (src/http/pages/data.rs); see
 * docs/catalogue.md. */
import type { BodyTypeCode } from "../api/types";
import { isBodyTypeCode } from "./labels";
import { salonParam } from "./salons";

export const PRICE_MIN = 500_000;
export const PRICE_MAX = 10_000_000;
export const PRICE_STEP = 100_000;
/** The highest page number a URL may ask for. */
export const PAGE_MAX = 10_000;

export type Condition = "all" | "new" | "used";

export interface CatalogueFilters {
  /** Brand slug, null for all brands. */
  brand: string | null;
  /** Body-type code, null for all types. Any code-shaped value is kept; one
   * the body-type table lacks filters nothing (lib/catalogue.ts). */
  body: BodyTypeCode | null;
  /** Highest price; PRICE_MAX means any price. */
  price: number;
  condition: Condition;
  model: string | null;
  /** A salon's id (several salons, issue 46), null for every salon. One
   * the site lacks filters nothing (lib/catalogue.ts). */
  salon: number | null;
  page: number;
}

export const DEFAULT_FILTERS: CatalogueFilters = {
  brand: null,
  body: null,
  price: PRICE_MAX,
  condition: "all",
  model: null,
  salon: null,
  page: 1,
};

/** Digits only: anything else is as if the parameter were missing. */
function whole(text: string | null): number | null {
  return text && /^\d+$/.test(text) ? Number(text) : null;
}

/** Rounded to the slider's step, kept within its range; missing: any price. */
function clampPrice(text: string | null): number {
  const n = whole(text);
  if (n === null) return PRICE_MAX;
  const stepped = Math.round(n / PRICE_STEP) * PRICE_STEP;
  return Math.min(PRICE_MAX, Math.max(PRICE_MIN, stepped));
}

function pageNumber(text: string | null): number {
  const n = whole(text);
  return n !== null && n >= 1 && n <= PAGE_MAX ? n : 1;
}

export function parseFilters(search: string): CatalogueFilters {
  const q = new URLSearchParams(search);
  const brand = q.get("brand");
  const body = q.get("body");
  const condition = q.get("condition");
  return {
    brand: brand && /^[a-z0-9-]+$/i.test(brand) ? brand : null,
    body: isBodyTypeCode(body) ? body : null,
    price: clampPrice(q.get("price")),
    condition: condition === "new" || condition === "used" ? condition : "all",
    model: q.get("model") || null,
    salon: salonParam(q.get("salon")),
    page: pageNumber(q.get("page")),
  };
}

/** The query string (without "?") of a filter state; defaults are left out. */
export function filtersToSearch(filters: CatalogueFilters): string {
  const q: string[] = [];
  if (filters.brand) q.push(`brand=${formEncode(filters.brand)}`);
  if (filters.body) q.push(`body=${formEncode(filters.body)}`);
  if (filters.condition !== "all") q.push(`condition=${filters.condition}`);
  if (filters.model) q.push(`model=${formEncode(filters.model)}`);
  if (filters.price < PRICE_MAX) q.push(`price=${filters.price}`);
  if (filters.salon !== null) q.push(`salon=${filters.salon}`);
  if (filters.page > 1) q.push(`page=${filters.page}`);
  return q.join("&");
}

const FORM_SAFE = /^[\w.*-]*$/;

/** A value as URLSearchParams writes it (application/x-www-form-urlencoded:
 * letters, digits and `*-._` as they are, a space as "+", every other
 * character percent-encoded), without building one: a catalogue page writes
 * some forty links, and on the server the polyfill's version cost more than
 * the page's markup (docs/rendering.md). */
export function formEncode(value: string): string {
  if (FORM_SAFE.test(value)) return value;
  return encodeURIComponent(value)
    .replace(/%20/g, "+")
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Applies a change: any filter change goes back to page 1. */
export function changeFilters(
  current: CatalogueFilters,
  change: Partial<CatalogueFilters>,
): CatalogueFilters {
  const next = { ...current, ...change };
  if (!("page" in change)) next.page = 1;
  return next;
}

/** Whether any filter (not the page) differs from the defaults. */
export function hasActiveFilters(filters: CatalogueFilters): boolean {
  return (
    filters.brand !== null ||
    filters.body !== null ||
    filters.price < PRICE_MAX ||
    filters.condition !== "all" ||
    filters.model !== null ||
    filters.salon !== null
  );
}

export function clearFilters(): CatalogueFilters {
  return { ...DEFAULT_FILTERS };
}
