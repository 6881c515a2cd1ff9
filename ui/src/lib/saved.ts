/** Favourites and the compare list: kept in the visitor's browser only
 * (localStorage), never sent anywhere but as the public slugs the pages ask
 * the API for. Each entry keeps a snapshot of the car (title, price, image,
 * status) so a car that is sold or unpublished can still be shown and
 * removed. Tabs stay in sync through the `storage` event. */
import type { CarBrief, CarStatus } from "../api/types";

export interface SavedCar {
  slug: string;
  title: string;
  /** Money as the API sends it. */
  price: string;
  image: string;
  status: CarStatus;
}

export type ListName = "favorites" | "compare";

export const COMPARE_MAX = 4;
export const COMPARE_FULL = `Сравнивать можно не больше ${COMPARE_MAX} автомобилей. Уберите один из сравнения, чтобы добавить этот.`;
export const GONE = "Автомобиль продан или снят с продажи";

const KEYS: Record<ListName, string> = {
  favorites: "dealership.favorites",
  compare: "dealership.compare",
};
/** Limits of what is kept: favourites are many, compare is four. */
const LIMITS: Record<ListName, number> = { favorites: 100, compare: COMPARE_MAX };
const STATUSES: CarStatus[] = ["new", "used", "lease"];

/** "Haval Jolion" unless the name already starts with the brand. */
export function carTitle(car: Pick<CarBrief, "name" | "brandName">): string {
  return car.name.toLowerCase().startsWith(car.brandName.toLowerCase())
    ? car.name
    : `${car.brandName} ${car.name}`;
}

export function snapshot(car: CarBrief): SavedCar {
  return {
    slug: car.slug,
    title: carTitle(car),
    price: car.price,
    image: car.mainImage || car.images[0] || "",
    status: car.status,
  };
}

/** The stored text as a clean list: wrong entries and repeats dropped. */
export function parseList(text: string | null, limit = 100): SavedCar[] {
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: SavedCar[] = [];
  for (const item of value) {
    if (!item || typeof item !== "object") continue;
    const e = item as Record<string, unknown>;
    if (typeof e.slug !== "string" || !e.slug || seen.has(e.slug)) continue;
    seen.add(e.slug);
    out.push({
      slug: e.slug,
      title: typeof e.title === "string" ? e.title : e.slug,
      price: typeof e.price === "string" ? e.price : "",
      image: typeof e.image === "string" ? e.image : "",
      status: STATUSES.includes(e.status as CarStatus) ? (e.status as CarStatus) : "new",
    });
    if (out.length >= limit) break;
  }
  return out;
}

/** Adds (at the front) or removes a car; null when the list is full. */
export function toggled(list: SavedCar[], car: SavedCar, limit: number): SavedCar[] | null {
  if (list.some((e) => e.slug === car.slug)) return list.filter((e) => e.slug !== car.slug);
  if (list.length >= limit) return null;
  return [car, ...list];
}

/** The list with fresher snapshots of the cars the API still has. */
export function refreshed(list: SavedCar[], cars: CarBrief[]): SavedCar[] {
  const bySlug = new Map(cars.map((c) => [c.slug, snapshot(c)]));
  return list.map((e) => bySlug.get(e.slug) ?? e);
}

/** `?cars=a,b` → the slugs to compare: trimmed, no repeats, at most four. */
export function compareSlugs(search: string): string[] {
  const raw = new URLSearchParams(search).get("cars") ?? "";
  const out: string[] = [];
  for (const part of raw.split(",")) {
    const slug = part.trim();
    if (slug && !out.includes(slug)) out.push(slug);
    if (out.length === COMPARE_MAX) break;
  }
  return out;
}

/** `/compare?cars=a,b` (slugs keep their letters: they are URL-safe). */
export function comparePath(slugs: string[]): string {
  return slugs.length
    ? `/compare?cars=${slugs.map((s) => encodeURIComponent(s)).join(",")}`
    : "/compare";
}

// The store: one cached list per name, re-read when another tab writes.
const cache: Partial<Record<ListName, SavedCar[]>> = {};
const listeners = new Set<() => void>();

/** The browser's storage; none on the server (the name is undefined there
 * and throws) or where it is refused. */
function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export function readList(name: ListName): SavedCar[] {
  const hit = cache[name];
  if (hit) return hit;
  const list = parseList(storage()?.getItem(KEYS[name]) ?? null, LIMITS[name]);
  cache[name] = list;
  return list;
}

export function writeList(name: ListName, list: SavedCar[]) {
  const limited = list.slice(0, LIMITS[name]);
  cache[name] = limited;
  try {
    storage()?.setItem(KEYS[name], JSON.stringify(limited));
  } catch {
    // Private mode or a full storage: the list lives until the tab closes.
  }
  for (const l of listeners) l();
}

/** Adds or removes; false when the list is full (compare: four). */
export function toggleSaved(name: ListName, car: SavedCar): boolean {
  const next = toggled(readList(name), car, LIMITS[name]);
  if (!next) return false;
  writeList(name, next);
  return true;
}

export function removeSaved(name: ListName, slug: string) {
  writeList(
    name,
    readList(name).filter((e) => e.slug !== slug),
  );
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== "undefined")
    window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== "undefined")
      window.removeEventListener("storage", onStorage);
  };
}

function onStorage(e: StorageEvent) {
  const name = (Object.keys(KEYS) as ListName[]).find((n) => KEYS[n] === e.key);
  if (e.key !== null && !name) return;
  // One list changed (or storage was cleared): read again.
  if (name) delete cache[name];
  else for (const n of Object.keys(KEYS) as ListName[]) delete cache[n];
  for (const l of listeners) l();
}
