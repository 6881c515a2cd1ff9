/** What an admin resource screen shows of its list: the search, the filter
 * and the order a description gives (see `ResourceScreen`), as plain
 * functions the block and its unit test share. */
import { matches } from "../lists";

/** The list's search box. */
export interface SearchSpec<T> {
  /** The texts of an item the query is looked for in (every word must be
   * found in one of them, case-insensitively). */
  text: (item: T) => readonly (string | null | undefined)[];
  placeholder: string;
  /** A visible label (the box then stands in a filter row with its id);
   * without it the box is named by `ariaLabel`. */
  label?: string;
  id?: string;
  ariaLabel?: string;
}

/** A select beside the search (e.g. the reviews' status). */
export interface FilterSpec<T> {
  id: string;
  label: string;
  /** The first option shows everything. */
  options: readonly { value: string; label: string }[];
  test: (item: T, value: string) => boolean;
}

export interface ViewSpec<T> {
  search?: SearchSpec<T>;
  filter?: FilterSpec<T>;
  /** The order of the cards (the server's when absent). */
  order?: (a: T, b: T) => number;
}

/** What the admin chose: the typed query and the filter's value. */
export interface ViewState {
  query: string;
  filter: string;
}

export function initialView<T>(spec: ViewSpec<T>): ViewState {
  return { query: "", filter: spec.filter?.options[0]?.value ?? "" };
}

/** Whether the search or the filter narrows the list (an empty list then
 * says "не найдены" rather than "не добавлены"). */
export function isNarrowed<T>(spec: ViewSpec<T>, view: ViewState): boolean {
  return (
    (spec.search !== undefined && view.query.trim() !== "") ||
    (spec.filter !== undefined && view.filter !== spec.filter.options[0]?.value)
  );
}

/** The items shown: those matching the query and the filter, in the order. */
export function shownItems<T>(items: readonly T[], spec: ViewSpec<T>, view: ViewState): T[] {
  const { search, filter, order } = spec;
  const all = filter?.options[0]?.value;
  const shown = items.filter(
    (item) =>
      (!search || matches(view.query, ...search.text(item))) &&
      (!filter || view.filter === all || filter.test(item, view.filter)),
  );
  return order ? shown.sort(order) : shown;
}

/** A text that is either fixed or made from the item (or null for a new one). */
export type Text<X> = string | ((x: X) => string);

export function textOf<X>(text: Text<X>, x: X): string {
  return typeof text === "function" ? text(x) : text;
}
