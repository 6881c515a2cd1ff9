import type { FieldError, UseFormRegister, UseFormWatch } from "react-hook-form";
import { type DayForm, WEEKDAY_NAMES } from "../lib/schedule";
import type { CompanyForm } from "../lib/settings";

export type SettingsValues = CompanyForm & {
  workSchedule: DayForm[];
  /** Whole working minutes, as typed. */
  responseThresholdMinutes: string;
};

interface Props {
  register: UseFormRegister<SettingsValues>;
  watch: UseFormWatch<SettingsValues>;
  error?: FieldError | { message?: string };
}

/** Per weekday: a day-off box, opening and closing time. The schedule's
 * error (the form's or the server's) is shown above the rows. */
export function ScheduleFields({ register, watch, error }: Props) {
  const days = watch("workSchedule");
  const message = error?.message;
  return (
    <fieldset
      class="schedule"
      aria-describedby={message ? "schedule-error schedule-hint" : "schedule-hint"}
      data-testid="work-schedule"
    >
      <legend>График работы</legend>
      <small id="schedule-hint">
        По нему сайт предлагает время тест-драйва: каждые 30 минут, последняя запись за 30 минут до
        закрытия.
      </small>
      {message && (
        <small id="schedule-error" class="field-error" role="alert">
          {message}
        </small>
      )}
      {WEEKDAY_NAMES.map((name, i) => {
        const closed = days?.[i]?.closed ?? false;
        return (
          <div class="schedule-row" key={name} data-testid={`schedule-day-${i}`}>
            <span class="schedule-day">{name}</span>
            <label>
              <input type="checkbox" {...register(`workSchedule.${i}.closed`)} />
              Выходной
            </label>
            <label>
              <span class="visually-hidden">{`${name}: открытие`}</span>
              <input
                type="time"
                disabled={closed}
                aria-invalid={message && !closed ? true : undefined}
                {...register(`workSchedule.${i}.open`)}
              />
            </label>
            <span aria-hidden="true">—</span>
            <label>
              <span class="visually-hidden">{`${name}: закрытие`}</span>
              <input
                type="time"
                disabled={closed}
                aria-invalid={message && !closed ? true : undefined}
                {...register(`workSchedule.${i}.close`)}
              />
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}
