import type { CarBrief } from "../api/types";
import { type CarsQuery, carsCount, carsList } from "../api/urls";
import { pageBatch } from "../lib/catalogue";
import { pageCount } from "../lib/pagination";
import { useApi } from "./useApi";
import { usePageSize } from "./usePageSize";

export interface CarPage {
  /** The page's cars; undefined while loading. */
  cars: CarBrief[] | undefined;
  /** Matching cars in all; undefined until known. */
  total: number | undefined;
  pages: number;
  error: Error | undefined;
}

/** One numbered page of a list and the list's count, which the server
 * embeds; null reads nothing. A page is 20 cars (10 on phones) read in the
 * catalogue's batches (lib/catalogue.ts), or `fixed` cars on every screen
 * read as one batch of its own (a brand's section). */
export function useCarPage(query: CarsQuery | null, page: number, fixed?: number): CarPage {
  // A fixed size does not ask the window (nothing to draw again on a phone).
  const screen = usePageSize(fixed === undefined);
  const pageSize = fixed ?? screen;
  const batch = !query
    ? null
    : fixed
      ? { url: carsList(query, (page - 1) * fixed, fixed), skip: 0 }
      : pageBatch(query, page, pageSize);
  const list = useApi<CarBrief[]>(batch?.url ?? null);
  const count = useApi<{ count: number }>(query ? carsCount(query) : null);
  const total = count.data?.count;
  return {
    cars: list.data && batch ? list.data.slice(batch.skip, batch.skip + pageSize) : undefined,
    total,
    pages: pageCount(total ?? 0, pageSize),
    error: list.error ?? count.error,
  };
}
