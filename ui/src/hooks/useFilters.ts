import { useCallback } from "react";
import { useLocation, useSearch } from "wouter";
import {
  type CatalogueFilters,
  changeFilters,
  clearFilters,
  filtersToSearch,
  parseFilters,
} from "../lib/filters";

/** Catalogue filters kept in the URL, so a list can be shared and the back button works. */
export function useFilters() {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const filters = parseFilters(search);
  /** The page's address after a change: real links, for crawlers and
   * for browsing without JavaScript. */
  const href = useCallback(
    (change: Partial<CatalogueFilters>) => {
      const qs = filtersToSearch(changeFilters(filters, change));
      return qs ? `${path}?${qs}` : path;
    },
    [filters, path],
  );
  const go = useCallback(
    (next: CatalogueFilters) => {
      const qs = filtersToSearch(next);
      navigate(qs ? `${path}?${qs}` : path);
    },
    [navigate, path],
  );
  const update = useCallback(
    (change: Partial<CatalogueFilters>) => go(changeFilters(filters, change)),
    [go, filters],
  );
  const clear = useCallback(() => go(clearFilters()), [go]);
  /** The address with no filter: where a reset goes. */
  const clearHref = path;
  return { filters, update, clear, href, clearHref };
}
