import { useEffect, useState } from "react";
import { apiGet, cached } from "../api/client";
import type { Car } from "../api/types";
import { ALL_BATCH, withPage } from "../api/urls";

interface AllCars {
  cars: Car[] | undefined;
  error: Error | undefined;
}

function firstBatch(base: string | null): Car[] | undefined {
  if (!base) return undefined;
  try {
    const first = cached<Car[]>(withPage(base, 0));
    return first && first.length < ALL_BATCH ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Every car of a list (used, lease, a brand, a body type), batch by batch. */
export function useAllCars(base: string | null): AllCars {
  const [state, setState] = useState<AllCars & { base: string | null }>(() => ({
    cars: firstBatch(base),
    error: undefined,
    base,
  }));
  const current = state.base === base ? state : { cars: firstBatch(base), error: undefined, base };

  useEffect(() => {
    if (!base) return;
    const ready = firstBatch(base);
    if (ready) {
      setState({ cars: ready, error: undefined, base });
      return;
    }
    let live = true;
    setState({ cars: undefined, error: undefined, base });
    (async () => {
      const all: Car[] = [];
      for (let offset = 0; ; offset += ALL_BATCH) {
        const batch = await apiGet<Car[]>(withPage(base, offset));
        all.push(...batch);
        if (batch.length < ALL_BATCH) break;
      }
      return all;
    })().then(
      (cars) => live && setState({ cars, error: undefined, base }),
      (error: Error) => live && setState({ cars: undefined, error, base }),
    );
    return () => {
      live = false;
    };
  }, [base]);

  return current;
}
