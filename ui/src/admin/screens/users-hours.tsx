/** What the add and edit dialogs of the team share besides the name and
 * role: the person's own e-mail (a lead given to them is announced there),
 * their salons when there are several (none checked: every salon) and
 * their working hours, the salon's or their own seven days (new leads
 * are given out by the settings' rule only within them). */
import { useId } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { Field } from "../components/Field";
import { ScheduleFields } from "../components/ScheduleFields";
import { useSalons } from "../components/useSalons";
import type { DayForm } from "../lib/schedule";
import { HOURS_LABELS, type HoursChoice } from "../lib/staff-hours";
import { type ContactValues, checkEmail, checkPbxNumber } from "../lib/team";

const HOURS: readonly HoursChoice[] = ["salon", "own"];

interface Props<T extends ContactValues> {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  /** The watched choice and days. */
  hours: HoursChoice;
  days: DayForm[] | undefined;
}

export function ContactFields<T extends ContactValues>(props: Props<T>) {
  // One form shape for both dialogs: the fields below are ContactValues'.
  const register = props.register as unknown as UseFormRegister<ContactValues>;
  const errors = props.errors as FieldErrors<ContactValues>;
  const { hours, days } = props;
  const hintId = useId();
  const scheduleError =
    errors.workSchedule?.root ?? (errors.workSchedule as { message?: string } | undefined);
  return (
    <>
      <Field
        label="E-mail"
        error={errors.email}
        hint="Сюда придёт письмо о заявке, переданной сотруднику"
      >
        {(a) => (
          <input
            {...a}
            type="email"
            autoComplete="off"
            autoCapitalize="none"
            spellcheck={false}
            {...register("email", { validate: checkEmail })}
          />
        )}
      </Field>
      <Field
        label="Номер в АТС"
        error={errors.pbxNumber}
        hint="Внутренний номер или телефон: на него АТС позвонит по заявке «Перезвоните мне»"
      >
        {(a) => (
          <input
            {...a}
            inputMode="tel"
            autoComplete="off"
            {...register("pbxNumber", { validate: checkPbxNumber })}
          />
        )}
      </Field>
      <SalonBoxes register={register} error={(errors.salonIds as { message?: string })?.message} />
      <fieldset class="access-choice" aria-describedby={hintId} data-testid="user-hours-choice">
        <legend>Рабочие часы</legend>
        {HOURS.map((h) => (
          <label key={h}>
            <input type="radio" value={h} {...register("hours")} />
            {HOURS_LABELS[h]}
          </label>
        ))}
        <small id={hintId} class="muted">
          Новые заявки распределяются сотруднику только в эти рабочие часы, по московскому времени.
        </small>
      </fieldset>
      {hours === "own" ? (
        <ScheduleFields
          register={register}
          days={days}
          legend="Свои рабочие часы"
          error={scheduleError}
          testId="user-schedule"
        />
      ) : (
        scheduleError?.message && (
          <p class="field-error" role="alert">
            {scheduleError.message}
          </p>
        )
      )}
    </>
  );
}

/** «Салоны»: a box per salon, shown only when there are several. */
function SalonBoxes({
  register,
  error,
}: {
  register: UseFormRegister<ContactValues>;
  error: string | undefined;
}) {
  const salons = useSalons();
  const hintId = useId();
  if (!salons.several || !salons.list) return null;
  return (
    <fieldset class="access-choice" aria-describedby={hintId} data-testid="user-salons">
      <legend>Салоны</legend>
      {salons.list.map((s) => (
        <label key={s.id}>
          <input type="checkbox" value={String(s.id)} {...register("salonIds")} />
          {s.name}
        </label>
      ))}
      {error && (
        <small class="field-error" role="alert">
          {error}
        </small>
      )}
      <small id={hintId} class="muted">
        Где работает сотрудник: ему распределяются заявки этих салонов. Ни один не отмечен — все
        салоны.
      </small>
    </fieldset>
  );
}
