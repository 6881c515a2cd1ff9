/** Several salons (issue 46; `docs/salons.md`): the public settings list
 * every salon, the main first (id 1), only when there is more than one; a
 * single-salon install lists none and the site shows nothing of this. */
import type { components } from "../api/schema";

export type Salon = components["schemas"]["Salon"];

/** The main salon's id: a car or a lead without a salon is in it. */
export const MAIN_SALON = 1;

/** The salons when the site has several, else null. */
export function severalSalons(salons: Salon[] | null | undefined): Salon[] | null {
  return salons && salons.length > 1 ? salons : null;
}

/** The salon of `salonId` (absent: the main) when the site has several,
 * else null. */
export function salonOf(
  salons: readonly Salon[] | null | undefined,
  salonId: number | null | undefined,
): Salon | null {
  const id = salonId ?? MAIN_SALON;
  return severalSalons(salons as Salon[])?.find((s) => s.id === id) ?? null;
}

/** A link to the salon on Yandex Maps, when its coordinates are known. */
export function mapHref(salon: Pick<Salon, "latitude" | "longitude">): string | null {
  const { latitude: lat, longitude: lon } = salon;
  if (typeof lat !== "number" || typeof lon !== "number") return null;
  return `https://yandex.ru/maps/?pt=${lon},${lat}&z=16&l=map`;
}

/** The consent text or the policy a form links to: a salon other than the
 * main one may be a company of its own, with its own operator's texts. */
export function legalHref(doc: "consent" | "privacy", salonId: number | null | undefined): string {
  return salonId && salonId !== MAIN_SALON ? `/${doc}?salon=${salonId}` : `/${doc}`;
}

/** The `salon` parameter of a page URL: a whole number from 1 (up to nine
 * digits: a salon's id), else none. */
export function salonParam(text: string | null): number | null {
  return (text && /^\d{1,9}$/.test(text) && Number(text)) || null;
}
