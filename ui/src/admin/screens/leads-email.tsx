/** The e-mail notification settings below the leads list: where new leads
 * are sent, from which address, and whether at all (on by default); and a
 * test e-mail, sent at once to the saved address. */
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { errorMessage, isSilent, serverField } from "../errors";
import { TEST_EMAIL_URL, type TestResult } from "../lib/notifications";
import { settingsRules } from "../lib/rules";
import { type AdminSettings, type EmailForm, emailForm, emailPatch } from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";

const SETTINGS = "/api/admin/settings";
const FIELDS = ["notificationEmail", "fromEmail", "emailNotificationsEnabled"] as const;

export function EmailSettings() {
  const settings = useAdminQuery<AdminSettings>(SETTINGS, { refetchOnWindowFocus: false });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    watch,
    formState: { errors, isDirty },
  } = useForm<EmailForm>({
    defaultValues: { notificationEmail: "", fromEmail: "", emailNotificationsEnabled: true },
  });
  const loaded = settings.data;
  // Fill the form when the settings arrive, unless the admin is typing.
  useEffect(() => {
    if (loaded && !isDirty) reset(emailForm(loaded));
  }, [loaded, isDirty, reset]);

  const [tested, setTested] = useState<{ ok: boolean; message: string } | null>(null);
  const test = useAdminMutation(() => apiPost<TestResult>(TEST_EMAIL_URL), {
    onSuccess: (r) => setTested({ ok: r.success, message: r.message }),
    onFailure: (e) => {
      if (isSilent(e)) return;
      if (serverField(e, ["notificationEmail"])) {
        setError(
          "notificationEmail",
          { type: "server", message: (e as Error).message },
          { shouldFocus: true },
        );
      } else {
        setTested({ ok: false, message: errorMessage(e, "Не удалось отправить тестовое письмо") });
      }
    },
  });

  const save = useAdminMutation(
    (v: EmailForm) => apiPut<AdminSettings>("/api/settings", emailPatch(v)),
    {
      success: "Настройки сохранены",
      onSuccess: (saved) => reset(emailForm(saved)),
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить настройки",
          fields: FIELDS,
        }),
    },
  );

  return (
    <section
      class="admin-section"
      aria-labelledby="email-settings-title"
      data-testid="email-settings"
    >
      <h2 id="email-settings-title">Уведомления о заявках по e-mail</h2>
      {settings.isError && !loaded ? (
        <ErrorPanel
          error={settings.error}
          title="Не удалось загрузить настройки"
          url={SETTINGS}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <form
          noValidate
          aria-busy={settings.isPending || undefined}
          onSubmit={handleSubmit((v) => save.mutate(v))}
        >
          <Field
            label="Адрес для уведомлений"
            error={errors.notificationEmail}
            hint="Сюда приходит письмо о каждой новой заявке"
          >
            {(a) => (
              <input
                {...a}
                type="email"
                autoComplete="email"
                {...register("notificationEmail", settingsRules.notificationEmail)}
              />
            )}
          </Field>
          <Field
            label="Адрес отправителя"
            error={errors.fromEmail}
            hint="Должен быть подтверждён у почтового сервиса"
          >
            {(a) => (
              <input {...a} type="email" {...register("fromEmail", settingsRules.fromEmail)} />
            )}
          </Field>
          <label>
            <input
              type="checkbox"
              role="switch"
              aria-checked={watch("emailNotificationsEnabled")}
              {...register("emailNotificationsEnabled")}
            />
            Отправлять уведомления о новых заявках
          </label>
          <button
            type="submit"
            aria-busy={save.isPending || undefined}
            disabled={save.isPending || settings.isPending}
          >
            Сохранить настройки
          </button>{" "}
          <button
            type="button"
            class="secondary outline"
            aria-busy={test.isPending || undefined}
            aria-describedby="test-email-hint"
            disabled={test.isPending || settings.isPending}
            onClick={() => {
              setTested(null);
              clearErrors("notificationEmail");
              test.mutate();
            }}
          >
            Отправить тестовое письмо
          </button>
          <small id="test-email-hint" class="muted">
            {isDirty
              ? "Письмо уйдёт на сохранённый адрес: сначала сохраните изменения"
              : "Письмо уйдёт на адрес для уведомлений сразу, минуя очередь"}
          </small>
          <div role="status" data-testid="test-email-result">
            {tested && <p class={tested.ok ? "result-ok" : "result-error"}>{tested.message}</p>}
          </div>
        </form>
      )}
    </section>
  );
}
