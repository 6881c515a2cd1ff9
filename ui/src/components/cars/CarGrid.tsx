import { useState } from "react";
import type { Car } from "../../api/types";
import { LeadDialog } from "../leads/LeadDialog";
import { CarCard } from "./CarCard";

interface Props {
  cars: Car[];
  /** The first card's picture is the page's largest paint. */
  priorityFirst?: boolean;
}

/** A grid of car cards with the dialog their Credit / booking buttons open. */
export function CarGrid({ cars, priorityFirst }: Props) {
  const [selected, setSelected] = useState<Car | null>(null);
  return (
    <>
      <div class="car-grid">
        {cars.map((car, i) => (
          <CarCard
            key={car.id}
            car={car}
            onRequest={setSelected}
            priority={priorityFirst && i === 0}
          />
        ))}
      </div>
      <LeadDialog
        kind={selected?.status === "lease" ? "lease" : "credit"}
        open={selected !== null}
        car={selected ?? undefined}
        onClose={() => setSelected(null)}
      />
    </>
  );
}

/** The same cards in a horizontal carousel row. */
export function CarRow({ cars }: { cars: Car[] }) {
  const [selected, setSelected] = useState<Car | null>(null);
  return (
    <>
      {cars.map((car) => (
        <div class="carousel-item car-item" role="listitem" key={car.id}>
          <CarCard car={car} onRequest={setSelected} />
        </div>
      ))}
      <LeadDialog
        kind={selected?.status === "lease" ? "lease" : "credit"}
        open={selected !== null}
        car={selected ?? undefined}
        onClose={() => setSelected(null)}
      />
    </>
  );
}
