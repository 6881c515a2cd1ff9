/** The cars list's selection and its bar: a box per card (named by the
 * car's title), 'select all' on the page, and «Опубликовать» / «Снять с
 * публикации» for the chosen cars at once (docs/admin.md, "Publishing many
 * cars"). The bar's count is announced as it changes. */
import { useState } from "react";
import { apiPost } from "../../api/client";
import {
  chosenOnPage,
  chosenText,
  PUBLICATION_URL,
  type PublicationAnswer,
  pageChoice,
  publicationBody,
  publicationText,
  toggled,
} from "../lib/publication";
import { useAdminMutation } from "../query";
import "./cars.css";

export interface Selection {
  /** The chosen cars on the page, in its order. */
  chosen: string[];
  has: (id: string) => boolean;
  set: (id: string, on: boolean) => void;
  setAll: (on: boolean) => void;
  clear: () => void;
}

/** The cars chosen on the page of `url` (another page or filter starts with
 * none chosen); `ids` are the page's cars. */
export function useSelection(url: string, ids: readonly string[]): Selection {
  const [state, setState] = useState({ url, chosen: new Set<string>() });
  const current = state.url === url ? state.chosen : new Set<string>();
  const chosen = chosenOnPage(current, ids);
  return {
    chosen,
    has: (id) => current.has(id),
    set: (id, on) => setState({ url, chosen: toggled(current, id, on) }),
    setAll: (on) => setState({ url, chosen: new Set(on ? ids : []) }),
    clear: () => setState({ url, chosen: new Set() }),
  };
}

/** A card's box, named by the card's title (its heading's id). */
export function ChooseBox({
  titleId,
  selection,
  id,
}: {
  titleId: string;
  selection: Selection;
  id: string;
}) {
  return (
    <input
      type="checkbox"
      class="car-choose"
      aria-labelledby={titleId}
      checked={selection.has(id)}
      onChange={(e) => selection.set(id, e.currentTarget.checked)}
      data-testid="car-choose"
    />
  );
}

export function PublicationBar({ selection, onPage }: { selection: Selection; onPage: number }) {
  const n = selection.chosen.length;
  const choice = pageChoice(n, onPage);
  const change = useAdminMutation(
    (published: boolean) =>
      apiPost<PublicationAnswer>(PUBLICATION_URL, publicationBody(selection.chosen, published)),
    {
      success: (answer, published) => publicationText(answer, published),
      failure: "Не удалось изменить публикацию",
      onSuccess: () => selection.clear(),
    },
  );
  return (
    <section
      class="publication-bar"
      aria-label="Выбранные автомобили"
      data-testid="publication-bar"
    >
      <label class="publication-all">
        <input
          type="checkbox"
          checked={choice === "all"}
          ref={(box) => {
            if (box) box.indeterminate = choice === "some";
          }}
          onChange={(e) => selection.setAll(e.currentTarget.checked)}
          data-testid="choose-all"
        />
        Выбрать все на странице
      </label>
      <p aria-live="polite" data-testid="chosen-count">
        {chosenText(n)}
      </p>
      <div class="publication-actions">
        <button
          type="button"
          disabled={n === 0 || change.isPending}
          aria-busy={(change.isPending && change.variables === true) || undefined}
          onClick={() => change.mutate(true)}
        >
          Опубликовать
        </button>
        <button
          type="button"
          class="secondary"
          disabled={n === 0 || change.isPending}
          aria-busy={(change.isPending && change.variables === false) || undefined}
          onClick={() => change.mutate(false)}
        >
          Снять с публикации
        </button>
      </div>
    </section>
  );
}
