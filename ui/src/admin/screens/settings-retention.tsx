/** The settings' section "Сроки хранения персональных данных" (`#retention`,
 * docs/personal-data.md): how long a person's data is kept after their last
 * contact, and a cancelled lead after it was closed. Its own form and
 * "Сохранить", a partial change of the settings (PUT, as the e-mail and
 * banner forms); the server's refusals are shown at their fields. */
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import {
  CANCELLED_MONTHS_MAX,
  CANCELLED_MONTHS_MIN,
  RETENTION_FIELDS,
  RETENTION_YEARS_MAX,
  RETENTION_YEARS_MIN,
  type RetentionForm,
  retentionForm,
  retentionPatch,
  retentionRules,
} from "../lib/personalData";
import type { AdminSettings } from "../lib/settings";
import { useAdminMutation } from "../query";

export const RETENTION_ANCHOR = "retention";
const YEARS_ID = "retention-years";

export function RetentionSettings({ settings }: { settings: AdminSettings }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<RetentionForm>({ defaultValues: retentionForm(settings) });

  // Another save (this screen's main form, another tab) refills it unless
  // the admin is typing here.
  useEffect(() => {
    if (!isDirty) reset(retentionForm(settings));
  }, [settings, isDirty, reset]);

  // A link to `#retention` (the personal data screen) lands on the first field.
  const anchored = useRef(false);
  useEffect(() => {
    if (anchored.current) return;
    anchored.current = true;
    if (window.location.hash.slice(1) !== RETENTION_ANCHOR) return;
    const field = document.getElementById(YEARS_ID);
    field?.scrollIntoView({ block: "center" });
    field?.focus({ preventScroll: true });
  }, []);

  const save = useAdminMutation(
    (v: RetentionForm) => apiPut<AdminSettings>("/api/settings", retentionPatch(v)),
    {
      success: "Сроки хранения сохранены",
      onSuccess: (s) => reset(retentionForm(s)),
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить сроки хранения",
          fields: RETENTION_FIELDS,
        }),
    },
  );

  return (
    <form
      class="admin-form"
      noValidate
      onSubmit={handleSubmit((v) => save.mutate(v))}
      data-testid="retention-section"
    >
      <fieldset id={RETENTION_ANCHOR}>
        <legend>Сроки хранения персональных данных</legend>
        <p id="retention-hint" class="muted">
          Каждую ночь сайт удаляет данные людей, срок хранения которых истёк, и составляет акт об
          уничтожении (раздел «Персональные данные»). Резервные копии старше срока хранения не
          сохраняются.
        </p>
        <div class="form-grid">
          <Field
            id={YEARS_ID}
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
        <div class="form-actions">
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            Сохранить сроки хранения
          </button>
          {isDirty && <span class="muted">Сроки изменены, но не сохранены</span>}
        </div>
      </fieldset>
    </form>
  );
}
