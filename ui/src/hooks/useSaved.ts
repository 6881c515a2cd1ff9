import { useSyncExternalStore } from "react";
import { type ListName, readList, type SavedCar, subscribe } from "../lib/saved";

/** A saved list (favourites or compare), live across components and tabs. */
export function useSaved(name: ListName): SavedCar[] {
  return useSyncExternalStore(subscribe, () => readList(name));
}
