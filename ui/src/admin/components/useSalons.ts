/** The salons as every screen that names one reads them (GET
 * /api/admin/salons, open to every staff role): the list, whether there
 * are several (only then do the cars, the team and the leads show a
 * salon) and a salon's name by id. */
import { SALONS_URL, type SalonRecord, salonName, several } from "../lib/salons";
import { useAdminQuery } from "../query";

export interface Salons {
  /** Undefined while loading (or when the read failed). */
  list: SalonRecord[] | undefined;
  several: boolean;
  /** The name of salon `id` (absent: the main). */
  name: (id: number | null | undefined) => string | undefined;
}

export function useSalons(): Salons {
  const list = useAdminQuery<SalonRecord[]>(SALONS_URL, { refetchOnWindowFocus: false }).data;
  return { list, several: several(list), name: (id) => salonName(list, id) };
}
