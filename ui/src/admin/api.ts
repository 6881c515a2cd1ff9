/** Admin API URLs and the shapes of the admin answers. */
import type { components } from "../api/schema";

export const DASHBOARD_URL = "/api/admin/dashboard";
export const BRANDS_URL = "/api/admin/brands";
/** The dealership's body types (public list; the admin reads it fresh). */
export const BODY_TYPES_URL = "/api/body-types";
export const AUDIT_URL = "/api/admin/audit";

/** One recorded admin write: who, when, what object, what changed. */
export type AuditEntry = components["schemas"]["AuditEntry"];
export type AuditPage = components["schemas"]["AuditPage"];

/** `/api/admin/audit?limit=…[&offset=…][&objectType=…&objectId=…]` */
export function auditUrl(
  limit: number,
  options: { offset?: number; objectType?: string; objectId?: string } = {},
): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (options.offset) params.set("offset", String(options.offset));
  if (options.objectType) params.set("objectType", options.objectType);
  if (options.objectId) params.set("objectId", options.objectId);
  return `${AUDIT_URL}?${params}`;
}

export type ConditionFilter = "all" | "new" | "used" | "lease";
export type PublishedFilter = "all" | "true" | "false";
/** Newest first, or by the last 30 days' views or contacts (every channel). */
export type CarsSort = "newest" | "views" | "contacts";

export interface CarsQuery {
  q: string;
  page: number;
  perPage: number;
  condition: ConditionFilter;
  published: PublishedFilter;
  sort?: CarsSort;
}

export const CARS_PER_PAGE = 24;

/** `/api/admin/cars?…`: only what differs from the defaults, in one order. */
export function adminCarsUrl(query: CarsQuery): string {
  const params = new URLSearchParams();
  const q = query.q.trim();
  if (q) params.set("q", q);
  params.set("page", String(Math.max(1, query.page)));
  params.set("perPage", String(query.perPage));
  if (query.condition !== "all") params.set("condition", query.condition);
  if (query.published !== "all") params.set("published", query.published);
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  return `/api/admin/cars?${params}`;
}

/** One page of the admin cars list, with the counts of all cars. */
export type CarsPage = components["schemas"]["AdminCarPage"];
/** A row of the list: the car and its 30-day figures. */
export type AdminCar = components["schemas"]["AdminCar"];
export type CarStats = components["schemas"]["CarStats"];

export const adminCarUrl = (id: string) => `/api/admin/cars/${encodeURIComponent(id)}`;
export const carUrl = (id: string) => `/api/cars/${encodeURIComponent(id)}`;
export const brandUrl = (id: string) => `/api/brands/${encodeURIComponent(id)}`;
export const BULK_PRICES_URL = "/api/cars/prices/bulk";
