import { useSyncExternalStore } from "react";
import { type ListName, readList, type SavedCar, subscribe } from "../lib/saved";
import { useHydrated } from "./useHydrated";

const NONE: SavedCar[] = [];

/** A saved list (favourites or compare), live across components and tabs.
 * Empty on the server and until the browser has taken the page over. */
export function useSaved(name: ListName): SavedCar[] {
  const list = useSyncExternalStore(subscribe, () => readList(name));
  return useHydrated() ? list : NONE;
}
