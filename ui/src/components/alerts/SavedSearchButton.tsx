import { lazy, Suspense, useState } from "react";
import type { BrandBrief } from "../../api/types";
import type { CarsQuery } from "../../api/urls";

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
 * the pointer or the focus is on the button. */
export function SavedSearchButton(props: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        class="outline secondary saved-search-button"
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
      >
        Сообщать о новых авто и снижении цен
      </button>
      {open && (
        <Suspense fallback={null}>
          <SavedSearchDialog {...props} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
