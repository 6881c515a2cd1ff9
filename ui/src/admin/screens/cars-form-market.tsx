/** The car form's marketplace parts (docs/admin.md, "The car form" and "Why
 * a car is not on a marketplace"): the fields Avito and Auto.ru require of a
 * used car (owners by ПТС, an accident, the state) and of every car (the
 * wheel), and the notice of the feeds that leave the car out, with why. */
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { components } from "../../api/schema";
import type { CarStatus } from "../../api/types";
import type { CarValues } from "../carForm";
import {
  ACCIDENT_LABELS,
  CAR_STATE_LABELS,
  OWNERS_MAX,
  ownersRule,
  usedOnly,
  WHEEL_LABELS,
} from "../carMarketFields";
import { Field } from "../components/Field";
import { channelName } from "../lib/marketplaces";
import { useAdminQuery } from "../query";
import "./cars.css";

type LeftOut = components["schemas"]["MarketplaceLeftOut"];

/** The options of a select, from its labels. */
const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([k, v]) => (
    <option key={k} value={k}>
      {v}
    </option>
  ));

interface MarketProps {
  register: UseFormRegister<CarValues>;
  errors: FieldErrors<CarValues>;
  status: CarStatus | "";
}

/** Owners, accident and state for a used car (hidden, and kept as they are,
 * for a new or lease car); the wheel for every car. */
export function MarketFields({ register, errors, status }: MarketProps) {
  return (
    <>
      {usedOnly(status) && (
        <>
          <Field label="Владельцев по ПТС" error={errors.owners}>
            {(a) => (
              <input
                {...a}
                type="number"
                inputMode="numeric"
                min={0}
                max={OWNERS_MAX}
                step={1}
                {...register("owners", { validate: ownersRule })}
              />
            )}
          </Field>
          <Field label="Участвовал в ДТП" error={errors.accident}>
            {(a) => (
              <select {...a} {...register("accident")}>
                {options(ACCIDENT_LABELS)}
              </select>
            )}
          </Field>
          <Field label="Оценка состояния" error={errors.state}>
            {(a) => (
              <select {...a} {...register("state")}>
                {options(CAR_STATE_LABELS)}
              </select>
            )}
          </Field>
        </>
      )}
      <Field label="Руль" error={errors.wheel}>
        {(a) => (
          <select {...a} {...register("wheel")}>
            {options(WHEEL_LABELS)}
          </select>
        )}
      </Field>
    </>
  );
}

export const leftOutUrl = (id: string) => `/api/admin/cars/${encodeURIComponent(id)}/left-out`;

/** «Не выгружается на Авито: нет VIN; …»: each feed that leaves the car
 * out, its reasons a list; nothing when every feed takes the car. */
export function LeftOutNotice({ id }: { id: string }) {
  const left = useAdminQuery<LeftOut[]>(leftOutUrl(id));
  if (!left.data || left.data.length === 0) return null;
  return (
    <div class="left-out" role="status" data-testid="left-out">
      {left.data.map((l) => (
        <LeftOutLine key={l.channel} item={l} />
      ))}
    </div>
  );
}

/** One marketplace's line: «Не выгружается на Авито:» and the reasons. */
function LeftOutLine({ item }: { item: LeftOut }) {
  return (
    <div>
      <strong>Не выгружается на {channelName(item.channel)}:</strong>
      <ul>
        {item.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </div>
  );
}
