import { useEffect, useState } from "react";
import { apiGet } from "../api/client";
import type { BodyTypeInfo, BrandBrief, CarBrief } from "../api/types";
import { BODY_TYPES, BRANDS, bodyType, CAR_BATCH, type CarsQuery, carsCount } from "../api/urls";
import {
  batchOf,
  batchUrls,
  type CatalogueScope,
  catalogueQuery,
  pageStart,
} from "../lib/catalogue";
import type { CatalogueFilters } from "../lib/filters";
import { type ApiState, useApi } from "./useApi";
import { useCarPage } from "./useCarPage";
import { useFilters } from "./useFilters";
import { usePageSize } from "./usePageSize";
import { useSettings } from "./useSettings";

export interface Catalogue<S> {
  filters: CatalogueFilters;
  update: (change: Partial<CatalogueFilters>) => void;
  /** The address of the page after a change (a link's href). */
  href: (change: Partial<CatalogueFilters>) => string;
  clear: () => void;
  /** The address `clear` goes to (a reset's link). */
  clearHref: string;
  brands: BrandBrief[];
  /** The API filters of the shown list; null until the brand list turned
   * the URL's brand into its id (or on no catalogue). */
  query: CarsQuery | null;
  /** The body types (new and used cars) or the one body type (its page). */
  side: ApiState<S>;
  /** Matching cars in all; undefined until known. */
  total: number | undefined;
  pages: number;
  /** The page's cars and those load-more added; undefined while loading. */
  cars: CarBrief[] | undefined;
  error: Error | undefined;
  /** Whether more cars follow the shown ones. */
  hasMore: boolean;
  /** Appends the next CAR_BATCH cars. */
  loadMore: () => Promise<void>;
  goTo: (page: number) => void;
}

/** A catalogue page's data: filters in the page URL, applied by the server,
 * one page of cars (20, 10 on phones) and the count; null reads nothing. */
export function useCatalogue<S>(scope: CatalogueScope | null): Catalogue<S> {
  const { filters, update, clear, href, clearHref } = useFilters();
  const pageSize = usePageSize();
  const brandList = useApi<BrandBrief[]>(scope && BRANDS);
  const brands = brandList.data ?? [];
  const side = useApi<S>(
    scope === null ? null : scope.kind === "body" ? bodyType(scope.code) : BODY_TYPES,
  );
  // New and used cars: the body-type table says whether the URL's body type is one.
  const bodyTypes =
    (scope?.kind === "body" ? undefined : (side.data as BodyTypeInfo[] | undefined)) ?? [];
  // A brand in the URL needs the brand list to become a brandId, a body type
  // the table to be known.
  const ready =
    scope !== null &&
    (!filters.brand || !brandList.loading) &&
    (scope.kind === "body" || !filters.body || !side.loading);
  const { salons } = useSettings();
  const query = scope && catalogueQuery(scope, filters, brands, bodyTypes, salons);
  const shown = useCarPage(ready ? query : null, filters.page);
  const start = pageStart(filters.page, pageSize);

  // Cars added by load-more belong to one page of one list.
  const key = `${query && carsCount(query)}#${start}#${pageSize}`;
  const [more, setMore] = useState<{ key: string; cars: CarBrief[] }>({ key, cars: [] });
  const extra = more.key === key ? more.cars : [];
  useEffect(() => setMore({ key, cars: [] }), [key]);

  const cars = shown.cars && [...shown.cars, ...extra];
  const total = shown.total;

  async function loadMore() {
    if (!query || !cars) return;
    const from = start + cars.length;
    const batches = await Promise.all(
      batchUrls(query, from, CAR_BATCH).map((url) => apiGet<CarBrief[]>(url)),
    );
    const skip = from - batchOf(from);
    const next = batches.flat().slice(skip, skip + CAR_BATCH);
    setMore({ key, cars: [...extra, ...next] });
  }

  function goTo(page: number) {
    update({ page });
    window.scrollTo(0, 0);
  }

  return {
    filters,
    update,
    clear,
    clearHref,
    href,
    brands,
    query: ready ? query : null,
    side,
    total,
    pages: shown.pages,
    cars,
    error: shown.error,
    hasMore: cars !== undefined && total !== undefined && start + cars.length < total,
    loadMore,
    goTo,
  };
}
