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
        <Field
          id={RETENTION_YEARS_ID}
          label="Хранить данные после последнего обращения, лет"
          error={errors.retentionYears}
          hint={`От ${RETENTION_YEARS_MIN} до ${RETENTION_YEARS_MAX}`}
          describedBy="retention-hint"
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={RETENTION_YEARS_MIN}
              max={RETENTION_YEARS_MAX}
              step={1}
              class="narrow-input"
              {...register("retentionYears", retentionRules.retentionYears)}
            />
          )}
        </Field>
        <Field
          label="Отменённые заявки хранить, месяцев"
          error={errors.cancelledRetentionMonths}
          hint={`От ${CANCELLED_MONTHS_MIN} до ${CANCELLED_MONTHS_MAX}, считая от закрытия заявки`}
          describedBy="retention-hint"
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={CANCELLED_MONTHS_MIN}
              max={CANCELLED_MONTHS_MAX}
              step={1}
              class="narrow-input"
              {...register("cancelledRetentionMonths", retentionRules.cancelledRetentionMonths)}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
