/** Admin settings: company information, the working schedule, how new
 * leads find their assignee and the response-time threshold, the home
 * page's hero texts and banner, favicon and analytics ids (Google Analytics
 * with its switch and the warning about sending data abroad), the operator
 * of personal data, the consent text and the privacy policy with their
 * placeholders, the retention periods (docs/personal-data.md). `#consent`,
 * `#privacy`, `#operator`, `#analytics` and `#retention` in the address
 * focus their field (the self-checks and the personal-data screen link
 * them). Editing the consent text makes a new edition (its version goes
 * up); the form says so before saving. */
import { useEffect, useRef, useState } from "react";
import { type UseFormRegister, useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import { formatNumber } from "../../lib/format";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { ImageUpload } from "../components/ImageUpload";
import { ScheduleFields } from "../components/ScheduleFields";
import { SkeletonCards } from "../components/SkeletonCards";
import { TIME_ZONE_NOTE } from "../lib/dates";
import { FAVICON_ACCEPT, FAVICON_RULES, HERO_RULES } from "../lib/files";
import { settingsRules } from "../lib/rules";
import { scheduleError, schedulePatch } from "../lib/schedule";
import {
  type AdminSettings,
  ASSIGNMENT_HINT,
  ASSIGNMENT_LABELS,
  ASSIGNMENT_RULES,
  companyPatch,
  consentHint,
  consentNotice,
  MAIL_LIMIT_MAX,
  MAIL_LIMIT_MIN,
  mailLimitRules,
  mailLimitValue,
  PRIVACY_HINT,
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  thresholdRules,
  thresholdValue,
} from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";
import { type RetentionForm, retentionPatch } from "../lib/personalData";
import { type QuietForm, quietPatch } from "../lib/quietCars";
import {
  AnalyticsSwitch,
  OperatorFields,
  type OperatorForm,
  PLACEHOLDERS_NOTE,
  PlaceholdersNote,
  PreviewLink,
} from "./settings-legal";
import { QuietFields } from "./settings-quiet";
import { RetentionFields } from "./settings-retention";
import { anchorTarget, FIELDS, formValues, type SettingsValues } from "./settings-values";

const SETTINGS = "/api/admin/settings";

export default function SettingsScreen() {
  const settings = useAdminQuery<AdminSettings>(SETTINGS, { refetchOnWindowFocus: false });
  return (
    <AdminPage title="Настройки">
      <p class="muted" data-testid="time-zone-note">
        {TIME_ZONE_NOTE}
      </p>
      {settings.data ? (
        <SettingsForm settings={settings.data} />
      ) : settings.isError ? (
        <ErrorPanel
          error={settings.error}
          title="Не удалось загрузить настройки"
          url={SETTINGS}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <SkeletonCards count={3} label="Загрузка настроек…" />
      )}
    </AdminPage>
  );
}

function SettingsForm({ settings }: { settings: AdminSettings }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    setValue,
    getValues,
    watch,
    formState: { errors, isDirty },
  } = useForm<SettingsValues>({ defaultValues: formValues(settings) });
  const [saved, setSaved] = useState(settings);
  const [uploads, setUploads] = useState(0);
  const busy = (b: boolean) => setUploads((n) => n + (b ? 1 : -1));

  // A self-check's link (#consent, #privacy, #operator, #analytics) brings
  // its field into view, focused.
  const anchored = useRef(false);
  useEffect(() => {
    if (anchored.current) return;
    anchored.current = true;
    const target = anchorTarget(window.location.hash.slice(1), getValues());
    if (!target) return;
    const field = document.getElementById(target);
    field?.scrollIntoView({ block: "center" });
    field?.focus({ preventScroll: true });
  }, [getValues]);

  // A refetch (another tab saved) refills the form unless the admin is typing.
  useEffect(() => {
    if (!isDirty) {
      reset(formValues(settings));
      setSaved(settings);
    }
  }, [settings, isDirty, reset]);

  const save = useAdminMutation(
    (v: SettingsValues) =>
      apiPost<AdminSettings>("/api/settings", {
        ...companyPatch(v),
        workSchedule: schedulePatch(v.workSchedule),
        leadAssignment: v.leadAssignment,
        responseThresholdMinutes: thresholdValue(v.responseThresholdMinutes),
        visitorMailDailyLimit: mailLimitValue(v.visitorMailDailyLimit),
        ...retentionPatch(v),
        ...quietPatch(v),
      }),
    {
      success: (s) =>
        s.consentVersion !== saved.consentVersion
          ? `Настройки сохранены. Текст согласия: редакция № ${s.consentVersion}`
          : "Настройки сохранены",
      onSuccess: (s) => {
        setSaved(s);
        reset(formValues(s));
      },
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить настройки",
          fields: FIELDS,
        }),
    },
  );

  const homeBanner = watch("homeBanner");
  const favicon = watch("favicon");
  const notice = consentNotice(
    saved,
    { consentText: watch("consentText"), privacyPolicy: watch("privacyPolicy") },
    saved.consentVersion,
  );

  return (
    <form
      class="admin-form"
      noValidate
      onSubmit={(e) => {
        // The schedule's message belongs to no single input: react-hook-form
        // keeps it (and refuses to submit) until it is cleared.
        clearErrors("workSchedule");
        return handleSubmit((v) => {
          const wrong = scheduleError(v.workSchedule);
          if (wrong) setError("workSchedule", { type: "validate", message: wrong });
          else save.mutate(v);
        })(e);
      }}
    >
      <fieldset>
        <legend>Информация о компании</legend>
        <Field label="Название салона" required error={errors.salonName}>
          {(a) => <input {...a} {...register("salonName", settingsRules.salonName)} />}
        </Field>
        <div class="form-grid">
          <Field label="Телефон" required error={errors.phone}>
            {(a) => <input {...a} type="tel" {...register("phone", settingsRules.phone)} />}
          </Field>
          <Field label="Дополнительный телефон" error={errors.phoneSecondary}>
            {(a) => <input {...a} type="tel" {...register("phoneSecondary")} />}
          </Field>
        </div>
        <Field label="E-mail" required error={errors.email}>
          {(a) => <input {...a} type="email" {...register("email", settingsRules.email)} />}
        </Field>
        <Field label="Адрес" required error={errors.address} hint="Коротко, для шапки сайта">
          {(a) => <input {...a} {...register("address", settingsRules.address)} />}
        </Field>
        <Field label="Полный адрес" error={errors.fullAddress}>
          {(a) => <input {...a} {...register("fullAddress")} />}
        </Field>
      </fieldset>

      <ScheduleFields
        register={register}
        days={watch("workSchedule")}
        legend="График работы"
        hint={`По нему подвал сайта называет часы работы (сейчас: ${(saved.workingHours ?? "").split("\n").join("; ")}) и сайт предлагает время тест-драйва: каждые 30 минут, последняя запись за 30 минут до закрытия.`}
        error={
          errors.workSchedule?.root ?? (errors.workSchedule as { message?: string } | undefined)
        }
      />

      <fieldset>
        <legend>Заявки</legend>
        <Field
          id="assignment"
          label="Распределение новых заявок"
          error={errors.leadAssignment}
          hint={ASSIGNMENT_HINT}
        >
          {(a) => (
            <select {...a} {...register("leadAssignment")}>
              {ASSIGNMENT_RULES.map((r) => (
                <option key={r} value={r}>
                  {ASSIGNMENT_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Порог ответа на заявку, рабочих минут"
          error={errors.responseThresholdMinutes}
          hint={`От ${THRESHOLD_MIN} до ${THRESHOLD_MAX}. Заявка, которая дольше остаётся новой, попадает на панели в список ждущих ответа, и о ней напоминают ещё раз. Считаются только рабочие минуты по графику работы.`}
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={THRESHOLD_MIN}
              max={THRESHOLD_MAX}
              step={1}
              class="narrow-input"
              {...register("responseThresholdMinutes", thresholdRules)}
            />
          )}
        </Field>
      </fieldset>

      <fieldset>
        <legend>Письма посетителям</legend>
        <Field
          label="Писем посетителям в сутки, не больше"
          error={errors.visitorMailDailyLimit}
          hint={`От ${MAIL_LIMIT_MIN} до ${formatNumber(MAIL_LIMIT_MAX)}. Письма, которые посетитель может вызвать на любой адрес (подтверждение подписки на подборку), за любые 24 часа на весь сайт; на один адрес — не больше 3. Сверх ограничения письмо не отправляется, посетитель видит обычный ответ; сколько писем задержано, видно в разделе «Подписки на подборки».`}
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={MAIL_LIMIT_MIN}
              max={MAIL_LIMIT_MAX}
              step={1}
              class="narrow-input"
              {...register("visitorMailDailyLimit", mailLimitRules)}
            />
          )}
        </Field>
      </fieldset>

      <fieldset>
        <legend>Главный баннер</legend>
        <Field label="Заголовок" error={errors.heroTitle}>
          {(a) => <input {...a} {...register("heroTitle")} />}
        </Field>
        <Field label="Подзаголовок" error={errors.heroSubtitle}>
          {(a) => <input {...a} {...register("heroSubtitle")} />}
        </Field>
        <ImageUpload
          label="Изображение баннера главной страницы"
          value={homeBanner}
          onChange={(url) => setValue("homeBanner", url, { shouldDirty: true })}
          rules={HERO_RULES}
          accept="image/jpeg,image/png,image/gif,image/webp"
          hint="Рекомендуемый размер: 1200×600. Без изображения показывается градиент."
          error={errors.homeBanner}
          onBusyChange={busy}
        />
      </fieldset>

      <fieldset id="analytics">
        <legend>SEO и аналитика</legend>
        <ImageUpload
          label="Иконка сайта (favicon)"
          kind="favicon"
          accept={FAVICON_ACCEPT}
          rules={FAVICON_RULES}
          value={favicon}
          onChange={(url) => setValue("favicon", url, { shouldDirty: true })}
          hint="ICO, PNG, JPG или GIF до 1 МБ, лучше 32×32"
          error={errors.favicon}
          onBusyChange={busy}
        />
        <div class="form-grid">
          <Field
            label="Google Analytics ID"
            error={errors.googleAnalyticsId}
            hint="Например, G-XXXXXXX"
          >
            {(a) => <input {...a} spellcheck={false} {...register("googleAnalyticsId")} />}
          </Field>
          <Field label="Яндекс Метрика ID" error={errors.yandexMetrikaId} hint="Номер счётчика">
            {(a) => <input {...a} spellcheck={false} {...register("yandexMetrikaId")} />}
          </Field>
        </div>
        <AnalyticsSwitch
          error={errors.googleAnalyticsEnabled?.message}
          input={register("googleAnalyticsEnabled")}
        />
      </fieldset>

      <OperatorFields
        // The form's values include the section's: its register is theirs.
        register={register as unknown as UseFormRegister<OperatorForm>}
        errors={errors}
      />

      <fieldset>
        <legend>Персональные данные</legend>
        <PlaceholdersNote />
        <Field
          id="consent"
          label="Текст согласия на обработку персональных данных"
          error={errors.consentText}
          hint={consentHint(saved.consentVersion)}
          describedBy={PLACEHOLDERS_NOTE}
        >
          {(a) => <textarea {...a} rows={8} {...register("consentText")} />}
        </Field>
        <PreviewLink href="/consent" what="согласие на обработку персональных данных" />
        {notice && (
          <p class="notice" role="status" data-testid="consent-notice">
            {notice}
          </p>
        )}
        <Field
          id="privacy"
          label="Политика конфиденциальности"
          error={errors.privacyPolicy}
          hint={PRIVACY_HINT}
          describedBy={PLACEHOLDERS_NOTE}
        >
          {(a) => <textarea {...a} rows={8} {...register("privacyPolicy")} />}
        </Field>
        <PreviewLink href="/privacy" what="политика конфиденциальности" />
      </fieldset>

      <RetentionFields
        // The form's values include the section's: its register is theirs.
        register={register as unknown as UseFormRegister<RetentionForm>}
        errors={errors}
      />

      <QuietFields register={register as unknown as UseFormRegister<QuietForm>} errors={errors} />

      <div class="form-actions sticky-actions">
        <button
          type="submit"
          aria-busy={save.isPending || undefined}
          disabled={save.isPending || uploads > 0}
        >
          Сохранить
        </button>
        {isDirty && <span class="muted">Есть несохранённые изменения</span>}
      </div>
    </form>
  );
}
