import { Link } from "wouter";
import { useSaved } from "../../hooks/useSaved";
import { comparePath } from "../../lib/saved";
import { ROUTES } from "../../routes";

/** The header's links to the favourites (always) and to the compare page
 * (once something is in it), each with its count. Their names are their
 * words and counts ("Избранное 2"); on a phone and next to the six menu
 * links the words are hidden from the eye only (the title tells a mouse). */
export function SavedLinks() {
  const favorites = useSaved("favorites").length;
  const compare = useSaved("compare");
  return (
    <>
      <Link
        href={ROUTES.favorites}
        class="header-saved"
        title="Избранное"
        data-testid="favorites-link"
      >
        <span aria-hidden="true">♥</span>
        <span class="header-saved-label">Избранное</span>{" "}
        <span class="saved-count">{favorites}</span>
      </Link>
      {compare.length > 0 && (
        <Link
          href={comparePath(compare.map((e) => e.slug))}
          class="header-saved"
          title="Сравнение"
          data-testid="compare-link"
        >
          <span aria-hidden="true">⇆</span>
          <span class="header-saved-label">Сравнение</span>{" "}
          <span class="saved-count">{compare.length}</span>
        </Link>
      )}
    </>
  );
}
