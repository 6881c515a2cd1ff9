/** The settings' section «Смотрят, но не звонят» (docs/admin.md, "Cars
 * nobody calls about"): the period and the views that put a car on the
 * dashboard's list. Part of the settings form, saved with it. */
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { formatNumber } from "../../lib/format";
import { Field } from "../components/Field";
import {
  QUIET_DAYS_MAX,
  QUIET_DAYS_MIN,
  QUIET_VIEWS_MAX,
  QUIET_VIEWS_MIN,
  type QuietForm,
  quietRules,
} from "../lib/quietCars";

export function QuietFields({
  register,
  errors,
}: {
  register: UseFormRegister<QuietForm>;
  errors: FieldErrors<QuietForm>;
}) {
  return (
    <fieldset data-testid="quiet-section">
      <legend>Смотрят, но не звонят</legend>
      <p id="quiet-hint" class="muted">
        На панели администратора — опубликованные автомобили в наличии, которые за этот период
        посмотрели не меньше указанного числа раз (сайт, Авито и Авто.ру вместе), но ни разу не
        позвонили и не открыли контакты, а также автомобили, которые почти никто не видел (меньше 5
        просмотров).
      </p>
      <div class="form-grid">
        <Field
          label="Период, дней"
          error={errors.quietCarDays}
          hint={`От ${QUIET_DAYS_MIN} до ${QUIET_DAYS_MAX}`}
          describedBy="quiet-hint"
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={QUIET_DAYS_MIN}
              max={QUIET_DAYS_MAX}
              step={1}
              class="narrow-input"
              {...register("quietCarDays", quietRules.quietCarDays)}
            />
          )}
        </Field>
        <Field
          label="Просмотров без обращений, не меньше"
          error={errors.quietCarViews}
          hint={`От ${QUIET_VIEWS_MIN} до ${formatNumber(QUIET_VIEWS_MAX)}`}
          describedBy="quiet-hint"
        >
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              class="narrow-input"
              {...register("quietCarViews", quietRules.quietCarViews)}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
