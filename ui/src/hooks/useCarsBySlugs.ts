import { useEffect, useState } from "react";
import { apiGet } from "../api/client";
import type { CarBrief, CarsBySlugs } from "../api/types";
import { BY_SLUGS_MAX, carsBySlugs } from "../api/urls";

export interface SlugCars {
  /** Cars on sale, by slug. */
  cars: Map<string, CarBrief>;
  /** Slugs the server no longer shows (sold, unpublished, deleted). */
  missing: Set<string>;
  /** Some slugs are still being asked for. */
  loading: boolean;
  error: Error | undefined;
}

/** The cars of a list of slugs. Slugs already answered are not asked again
 * when the list changes (a car removed from favourites does not reload the
 * others); more than twenty go in several requests. */
export function useCarsBySlugs(slugs: string[]): SlugCars {
  const [known, setKnown] = useState<{
    cars: Map<string, CarBrief>;
    missing: Set<string>;
    error?: Error;
  }>(() => ({ cars: new Map(), missing: new Set() }));
  const unknown = slugs.filter((s) => !known.cars.has(s) && !known.missing.has(s));
  const key = unknown.join(",");

  useEffect(() => {
    if (!key) return;
    let live = true;
    const ask = key.split(",");
    const batches: string[][] = [];
    for (let i = 0; i < ask.length; i += BY_SLUGS_MAX) batches.push(ask.slice(i, i + BY_SLUGS_MAX));
    Promise.all(batches.map((b) => apiGet<CarsBySlugs>(carsBySlugs(b)))).then(
      (answers) => {
        if (!live) return;
        setKnown((prev) => {
          const cars = new Map(prev.cars);
          const missing = new Set(prev.missing);
          for (const a of answers) {
            for (const car of a.items) cars.set(car.slug, car);
            for (const slug of a.missing) missing.add(slug);
          }
          // A slug the answer left out altogether counts as gone.
          for (const slug of ask) if (!cars.has(slug)) missing.add(slug);
          return { cars, missing };
        });
      },
      (error: Error) => live && setKnown((prev) => ({ ...prev, error })),
    );
    return () => {
      live = false;
    };
  }, [key]);

  return {
    cars: known.cars,
    missing: known.missing,
    loading: unknown.length > 0 && !known.error,
    error: known.error,
  };
}
