/** The seven days' editor of a working schedule (lib/schedule.ts): per
 * weekday a day-off box, opening and closing time. The salon's schedule in
 * the settings and a staff member's own hours in the team's dialogs. */
import { type ReactNode, useId } from "react";
import type { FieldError, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { type DayForm, WEEKDAY_NAMES } from "../lib/schedule";

interface Props<T extends FieldValues> {
  /** The form's register; the days live in its field `workSchedule`. */
  register: UseFormRegister<T>;
  /** The days as they are now (watched), for the day-off boxes. */
  days: DayForm[] | undefined;
  legend: string;
  hint?: ReactNode;
  /** The schedule's error (the form's or the server's), shown above the rows. */
  error?: FieldError | { message?: string };
  testId?: string;
}

export function ScheduleFields<T extends FieldValues & { workSchedule: DayForm[] }>({
  register,
  days,
  legend,
  hint,
  error,
  testId = "work-schedule",
}: Props<T>) {
  const id = useId();
  const message = error?.message;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const field = (i: number, part: keyof DayForm) =>
    register(`workSchedule.${i}.${part}` as Path<T>);
  return (
    <fieldset
      class="schedule"
      aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
      data-testid={testId}
    >
      <legend>{legend}</legend>
      {hint && <small id={hintId}>{hint}</small>}
      {message && (
        <small id={errorId} class="field-error" role="alert">
          {message}
        </small>
      )}
      {WEEKDAY_NAMES.map((name, i) => {
        const closed = days?.[i]?.closed ?? false;
        return (
          <div class="schedule-row" key={name} data-testid={`schedule-day-${i}`}>
            <span class="schedule-day">{name}</span>
            <label>
              <input type="checkbox" {...field(i, "closed")} />
              Выходной
            </label>
            <label>
              <span class="visually-hidden">{`${name}: открытие`}</span>
              <input
                type="time"
                disabled={closed}
                aria-invalid={message && !closed ? true : undefined}
                {...field(i, "open")}
              />
            </label>
            <span aria-hidden="true">—</span>
            <label>
              <span class="visually-hidden">{`${name}: закрытие`}</span>
              <input
                type="time"
                disabled={closed}
                aria-invalid={message && !closed ? true : undefined}
                {...field(i, "close")}
              />
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}
