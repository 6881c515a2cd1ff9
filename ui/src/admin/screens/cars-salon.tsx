/** A car's salon in its form, shown only when there are several salons
 * (issue 46): a saved car is moved by «Перевести» (PUT
 * /api/admin/cars/{id}/salon, one audited action apart from the form's
 * save); a new car's salon is chosen with its other fields. */
import { useState } from "react";
import { apiPut } from "../../api/client";
import type { Car } from "../../api/types";
import { Field } from "../components/Field";
import { useSalons } from "../components/useSalons";
import { carSalonUrl, MAIN_SALON, movedText } from "../lib/salons";
import { useAdminMutation } from "../query";

/** The salons as options. */
function Options({ list }: { list: { id: number; name: string }[] }) {
  return (
    <>
      {list.map((s) => (
        <option key={s.id} value={String(s.id)}>
          {s.name}
        </option>
      ))}
    </>
  );
}

/** A saved car: the salon it stands in and its move to another. */
export function CarSalonMove({ car }: { car: Car }) {
  const salons = useSalons();
  const [current, setCurrent] = useState(car.salonId ?? MAIN_SALON);
  const [chosen, setChosen] = useState(String(car.salonId ?? MAIN_SALON));
  const move = useAdminMutation(
    (salonId: number) => apiPut<Car>(carSalonUrl(car.id), { salonId }),
    {
      success: (_, salonId) => movedText(salons.name(salonId) ?? ""),
      failure: "Не удалось перевести автомобиль",
      onSuccess: (moved, salonId) => setCurrent(moved.salonId ?? salonId),
    },
  );
  if (!salons.several || !salons.list) return null;
  const currentName = salons.name(current) ?? "";
  return (
    <div class="car-salon" data-testid="car-salon-move">
      <div class="inline-row">
        <Field label="Салон" class="grow">
          {(a) => (
            <select {...a} value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
              <Options list={salons.list ?? []} />
            </select>
          )}
        </Field>
        <button
          type="button"
          class="secondary"
          aria-busy={move.isPending || undefined}
          disabled={move.isPending || Number(chosen) === current}
          onClick={() => move.mutate(Number(chosen))}
        >
          Перевести
        </button>
      </div>
      <p class="muted" data-testid="car-salon" aria-live="polite">
        Автомобиль в салоне «{currentName}». Перевод сохраняется сразу, отдельно от формы.
      </p>
    </div>
  );
}

/** A new car's salon (the main one unless chosen); "" while not chosen. */
export function NewCarSalon({
  value,
  onChange,
}: {
  value: string;
  onChange: (salonId: string) => void;
}) {
  const salons = useSalons();
  if (!salons.several || !salons.list) return null;
  return (
    <Field label="Салон" hint="Где стоит автомобиль: его заявки получает этот салон">
      {(a) => (
        <select
          {...a}
          value={value || String(MAIN_SALON)}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          <Options list={salons.list ?? []} />
        </select>
      )}
    </Field>
  );
}
