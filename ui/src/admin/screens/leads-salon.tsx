/** A lead's salon (issue 46), named only when there are several salons:
 * a line of the list's row and a row of the details. A lead without one
 * belongs to the main salon. */
import { useSalons } from "../components/useSalons";

/** The salon's name, or null when there is one salon (or none known yet). */
function useLeadSalon(salonId: number | null | undefined): string | null {
  const salons = useSalons();
  return salons.several ? (salons.name(salonId) ?? null) : null;
}

/** «Салон: …» in the list's row. */
export function LeadSalonLine({ salonId }: { salonId: number | null | undefined }) {
  const name = useLeadSalon(salonId);
  if (!name) return null;
  return (
    <p class="lead-row-salon muted" data-testid="lead-salon">
      {`Салон: ${name}`}
    </p>
  );
}

/** «Салон» in the details' list. */
export function LeadSalonDetail({ salonId }: { salonId: number | null | undefined }) {
  const name = useLeadSalon(salonId);
  if (!name) return null;
  return (
    <>
      <dt>Салон</dt>
      <dd data-testid="lead-details-salon">{name}</dd>
    </>
  );
}
