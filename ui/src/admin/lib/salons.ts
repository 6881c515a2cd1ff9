/** The salons' shared logic (issue 46, several salons): the API's
 * addresses, a salon's name by id, whether there are several, the car's
 * move and a staff member's salons. The salon form's logic is in
 * salon-form.ts, read only by the salons screen. */
import type { components } from "../../api/schema";
import type { StaffUser } from "../../api/types";

export type SalonRecord = components["schemas"]["SalonRecord"];

export const SALONS_URL = "/api/admin/salons";
export const salonUrl = (id: number) => `${SALONS_URL}/${id}`;
export const carSalonUrl = (carId: string) => `/api/admin/cars/${encodeURIComponent(carId)}/salon`;

/** The main salon's id: its facts are the company settings. */
export const MAIN_SALON = 1;

/** Whether the install has more than one salon: only then do the cars,
 * the team and the leads name a salon. */
export function several(salons: readonly SalonRecord[] | undefined): boolean {
  return (salons?.length ?? 0) > 1;
}

/** The name of the salon `id` (absent: the main); undefined while unknown. */
export function salonName(
  salons: readonly Pick<SalonRecord, "id" | "name">[] | undefined,
  id: number | null | undefined,
): string | undefined {
  return salons?.find((s) => s.id === (id ?? MAIN_SALON))?.name;
}

/** The toast of a car moved. */
export const movedText = (name: string) => `Автомобиль переведён в салон «${name}»`;

// ---- a staff member's salons -----------------------------------------------------

/** The team form's boxes: the ids checked, as text (none: every salon). */
export function salonIdsValues(user: Pick<StaffUser, "salonIds"> | null): string[] {
  return (user?.salonIds ?? []).map(String);
}

/** The ids the API takes, in order. */
export function salonIdsOf(checked: readonly string[] | undefined): number[] {
  return [...new Set((checked ?? []).map(Number))]
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b);
}

/** The change of a member's salons: undefined when the same. */
export function salonIdsChange(
  user: Pick<StaffUser, "salonIds">,
  checked: readonly string[] | undefined,
): number[] | undefined {
  const next = salonIdsOf(checked);
  const before = salonIdsOf((user.salonIds ?? []).map(String));
  return next.join(",") === before.join(",") ? undefined : next;
}

/** The team table's note of a member's salons: "все салоны" or the names. */
export function salonsNote(
  user: Pick<StaffUser, "salonIds">,
  salons: readonly Pick<SalonRecord, "id" | "name">[],
): string {
  const ids = user.salonIds ?? [];
  if (ids.length === 0) return "все салоны";
  return ids.map((id) => salonName(salons, id) ?? `№${id}`).join(", ");
}

/** A figures' address for one salon ("" or none: every salon). */
export function withSalon(url: string, salon: string | undefined): string {
  return salon ? `${url}?salon=${encodeURIComponent(salon)}` : url;
}
