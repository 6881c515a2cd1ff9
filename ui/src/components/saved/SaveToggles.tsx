import type { CarBrief } from "../../api/types";
import { useSaved } from "../../hooks/useSaved";
import { COMPARE_FULL, snapshot, toggleSaved } from "../../lib/saved";
import { useToast } from "../ui/Toast";

interface Props {
  car: CarBrief;
  /** Icons only, over a card's photo; the car page shows words too. */
  compact?: boolean;
  /** Added to the labels of a card's buttons ("В избранное: Haval Jolion"). */
  title?: string;
}

function Heart({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 21s-7.5-4.6-9.5-9.3C1.2 8.6 3.2 5 6.6 5c2 0 3.4 1.1 4.4 2.6h2C14 6.1 15.4 5 17.4 5c3.4 0 5.4 3.6 4.1 6.7C19.5 16.4 12 21 12 21z"
        fill={filled ? "currentColor" : "none"}
        stroke="currentColor"
        stroke-width="2"
        stroke-linejoin="round"
      />
    </svg>
  );
}

function Scales() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M5 20V10M12 20V4M19 20v-7"
        fill="none"
        stroke="currentColor"
        stroke-width="2.5"
        stroke-linecap="round"
      />
    </svg>
  );
}

/** The heart and the compare toggle of a car card and the car page. */
export function SaveToggles({ car, compact, title }: Props) {
  const favorites = useSaved("favorites");
  const compare = useSaved("compare");
  const toast = useToast();
  const liked = favorites.some((e) => e.slug === car.slug);
  const compared = compare.some((e) => e.slug === car.slug);
  const suffix = title ? `: ${title}` : "";
  const likeLabel = liked ? "Убрать из избранного" : "В избранное";
  const compareLabel = compared ? "Убрать из сравнения" : "Сравнить";
  const onCompare = () => {
    if (!toggleSaved("compare", snapshot(car)))
      toast({ title: "Сравнение заполнено", description: COMPARE_FULL, variant: "error" });
  };
  return (
    // Kept in the browser's storage: nothing to press without JavaScript.
    <div class={compact ? "save-toggles compact js-only" : "save-toggles js-only"}>
      <button
        type="button"
        class={liked ? "save-toggle on" : "save-toggle"}
        aria-pressed={liked}
        aria-label={compact ? `${likeLabel}${suffix}` : undefined}
        title={compact ? likeLabel : undefined}
        data-testid="favorite-toggle"
        onClick={() => toggleSaved("favorites", snapshot(car))}
      >
        <Heart filled={liked} />
        {!compact && <span>{likeLabel}</span>}
      </button>
      <button
        type="button"
        class={compared ? "save-toggle on" : "save-toggle"}
        aria-pressed={compared}
        aria-label={compact ? `${compareLabel}${suffix}` : undefined}
        title={compact ? compareLabel : undefined}
        data-testid="compare-toggle"
        onClick={onCompare}
      >
        <Scales />
        {!compact && <span>{compareLabel}</span>}
      </button>
    </div>
  );
}
