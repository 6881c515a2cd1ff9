import { useEffect, useState } from "react";
import { apiGet, cached } from "../api/client";
import type { CarBrief } from "../api/types";
import { ALL_BATCH, type CarsQuery, carsList } from "../api/urls";

interface AllCars {
  cars: CarBrief[] | undefined;
  error: Error | undefined;
}

function firstBatch(query: CarsQuery | null): CarBrief[] | undefined {
  if (!query) return undefined;
  try {
    const first = cached<CarBrief[]>(carsList(query, 0, ALL_BATCH));
    return first && first.length < ALL_BATCH ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Every car of a short list (lease cars, a brand's cars), batch by batch;
 * catalogues read a page at a time instead (useCatalogue). */
export function useAllCars(query: CarsQuery | null): AllCars {
  const key = query && carsList(query, 0, ALL_BATCH);
  const [state, setState] = useState<AllCars & { key: string | null }>(() => ({
    cars: firstBatch(query),
    error: undefined,
    key,
  }));
  const current = state.key === key ? state : { cars: firstBatch(query), error: undefined, key };

  useEffect(() => {
    if (!query) return;
    const ready = firstBatch(query);
    if (ready) {
      setState({ cars: ready, error: undefined, key });
      return;
    }
    let live = true;
    setState({ cars: undefined, error: undefined, key });
    (async () => {
      const all: CarBrief[] = [];
      for (let offset = 0; ; offset += ALL_BATCH) {
        const batch = await apiGet<CarBrief[]>(carsList(query, offset, ALL_BATCH));
        all.push(...batch);
        if (batch.length < ALL_BATCH) break;
      }
      return all;
    })().then(
      (cars) => live && setState({ cars, error: undefined, key }),
      (error: Error) => live && setState({ cars: undefined, error, key }),
    );
    return () => {
      live = false;
    };
  }, [key]);

  return current;
}
