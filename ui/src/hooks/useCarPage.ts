import type { CarBrief } from "../api/types";
import { type CarsQuery, carsCount } from "../api/urls";
import { pageBatch } from "../lib/catalogue";
import { pageCount } from "../lib/pagination";
import { useApi } from "./useApi";
import { usePageSize } from "./useMediaQuery";

export interface CarPage {
  /** The page's cars; undefined while loading. */
  cars: CarBrief[] | undefined;
  /** Matching cars in all; undefined until known. */
  total: number | undefined;
  pages: number;
  error: Error | undefined;
}

/** One numbered page (20 cars, 10 on phones) of a list without a filter
 * form (the lease cars, a brand's section) and the list's count: the batch
 * and the count a catalogue reads (lib/catalogue.ts), which the server
 * embeds; null reads nothing. */
export function useCarPage(query: CarsQuery | null, page: number): CarPage {
  const pageSize = usePageSize();
  const batch = query ? pageBatch(query, page, pageSize) : null;
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
