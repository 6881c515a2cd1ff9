import { formatPrice } from "../../lib/format";
import { GONE, type SavedCar } from "../../lib/saved";
import { CarPlaceholder } from "../ui/CarPlaceholder";
import { Img } from "../ui/Img";

interface Props {
  entry: SavedCar;
  removeLabel: string;
  onRemove: () => void;
}

/** A kept car the site no longer shows: its snapshot, marked, and a button
 * that removes it from the list. */
export function GoneCard({ entry, removeLabel, onRemove }: Props) {
  return (
    <article class="car-card gone-card" data-testid="gone-card" data-slug={entry.slug}>
      <div class="card-gallery">
        {entry.image ? (
          <Img src={entry.image} alt={entry.title} sizes="25vw" width={800} height={600} />
        ) : (
          <div class="card-gallery-empty">
            <CarPlaceholder />
          </div>
        )}
      </div>
      <div class="car-card-body">
        <h3 class="car-card-title">{entry.title}</h3>
        {entry.price && <p class="car-card-price gone-price">{formatPrice(entry.price)}</p>}
        <p class="gone-mark" role="note">
          {GONE}
        </p>
        <div class="car-card-actions gone-actions">
          <button
            type="button"
            class="secondary"
            aria-label={`${removeLabel}: ${entry.title}`}
            onClick={onRemove}
          >
            {removeLabel}
          </button>
        </div>
      </div>
    </article>
  );
}
