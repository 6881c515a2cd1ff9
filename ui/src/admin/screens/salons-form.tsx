/** The add and edit dialog of a salon (issue 46): its name, addresses,
 * coordinates, phones, call-tracking class (the main salon's comes from
 * the configuration), e-mail, weekly hours, who hears of its leads (by
 * default and per lead type) and its own legal entity when it is a
 * separate company. The main salon's facts are the company settings. The
 * server's refusals are shown at their fields. */
import { useId } from "react";
import { type FieldError, type FieldErrors, type UseFormRegister, useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ScheduleFields } from "../components/ScheduleFields";
import { LEAD_TYPE_LABELS, LEAD_TYPES } from "../lib/leads";
import { operatorRules } from "../lib/operator";
import {
  checkEmail,
  checkEmails,
  checkLatitude,
  checkLongitude,
  checkName,
  checkPhoneClass,
  firstProblem,
  SALON_FIELDS,
  type SalonValues,
  salonInput,
  salonValues,
  withinLimit,
} from "../lib/salon-form";
import { SALONS_URL, type SalonRecord, salonUrl } from "../lib/salons";
import { scheduleError } from "../lib/schedule";
import { useAdminMutation } from "../query";

type Text = Exclude<keyof SalonValues, "workSchedule" | "leadRecipients">;

export function SalonDialog({ item, onClose }: { item: SalonRecord | null; onClose: () => void }) {
  const main = item?.main ?? false;
  const { register, handleSubmit, watch, setError, clearErrors, formState } = useForm<SalonValues>({
    defaultValues: salonValues(item, LEAD_TYPES),
  });
  const { errors, isDirty } = formState;
  const save = useAdminMutation(
    (v: SalonValues) => {
      const body = salonInput(v, main);
      return item
        ? apiPut<SalonRecord>(salonUrl(item.id), body)
        : apiPost<SalonRecord>(SALONS_URL, body);
    },
    {
      success: (s) => (item ? `Салон «${s.name}» сохранён` : `Салон «${s.name}» добавлен`),
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить салон",
          fields: SALON_FIELDS,
        }),
    },
  );
  // The schedule's message belongs to no single input: cleared before each
  // try, or react-hook-form refuses to submit.
  const submit = (e: Event) => {
    clearErrors(["workSchedule", "leadRecipients"]);
    return handleSubmit((v) => {
      const wrong = scheduleError(v.workSchedule);
      if (wrong) setError("workSchedule", { type: "validate", message: wrong });
      else save.mutate(v);
    })(e);
  };
  const text = (name: Text, rules: (v: string, all: SalonValues) => true | string) =>
    register(name, { validate: (v, all) => rules(String(v ?? ""), all) });
  const limit = (name: Text) => text(name, (v) => withinLimit(name, v));
  const scheduleMessage =
    errors.workSchedule?.root ?? (errors.workSchedule as { message?: string } | undefined);
  return (
    <FormDialog
      open
      title={item ? `Изменить салон «${item.name}»` : "Добавить салон"}
      dirty={isDirty}
      onClose={onClose}
      testId="salon-dialog"
    >
      <form noValidate onSubmit={submit} data-testid="salon-form">
        {main && (
          <p class="muted" data-testid="main-salon-note">
            Это основной салон: его данные — настройки компании.
          </p>
        )}
        <Field label="Название" required error={errors.name}>
          {(a) => <input {...a} autoComplete="off" {...text("name", checkName)} />}
        </Field>
        <Field
          label="Адрес"
          error={errors.address}
          hint="Коротко, для шапки сайта и списка салонов"
        >
          {(a) => <input {...a} {...limit("address")} />}
        </Field>
        <Field label="Полный адрес" error={errors.fullAddress} hint="С индексом и городом">
          {(a) => <input {...a} {...limit("fullAddress")} />}
        </Field>
        <div class="form-grid">
          <Field label="Широта" error={errors.latitude} hint="Градусы, например 59.9386">
            {(a) => (
              <input
                {...a}
                inputMode="decimal"
                {...text("latitude", (v, all) => checkLatitude(v, all.longitude))}
              />
            )}
          </Field>
          <Field label="Долгота" error={errors.longitude} hint="Градусы, например 30.3141">
            {(a) => (
              <input
                {...a}
                inputMode="decimal"
                {...text("longitude", (v, all) => checkLongitude(v, all.latitude))}
              />
            )}
          </Field>
          <Field label="Телефон" error={errors.phone}>
            {(a) => <input {...a} type="tel" {...limit("phone")} />}
          </Field>
          <Field label="Дополнительный телефон" error={errors.phoneSecondary}>
            {(a) => <input {...a} type="tel" {...limit("phoneSecondary")} />}
          </Field>
          <Field
            label="Класс номеров для коллтрекинга"
            error={errors.phoneClass}
            hint={
              main
                ? "Задаётся в конфигурации сервера (call_tracking.phone_class)"
                : "CSS-класс телефонов салона для скрипта коллтрекинга: латинские буквы, цифры, - и _"
            }
          >
            {(a) => (
              <input
                {...a}
                readOnly={main}
                autoCapitalize="none"
                spellcheck={false}
                {...text("phoneClass", (v) =>
                  firstProblem(checkPhoneClass(v), withinLimit("phoneClass", v)),
                )}
              />
            )}
          </Field>
          <Field label="E-mail" error={errors.email}>
            {(a) => (
              <input
                {...a}
                type="email"
                {...text("email", (v) => firstProblem(checkEmail(v), withinLimit("email", v)))}
              />
            )}
          </Field>
        </div>
        <ScheduleFields
          register={register}
          days={watch("workSchedule")}
          legend="Часы работы"
          hint="По московскому времени; по ним считаются слоты тест-драйва и часы ответа на заявки"
          error={scheduleMessage}
          testId="salon-schedule"
        />
        <fieldset>
          <legend>Уведомления о заявках</legend>
          <div class="form-grid">
            <Field
              label="Адрес для уведомлений"
              error={errors.notificationEmail}
              hint={
                main
                  ? "Несколько адресов через запятую"
                  : "Несколько адресов через запятую; пусто — как у основного салона"
              }
            >
              {(a) => (
                <input
                  {...a}
                  {...text("notificationEmail", (v) =>
                    firstProblem(checkEmails(v), withinLimit("notificationEmail", v)),
                  )}
                />
              )}
            </Field>
            <Field
              label="Чат Telegram"
              error={errors.telegramChatId}
              hint={
                main
                  ? "ID чата, куда бот пишет о заявках"
                  : "ID чата; пусто — как у основного салона"
              }
            >
              {(a) => <input {...a} autoComplete="off" {...limit("telegramChatId")} />}
            </Field>
          </div>
          <Recipients register={register} errors={errors} />
        </fieldset>
        <fieldset data-testid="salon-operator">
          <legend>
            {main
              ? "Юридическое лицо компании"
              : "Юридическое лицо салона (если отдельная компания)"}
          </legend>
          {!main && (
            <p class="muted">Пусто — согласие на обработку данных даётся основной компании.</p>
          )}
          <Field label="Полное наименование оператора" error={errors.operatorName}>
            {(a) => <input {...a} {...register("operatorName", operatorRules.operatorName)} />}
          </Field>
          <div class="form-grid">
            <Field label="ИНН" error={errors.operatorInn} hint="10 цифр у организации, 12 у ИП">
              {(a) => (
                <input
                  {...a}
                  inputMode="numeric"
                  autoComplete="off"
                  {...register("operatorInn", operatorRules.operatorInn)}
                />
              )}
            </Field>
            <Field
              label="ОГРН / ОГРНИП"
              error={errors.operatorOgrn}
              hint="13 цифр у организации, 15 у ИП"
            >
              {(a) => (
                <input
                  {...a}
                  inputMode="numeric"
                  autoComplete="off"
                  {...register("operatorOgrn", operatorRules.operatorOgrn)}
                />
              )}
            </Field>
          </div>
          <Field label="Юридический адрес" error={errors.operatorAddress}>
            {(a) => (
              <input {...a} {...register("operatorAddress", operatorRules.operatorAddress)} />
            )}
          </Field>
        </fieldset>
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            {item ? "Сохранить" : "Добавить"}
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}

/** Who hears of each lead type instead of the salon's defaults: one row
 * per type, an e-mail (several by commas) and a Telegram chat. */
function Recipients({
  register,
  errors,
}: {
  register: UseFormRegister<SalonValues>;
  errors: FieldErrors<SalonValues>;
}) {
  const id = useId();
  const all = errors.leadRecipients as
    | (Record<string, { email?: FieldError }> & { message?: string; root?: FieldError })
    | undefined;
  const message = all?.root?.message ?? all?.message;
  return (
    <div class="salon-recipients" data-testid="salon-recipients">
      <p id={`${id}-hint`} class="muted">
        Получатели по типам заявок: если заданы, заявки этого типа приходят им, а не на адрес и в
        чат выше.
      </p>
      {message && (
        <p class="field-error" role="alert">
          {message}
        </p>
      )}
      <table aria-describedby={`${id}-hint`}>
        <caption class="visually-hidden">Получатели по типам заявок</caption>
        <thead>
          <tr>
            <th scope="col">Тип заявки</th>
            <th scope="col">E-mail</th>
            <th scope="col">Чат Telegram</th>
          </tr>
        </thead>
        <tbody>
          {LEAD_TYPES.map((type) => {
            const label = LEAD_TYPE_LABELS[type];
            const wrong = all?.[type]?.email?.message;
            const errorId = `${id}-${type}-error`;
            return (
              <tr key={type} data-testid={`recipients-${type}`}>
                <th scope="row">{label}</th>
                <td>
                  <input
                    aria-label={`${label}: e-mail`}
                    placeholder="E-mail"
                    aria-invalid={wrong ? true : undefined}
                    aria-describedby={wrong ? errorId : undefined}
                    {...register(`leadRecipients.${type}.email`, {
                      validate: (v) => checkEmails(String(v ?? "")),
                    })}
                  />
                  {wrong && (
                    <small id={errorId} class="field-error" role="alert">
                      {wrong}
                    </small>
                  )}
                </td>
                <td>
                  <input
                    aria-label={`${label}: чат Telegram`}
                    placeholder="Чат Telegram"
                    autoComplete="off"
                    {...register(`leadRecipients.${type}.telegramChatId`)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
