/** The settings' section "Сроки хранения персональных данных" (`#retention`,
 * docs/personal-data.md): how long a person's data is kept after their last
 * contact, and a cancelled lead after it was closed. Part of the settings
 * form, saved with it; the server's refusals are shown at their fields. */
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { Field } from "../components/Field";
import {
  CANCELLED_MONTHS_MAX,
  CANCELLED_MONTHS_MIN,
  RETENTION_YEARS_MAX,
  RETENTION_YEARS_MIN,
  type RetentionForm,
  retentionRules,
} from "../lib/personalData";

export const RETENTION_ANCHOR = "retention";
/** The first input: where a link to `#retention` lands. */
export const RETENTION_YEARS_ID = "retention-years";

export function RetentionFields({
  register,
  errors,
}: {
  register: UseFormRegister<RetentionForm>;
  errors: FieldErrors<RetentionForm>;
}) {
  return (
    <fieldset id={RETENTION_ANCHOR} data-testid="retention-section">
      <legend>Сроки хранения персональных данных</legend>
      <p id="retention-hint" class="muted">
        Каждую ночь сайт удаляет данные людей, срок хранения которых истёк, и составляет акт об
        уничтожении (раздел «Персональные данные»). Резервные копии старше срока хранения не
        сохраняются.
      </p>
      <div class="form-grid">
        <PeriodField
          id={RETENTION_YEARS_ID}
          name="retentionYears"
          label="Хранить данные после последнего обращения, лет"
          min={RETENTION_YEARS_MIN}
          max={RETENTION_YEARS_MAX}
          hint={`От ${RETENTION_YEARS_MIN} до ${RETENTION_YEARS_MAX}`}
          register={register}
          errors={errors}
        />
        <PeriodField
          name="cancelledRetentionMonths"
          label="Отменённые заявки хранить, месяцев"
          min={CANCELLED_MONTHS_MIN}
          max={CANCELLED_MONTHS_MAX}
          hint={`От ${CANCELLED_MONTHS_MIN} до ${CANCELLED_MONTHS_MAX}, считая от закрытия заявки`}
          register={register}
          errors={errors}
        />
      </div>
    </fieldset>
  );
}

/** One period: a whole number between `min` and `max`, checked as the
 * server checks it, its refusal shown at the field. */
function PeriodField({
  id,
  name,
  label,
  min,
  max,
  hint,
  register,
  errors,
}: {
  id?: string;
  name: keyof RetentionForm;
  label: string;
  min: number;
  max: number;
  hint: string;
  register: UseFormRegister<RetentionForm>;
  errors: FieldErrors<RetentionForm>;
}) {
  return (
    <Field id={id} label={label} error={errors[name]} hint={hint} describedBy="retention-hint">
      {(a) => (
        <input
          {...a}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          class="narrow-input"
          {...register(name, retentionRules[name])}
        />
      )}
    </Field>
  );
}
