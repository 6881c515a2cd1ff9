/** The parser's schedule: whether and how often the feed is read by
 * itself, its address and the next run. */
import { useLayoutEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { serverField } from "../errors";
import { longDateTime } from "../lib/dates";
import {
  CUSTOM_INTERVAL,
  checkFeedUrl,
  INTERVAL_PRESETS,
  intervalChoice,
  intervalLabel,
  MAX_INTERVAL_HOURS,
  PARSER_SETTINGS_URL,
  type ParserSettings,
  parseInterval,
  settingsPayload,
} from "../lib/parser";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";
import "./parser.css";

interface ScheduleForm {
  feedUrl: string;
  interval: string;
  custom: string;
}

export function Schedule() {
  const settings = useAdminQuery<ParserSettings>(PARSER_SETTINGS_URL);
  return (
    <section class="admin-section" aria-labelledby="parser-schedule-title" data-testid="schedule">
      <h2 id="parser-schedule-title">Расписание</h2>
      <p>
        Фид по ссылке можно загружать автоматически: каждый запуск проверяет и сразу применяет его
        (строки с ошибками пропускаются и попадают в отчёт).
      </p>
      {settings.isError && !settings.data ? (
        <ErrorPanel
          error={settings.error}
          title="Не удалось загрузить расписание"
          url={PARSER_SETTINGS_URL}
          onRetry={() => void settings.refetch()}
        />
      ) : !settings.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <ScheduleEditor settings={settings.data} />
      )}
    </section>
  );
}

function ScheduleEditor({ settings }: { settings: ParserSettings }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    getValues,
    reset,
    formState: { errors, isDirty },
  } = useForm<ScheduleForm>({ defaultValues: formValues(settings) });
  // The saved values, once they come back from the server: put in the form
  // before the new state is painted, so nothing typed after the state shows
  // is undone by a late reset.
  const saved = `${settings.feedUrl ?? ""}|${settings.intervalHours}`;
  const lastSaved = useRef(saved);
  useLayoutEffect(() => {
    if (lastSaved.current !== saved) {
      lastSaved.current = saved;
      reset(formValues(settings));
    }
  }, [saved, settings, reset]);

  const save = useAdminMutation(
    (body: { feedUrl: string | null; intervalHours: number }) =>
      apiPut<ParserSettings>(PARSER_SETTINGS_URL, body),
    {
      success: "Расписание сохранено",
      onFailure: (e) => {
        // The server names `intervalHours`: the form shows it at its control.
        if (serverField(e, ["intervalHours"])) {
          const at = getValues("interval") === CUSTOM_INTERVAL ? "custom" : "interval";
          setError(at, { type: "server", message: (e as Error).message }, { shouldFocus: true });
          return;
        }
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить расписание",
          fields: ["feedUrl"],
        });
      },
    },
  );
  const choice = watch("interval");
  const submit = handleSubmit((v) => {
    const interval = parseInterval(v.interval, v.custom);
    if (typeof interval !== "number") {
      setError("custom", { type: "manual", message: interval.error }, { shouldFocus: true });
      return;
    }
    const url = v.feedUrl.trim();
    const problem = url === "" ? (interval > 0 ? checkFeedUrl(url) : null) : checkFeedUrl(url);
    if (problem) {
      setError("feedUrl", { type: "manual", message: problem }, { shouldFocus: true });
      return;
    }
    save.mutate(settingsPayload(v.feedUrl, interval));
  });
  return (
    <>
      <dl class="detail-list" data-testid="schedule-state">
        <dt>Сейчас</dt>
        <dd>{intervalLabel(settings.intervalHours)}</dd>
        <dt>Последний запуск</dt>
        <dd>{settings.lastRunAt ? longDateTime(settings.lastRunAt) : "ещё не было"}</dd>
        <dt>Следующий запуск</dt>
        <dd>
          {settings.intervalHours > 0 && settings.nextRunAt
            ? longDateTime(settings.nextRunAt)
            : "не запланирован"}
        </dd>
      </dl>
      <form noValidate onSubmit={submit} class="admin-form" data-testid="schedule-form">
        <Field label="Адрес фида для расписания" error={errors.feedUrl}>
          {(a) => (
            <input
              {...a}
              type="url"
              inputMode="url"
              spellcheck={false}
              placeholder="https://"
              {...register("feedUrl")}
            />
          )}
        </Field>
        <div class="inline-row">
          <Field label="Периодичность" error={errors.interval}>
            {(a) => (
              <select {...a} {...register("interval")}>
                {INTERVAL_PRESETS.map((h) => (
                  <option key={h} value={String(h)}>
                    {intervalLabel(h)}
                  </option>
                ))}
                <option value={CUSTOM_INTERVAL}>Другой интервал…</option>
              </select>
            )}
          </Field>
          {choice === CUSTOM_INTERVAL && (
            <Field
              label="Интервал, часов"
              error={errors.custom}
              hint={`от 1 до ${MAX_INTERVAL_HOURS}`}
            >
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
        <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
          Сохранить расписание
        </button>
        {isDirty && <small class="muted"> Есть несохранённые изменения</small>}
      </form>
    </>
  );
}

function formValues(s: ParserSettings): ScheduleForm {
  const choice = intervalChoice(s.intervalHours);
  return {
    feedUrl: s.feedUrl ?? "",
    interval: choice,
    custom: choice === CUSTOM_INTERVAL ? String(s.intervalHours) : "",
  };
}

// ---- history ------------------------------------------------------------------
