import { lazy, Suspense, useState } from "react";
import type { BrandBrief } from "../../api/types";
import type { CarsQuery } from "../../api/urls";
import { NeedsScript } from "../ui/NeedsScript";

const loadDialog = () => import("./SavedSearchDialog");
const SavedSearchDialog = lazy(loadDialog);

interface Props {
  /** The catalogue's API filters (what will be followed). */
  query: CarsQuery;
  /** For the brand's name in the summary. */
  brands: BrandBrief[];
  /** The body type as the page names it. */
  bodyLabel?: string;
}

/** A catalogue's "tell me" button; the form is its own chunk, fetched while
 * the pointer or the focus is on the button. Without JavaScript a note with
 * the phone stands in its place. */
export function SavedSearchButton(props: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        class="outline secondary saved-search-button js-only"
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
      >
        Сообщать о новых авто и снижении цен
      </button>
      <NeedsScript to="подписаться на новые автомобили и снижение цен" />
      {open && (
        <Suspense fallback={null}>
          <SavedSearchDialog {...props} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
