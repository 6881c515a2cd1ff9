import { useState } from "react";
import type { CarBrief } from "../../api/types";
import { useSettings } from "../../hooks/useSettings";
import type { Salon } from "../../lib/salons";
import { drawnOnceOnServer, fingerprint, joinedOnServer } from "../../lib/serverFragments";
import { LeadDialog } from "../leads/LeadDialog";
import { CarCard, cardHtml } from "./CarCard";

interface Props {
  cars: CarBrief[];
  /** The first card's picture is the page's largest paint. */
  priorityFirst?: boolean;
}

interface CardsProps {
  cars: CarBrief[];
  onRequest: (car: CarBrief) => void;
  priorityFirst?: boolean;
  /** The salon's phone, which each card names without JavaScript. */
  phone: string;
  /** Several salons: each card names its car's (issue 46). */
  salons?: Salon[];
}

/** The grid's cards. The server joins the cards' HTML (each card is drawn
 * once: docs/rendering.md, "Drawn once: fragments"); the browser draws them. */
const GridCards = joinedOnServer(
  ({ cars, onRequest, priorityFirst }: CardsProps) => (
    <div class="car-grid">
      {cars.map((car, i) => (
        <CarCard key={car.id} car={car} onRequest={onRequest} priority={priorityFirst && i === 0} />
      ))}
    </div>
  ),
  import.meta.env.SSR
    ? ({ cars, onRequest, priorityFirst, phone, salons }, context) =>
        `<div class="car-grid">${cars
          .map((car, i) =>
            cardHtml(
              { car, onRequest, priority: priorityFirst && i === 0, phone, salons },
              context,
            ),
          )
          .join("")}</div>`
    : undefined,
);

/** A carousel row's cards, drawn as one piece on the server like the grid's. */
const RowCards = drawnOnceOnServer(
  "RowCards",
  ({ cars, onRequest }: CardsProps) => (
    <>
      {cars.map((car) => (
        <div class="carousel-item car-item" role="listitem" key={car.id}>
          <CarCard car={car} onRequest={onRequest} />
        </div>
      ))}
    </>
  ),
  ({ cars, phone, salons }) =>
    `${phone}\u0001${salons ? fingerprint(salons) : ""}\u0001${fingerprint(cars)}`,
);

/** A grid of car cards with the dialog their Credit / booking buttons open. */
export function CarGrid({ cars, priorityFirst }: Props) {
  const [selected, setSelected] = useState<CarBrief | null>(null);
  const { phone, salons } = useSettings();
  return (
    <>
      <GridCards
        cars={cars}
        onRequest={setSelected}
        priorityFirst={priorityFirst}
        phone={phone}
        salons={salons}
      />
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
export function CarRow({ cars }: { cars: CarBrief[] }) {
  const [selected, setSelected] = useState<CarBrief | null>(null);
  const { phone, salons } = useSettings();
  return (
    <>
      <RowCards cars={cars} onRequest={setSelected} phone={phone} salons={salons} />
      <LeadDialog
        kind={selected?.status === "lease" ? "lease" : "credit"}
        open={selected !== null}
        car={selected ?? undefined}
        onClose={() => setSelected(null)}
      />
    </>
  );
}
