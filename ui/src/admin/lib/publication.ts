/** Publishing or unpublishing the cars chosen in /admin/cars at once: the
 * selection on a page, what the bar says, the request and what its answer
 * says (docs/admin.md, "Publishing many cars"). */
import type { components } from "../../api/schema";
import { CAR_FORMS, plural } from "../../lib/format";

export type PublicationAnswer = components["schemas"]["PublicationAnswer"];

export const PUBLICATION_URL = "/api/admin/cars/publication";

/** The body of `POST /api/admin/cars/publication`. */
export function publicationBody(ids: Iterable<string>, published: boolean) {
  return { ids: [...ids], published };
}

/** The chosen cars still on the page (a car deleted or filtered out since
 * is no longer chosen). */
export function chosenOnPage(chosen: ReadonlySet<string>, ids: readonly string[]): string[] {
  return ids.filter((id) => chosen.has(id));
}

/** The selection with one car chosen or not. */
export function toggled(chosen: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(chosen);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** How much of the page is chosen, for the 'select all' box (checked,
 * mixed or clear). */
export function pageChoice(chosen: number, onPage: number): "none" | "some" | "all" {
  if (chosen === 0) return "none";
  return chosen === onPage ? "all" : "some";
}

/** What the bar says: 'Выбрано: 3 автомобиля', or how to choose. */
export function chosenText(n: number): string {
  return n === 0
    ? "Отметьте автомобили, чтобы опубликовать их или снять с публикации"
    : `Выбрано: ${n} ${plural(n, CAR_FORMS)}`;
}

/** The answer said: 'Опубликовано: 3 автомобиля; уже были опубликованы: 1'. */
export function publicationText(answer: PublicationAnswer, published: boolean): string {
  const n = answer.changedCount;
  const done = `${published ? "Опубликовано" : "Снято с публикации"}: ${n} ${plural(n, CAR_FORMS)}`;
  if (answer.unchangedCount === 0) return done;
  const already = published ? "уже были опубликованы" : "уже были черновиками";
  return `${done}; ${already}: ${answer.unchangedCount}`;
}
