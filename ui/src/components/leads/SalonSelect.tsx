import { useEffect, useState } from "react";
import type { Salon } from "../../lib/salons";
import { LeadField } from "./LeadField";

interface Props {
  salons: Salon[];
  /** The chosen salon's id, null before a choice. */
  value: number | null;
  onChange: (id: number | null) => void;
}

type Option = [id: number, label: string];

const plain = (salons: Salon[]): Option[] => salons.map((s) => [s.id, `${s.name} — ${s.address}`]);

/** A general form's «Салон *» (issue 46): every salon by name and address.
 * The server draws them in their own order (a kept page cannot know the
 * moment it is read); the browser then orders them the nearest open first
 * with each one's hours now («открыт до 21:00»), from a chunk of its own
 * loaded only on a site with several salons. */
export default function SalonSelect({ salons, value, onChange }: Props) {
  const [options, setOptions] = useState<Option[]>(() => plain(salons));
  useEffect(() => {
    let live = true;
    setOptions(plain(salons));
    void import("../../lib/salonHours").then(({ nearestOpenFirst, stateText }) => {
      if (!live) return;
      setOptions(
        nearestOpenFirst(salons, new Date()).map(({ salon, state }) => [
          salon.id,
          `${salon.name} — ${salon.address} (${stateText(state)})`,
        ]),
      );
    });
    return () => {
      live = false;
    };
  }, [salons]);
  return (
    <LeadField name="salonId" label="Салон *" required>
      {(a) => (
        <select
          {...a}
          data-testid="salon-select"
          value={value === null ? "" : String(value)}
          onChange={(e) => onChange(Number((e.target as HTMLSelectElement).value) || null)}
        >
          <option value="">Выберите салон</option>
          {options.map(([id, label]) => (
            <option key={id} value={String(id)}>
              {label}
            </option>
          ))}
        </select>
      )}
    </LeadField>
  );
}
