import { useSyncExternalStore } from "react";
import { type ListName, readList, type SavedCar, subscribe } from "../lib/saved";

/** One empty list for every empty answer: an empty list the browser reads
 * equals the server's, so taking a page over draws nothing again. */
const NONE: SavedCar[] = [];

const shown = (list: SavedCar[]) => (list.length > 0 ? list : NONE);

/** A saved list (favourites or compare), live across components and tabs.
 * The server knows none (the lists live in this browser): while taking its
 * markup over the browser draws them empty too, then its own right away. */
export function useSaved(name: ListName): SavedCar[] {
  return useSyncExternalStore(
    subscribe,
    () => shown(readList(name)),
    () => NONE,
  );
}
