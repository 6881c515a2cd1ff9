/** A URL feed's schedule in its add/edit dialog: the interval (off, a
 * preset number of hours, or another whole number from 1 to 168). Each feed
 * has its own; a file feed has none (docs/parser.md, "Schedule"). */
import type { FieldError, UseFormRegister } from "react-hook-form";
import { Field } from "../components/Field";
import {
  CUSTOM_INTERVAL,
  INTERVAL_PRESETS,
  intervalLabel,
  MAX_INTERVAL_HOURS,
} from "../lib/parser";
import type { FeedFormValues } from "../lib/parser-feeds";

export function IntervalFields({
  register,
  choice,
  errors,
}: {
  register: UseFormRegister<FeedFormValues>;
  /** The select's value now (watched). */
  choice: string;
  errors: { interval?: FieldError; custom?: FieldError };
}) {
  return (
    <div class="inline-row">
      <Field
        label="Расписание"
        error={errors.interval}
        hint="Каждый запуск по расписанию проверяет фид и сразу применяет его"
      >
        {(a) => (
          <select {...a} {...register("interval")} data-testid="feed-interval">
            {INTERVAL_PRESETS.map((h) => (
              <option key={h} value={String(h)}>
                {h === 0 ? "Вручную (без расписания)" : intervalLabel(h)}
              </option>
            ))}
            <option value={CUSTOM_INTERVAL}>Другой интервал…</option>
          </select>
        )}
      </Field>
      {choice === CUSTOM_INTERVAL && (
        <Field label="Интервал, часов" error={errors.custom} hint={`от 1 до ${MAX_INTERVAL_HOURS}`}>
          {(a) => (
            <input
              {...a}
              type="number"
              min={1}
              max={MAX_INTERVAL_HOURS}
              step={1}
              inputMode="numeric"
              {...register("custom")}
            />
          )}
        </Field>
      )}
    </div>
  );
}
