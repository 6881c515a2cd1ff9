/** The inventory parser: a feed (an address or a file) checked first as a
 * preview (new, changed field by field, unchanged, gone, rows it cannot
 * use), then applied or dropped; the photos' progress after an apply; the
 * schedule; the runs so far, each opening its report; the addresses of the
 * site's own feeds for the marketplaces. `/admin/parser?run={id}` opens that
 * run's report (the dashboard's failed-import card links there). The rules:
 * docs/admin.md. */
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation, useSearch } from "wouter";
import { ApiError, apiDelete, apiPost, apiPut, NetworkError, upload } from "../../api/client";
import { formatPrice } from "../../lib/format";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage, serverField } from "../errors";
import { longDateTime, shortDateTime } from "../lib/dates";
import {
  APPLIED_COUNT_LABELS,
  applySummary,
  applyUrl,
  CAR_STATUS_LABELS,
  COUNT_LABELS,
  CUSTOM_INTERVAL,
  changesAnything,
  changeValue,
  checkFeedFile,
  checkFeedUrl,
  FEED_ACCEPT,
  FORMAT_LABELS,
  feedHint,
  feedLinks,
  groupWarnings,
  IMPORTS_URL,
  type ImportRun,
  type ImportRuns,
  INTERVAL_PRESETS,
  importReportHref,
  importUrl,
  intervalChoice,
  intervalLabel,
  LIST_PAGE,
  MAX_INTERVAL_HOURS,
  newBodyTypesText,
  PARSER_SETTINGS_URL,
  type ParserSettings,
  parseInterval,
  photosPending,
  photoText,
  type RunId,
  rowErrorText,
  rowPlace,
  STATUS_BADGES,
  STATUS_LABELS,
  settingsPayload,
  sourceText,
  TRIGGER_LABELS,
} from "../lib/parser";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";
import { toastError, toastSuccess } from "../toast";
import { percent } from "../uploads";
import "./content.css";
import "./parser.css";

/** How often the report asks for the photos' progress. */
const PHOTO_POLL_MS = 1000;

export default function ParserScreen() {
  const run = new URLSearchParams(useSearch()).get("run")?.trim() || null;
  const [, navigate] = useLocation();
  const open = (id: RunId | null) => navigate(id === null ? "/parser" : importReportHref(id));
  return (
    <AdminPage title="Парсер автомобилей">
      <p>
        Загрузка автомобилей из фида дилерской системы или площадки (XML Авто.ру, XML Avito или
        CSV). Сначала фид проверяется: ничего не меняется, пока вы не примените результат.
      </p>
      <ImportForm
        onPreview={(r) => {
          queryClient.setQueryData([importUrl(r.id)], r);
          open(r.id);
        }}
      />
      {run && <RunReport key={run} id={run} onClose={() => open(null)} />}
      <Schedule />
      <History current={run} onOpen={open} />
      <ExportFeeds />
    </AdminPage>
  );
}

// ---- the source ---------------------------------------------------------------

type Mode = "url" | "file";
type Phase = { kind: "idle" } | { kind: "upload"; progress: number } | { kind: "check" };

interface PreviewVars {
  mode: Mode;
  url: string;
  file: File | null;
  signal: AbortSignal;
}

/** The server's words for a refused feed (it writes them for people; 502
 * when the feed's site failed), or the screen's own. */
function refusal(error: unknown): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof ApiError && error.status !== 500 && error.message) return error.message;
  return "Не удалось проверить фид";
}

function ImportForm({ onPreview }: { onPreview: (run: ImportRun) => void }) {
  const [mode, setMode] = useState<Mode>("url");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<{ url?: string; file?: string }>({});
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const controller = useRef<AbortController | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const focusField = (m: Mode) =>
    setTimeout(() => (m === "url" ? urlInput : fileInput).current?.focus(), 0);

  const preview = useAdminMutation(
    async (v: PreviewVars): Promise<ImportRun> => {
      try {
        if (v.mode === "url") {
          setPhase({ kind: "check" });
          return await apiPost<ImportRun>(IMPORTS_URL, { url: v.url.trim() }, { signal: v.signal });
        }
        setPhase({ kind: "upload", progress: 0 });
        return await upload<ImportRun>(v.file as File, {
          url: IMPORTS_URL,
          signal: v.signal,
          onProgress: ({ loaded, total }) => {
            const p = percent(loaded, total);
            setPhase(p >= 100 ? { kind: "check" } : { kind: "upload", progress: p });
          },
        });
      } finally {
        setPhase({ kind: "idle" });
      }
    },
    {
      onSuccess: (run, v) => {
        // The feed could not be read (fetch, size, broken XML): a failed run,
        // told at the source's field; its report stays in the history.
        if (run.status === "failed") {
          setError({ [v.mode]: run.error || "Не удалось прочитать фид" });
          focusField(v.mode);
          return;
        }
        onPreview(run);
      },
      onFailure: (e, v) => {
        const field =
          e instanceof ApiError && (e.field === "url" || e.field === "file") ? e.field : v.mode;
        if (field !== v.mode) setMode(field);
        setError({ [field]: refusal(e) });
        focusField(field);
      },
    },
  );

  const busy = preview.isPending;
  const submit = (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const problem = mode === "url" ? checkFeedUrl(url) : checkFeedFile(file);
    setError(problem ? { [mode]: problem } : {});
    if (problem) {
      focusField(mode);
      return;
    }
    controller.current = new AbortController();
    preview.mutate({ mode, url, file, signal: controller.current.signal });
  };

  return (
    <section class="admin-section parser-source" aria-labelledby="parser-source-title">
      <h2 id="parser-source-title">Загрузка фида</h2>
      <form noValidate onSubmit={submit} data-testid="import-form">
        <fieldset class="parser-modes">
          <legend>Источник</legend>
          <label>
            <input
              type="radio"
              name="parser-source"
              value="url"
              checked={mode === "url"}
              disabled={busy}
              onChange={() => setMode("url")}
            />
            По ссылке
          </label>
          <label>
            <input
              type="radio"
              name="parser-source"
              value="file"
              checked={mode === "file"}
              disabled={busy}
              onChange={() => setMode("file")}
            />
            Файл
          </label>
        </fieldset>
        {mode === "url" ? (
          <Field
            label="Адрес фида"
            error={error.url}
            hint="Ссылка на XML Авто.ру, XML Avito или CSV, например https://dealer.example/stock.xml"
          >
            {(a) => (
              <input
                {...a}
                ref={urlInput}
                type="url"
                inputMode="url"
                autoComplete="url"
                spellcheck={false}
                placeholder="https://"
                value={url}
                disabled={busy}
                onInput={(e) => {
                  setUrl(e.currentTarget.value);
                  if (error.url) setError({});
                }}
                data-testid="feed-url"
              />
            )}
          </Field>
        ) : (
          <Field
            label="Файл фида"
            error={error.file}
            hint="XML Авто.ру (<data><cars>), XML Avito (<Ads>) или CSV, до 50 МБ"
          >
            {(a) => (
              <input
                {...a}
                ref={fileInput}
                type="file"
                accept={FEED_ACCEPT}
                disabled={busy}
                onChange={(e) => {
                  // A file that is no feed is refused as soon as it is chosen.
                  const chosen = e.currentTarget.files?.[0] ?? null;
                  setFile(chosen);
                  const problem = chosen ? checkFeedFile(chosen) : null;
                  setError(problem ? { file: problem } : {});
                }}
                data-testid="feed-file"
              />
            )}
          </Field>
        )}
        <div class="form-actions">
          <button type="submit" aria-busy={busy || undefined} disabled={busy}>
            Проверить
          </button>
          {busy && (
            <button
              type="button"
              class="secondary outline"
              onClick={() => controller.current?.abort()}
            >
              Остановить
            </button>
          )}
        </div>
        <div role="status" class="parser-progress" data-testid="import-progress">
          {phase.kind === "upload" && (
            <>
              <span>Отправка файла: {phase.progress}%</span>
              <progress max={100} value={phase.progress} aria-label="Отправка файла" />
            </>
          )}
          {phase.kind === "check" && (
            <>
              <span>{mode === "url" ? "Загрузка и проверка фида…" : "Проверка фида…"}</span>
              <progress aria-label="Проверка фида" />
            </>
          )}
        </div>
      </form>
    </section>
  );
}

// ---- a run's report -----------------------------------------------------------

function RunReport({ id, onClose }: { id: RunId; onClose: () => void }) {
  const url = importUrl(id);
  const report = useAdminQuery<ImportRun>(url, {
    refetchInterval: (q) => (q.state.data && photosPending(q.state.data) ? PHOTO_POLL_MS : false),
    refetchOnWindowFocus: false,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const run = report.data;
  const status = run?.status;
  const pending = run ? photosPending(run) : false;
  const [confirming, setConfirming] = useState(false);

  // A new report (or the same one applied) takes focus, so the keyboard and
  // screen reader start on it.
  useEffect(() => {
    if (status) heading.current?.focus();
  }, [status]);

  // The photos have all arrived (or failed): the history's counts are stale.
  const wasPending = useRef(pending);
  useEffect(() => {
    if (wasPending.current && !pending)
      void queryClient.invalidateQueries({ queryKey: [IMPORTS_URL] });
    wasPending.current = pending;
  }, [pending]);

  const apply = useAdminMutation(
    () => apiPost<ImportRun>(applyUrl(id), undefined, { invalidate: ["/api"] }),
    {
      success: "Импорт применён",
      failure: "Не удалось применить импорт",
      onSuccess: (r) => {
        queryClient.setQueryData([url], r);
        setConfirming(false);
      },
      onFailure: (e) => {
        setConfirming(false);
        toastError(errorMessage(e, "Не удалось применить импорт"));
        // Refused (already applied, out of date): the report shows its state.
        void report.refetch();
      },
    },
  );
  const discard = useAdminMutation(() => apiDelete(url, { invalidate: [IMPORTS_URL] }), {
    success: "Предпросмотр отменён",
    failure: "Не удалось отменить предпросмотр",
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [url] });
      onClose();
    },
  });

  const title = !run
    ? "Отчёт об импорте"
    : run.status === "preview"
      ? "Предпросмотр импорта"
      : run.status === "applied"
        ? "Результат импорта"
        : run.status === "discarded"
          ? "Предпросмотр отменён"
          : "Импорт не выполнен";

  return (
    <section
      class="admin-section parser-report"
      aria-labelledby="parser-report-title"
      data-testid="import-report"
    >
      <div class="parser-report-head">
        <h2 id="parser-report-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" class="secondary outline" onClick={onClose}>
          Закрыть отчёт
        </button>
      </div>
      {report.isError && !run ? (
        <ErrorPanel
          error={report.error}
          title="Не удалось загрузить отчёт"
          url={url}
          onRetry={() => void report.refetch()}
        />
      ) : !run ? (
        <SkeletonCards count={3} label="Загрузка отчёта…" />
      ) : (
        <>
          <p class="parser-run-meta">
            <span class={`badge badge-${STATUS_BADGES[run.status]}`} data-testid="import-status">
              {STATUS_LABELS[run.status]}
            </span>{" "}
            {sourceText(run.source)}
            {run.format && ` · ${FORMAT_LABELS[run.format]}`} · {TRIGGER_LABELS[run.trigger]} ·{" "}
            <time dateTime={run.createdAt}>{longDateTime(run.createdAt)}</time>
          </p>
          {run.error && (
            <p class="result-error" data-testid="import-error">
              {run.error}
            </p>
          )}
          <Counts run={run} />
          {run.status === "preview" && run.newBrands && run.newBrands.length > 0 && (
            <p class="notice" data-testid="new-brands">
              Новые марки, которых нет в каталоге (будут созданы): {run.newBrands.join(", ")}
            </p>
          )}
          {run.status === "preview" && run.newBodyTypes && run.newBodyTypes.length > 0 && (
            <p class="notice" data-testid="new-body-types">
              Новые типы кузова, которых нет в каталоге (будут созданы):{" "}
              {newBodyTypesText(run.newBodyTypes)}
            </p>
          )}
          {run.status === "preview" && (
            <div class="form-actions parser-actions">
              <button
                type="button"
                disabled={apply.isPending || discard.isPending}
                onClick={() => setConfirming(true)}
              >
                Применить
              </button>
              <button
                type="button"
                class="secondary outline"
                aria-busy={discard.isPending || undefined}
                disabled={apply.isPending || discard.isPending}
                onClick={() => discard.mutate()}
              >
                Отменить
              </button>
              {!changesAnything(run.counts) && (
                <span class="muted">Каталог уже совпадает с фидом: применять нечего.</span>
              )}
            </div>
          )}
          {run.status === "applied" && <Photos run={run} pending={pending} />}
          <RunLists run={run} />
          <ConfirmDialog
            open={confirming}
            title="Применить импорт?"
            message={applySummary(run.counts)}
            confirmLabel="Применить"
            destructive={run.counts.gone > 0}
            busy={apply.isPending}
            onConfirm={() => apply.mutate()}
            onCancel={() => setConfirming(false)}
          />
        </>
      )}
    </section>
  );
}

function Counts({ run }: { run: ImportRun }) {
  const applied = run.status === "applied";
  return (
    <dl class="stat-cards parser-counts" data-testid="import-counts">
      {COUNT_LABELS.map(({ key, label }) => (
        <div key={key} class="parser-count" data-testid={`count-${key}`}>
          <dt class="stat-note">{applied ? APPLIED_COUNT_LABELS[key] : label}</dt>
          <dd class="stat-value">{run.counts[key] ?? 0}</dd>
        </div>
      ))}
    </dl>
  );
}

function Photos({ run, pending }: { run: ImportRun; pending: boolean }) {
  const { total, done, failed } = run.photos;
  return (
    <div class="parser-photos" data-testid="import-photos">
      <p role="status">
        {photoText(run.photos)}
        {pending && " · загрузка продолжается…"}
      </p>
      {total > 0 && <progress max={total} value={done + failed} aria-label="Загрузка фото" />}
      {run.photoErrors.length > 0 && (
        <details open data-testid="photo-errors">
          <summary>Фото с ошибками ({run.photoErrors.length})</summary>
          <p class="muted">Эти фото будут загружены снова при следующем импорте.</p>
          <ShowMore
            items={run.photoErrors}
            label="фото с ошибками"
            render={(p) => (
              <>
                <strong>{p.carTitle}</strong>: {p.error}
                <br />
                <small class="muted parser-url">{p.url}</small>
              </>
            )}
          />
        </details>
      )}
      {failed > 0 && run.photoErrors.length === 0 && <p class="muted">Фото с ошибками: {failed}</p>}
    </div>
  );
}

function RunLists({ run }: { run: ImportRun }) {
  return (
    <div class="parser-lists">
      <ListSection id="new" title="Новые автомобили" items={run.new} open>
        {(c) => (
          <>
            <strong>{c.title}</strong> · {formatPrice(c.price)} ·{" "}
            {CAR_STATUS_LABELS[c.status] ?? c.status}
            <br />
            <small class="muted">
              {c.externalId ? `ID в фиде: ${c.externalId}` : ""}
              {c.externalId && c.vin ? " · " : ""}
              {c.vin ? `VIN: ${c.vin}` : ""}
            </small>
          </>
        )}
      </ListSection>
      <ListSection id="changed" title="Изменятся" items={run.changed} open>
        {(c) => (
          <>
            <strong>{c.title}</strong>
            <ul class="parser-changes">
              {c.changes.map((ch) => (
                <li key={ch.field} data-testid="change">
                  {ch.label}: <del>{changeValue(ch.field, ch.old)}</del>{" "}
                  <span aria-hidden="true">→</span>
                  <span class="visually-hidden">, станет</span>{" "}
                  <ins>{changeValue(ch.field, ch.new)}</ins>
                </li>
              ))}
            </ul>
          </>
        )}
      </ListSection>
      <ListSection id="gone" title="Снимутся с публикации" items={run.gone} open>
        {(c) => (
          <>
            <strong>{c.title}</strong>
            {(c.externalId || c.vin) && (
              <small class="muted">
                {" "}
                · {c.externalId ? `ID в фиде: ${c.externalId}` : `VIN: ${c.vin}`}
              </small>
            )}
          </>
        )}
      </ListSection>
      <ListSection id="errors" title="Строки с ошибками" items={run.errors} open>
        {(e) => rowErrorText(e)}
      </ListSection>
      {/* Cars that load, with fields the feed does not state: one item a car. */}
      <ListSection
        id="warnings"
        title="Предупреждения"
        items={groupWarnings(run.warnings ?? [])}
        open
      >
        {(c) => (
          <>
            <strong>{c.title}</strong> <small class="muted">· {rowPlace(c.row, c.line)}</small>
            <ul class="parser-changes">
              {c.warnings.map((w) => (
                <li key={`${w.field}:${w.message}`} data-testid="warning">
                  {w.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </ListSection>
      <ListSection id="unchanged" title="Без изменений" items={run.unchanged}>
        {(c) => c.title}
      </ListSection>
    </div>
  );
}

/** One list of the report, collapsible, a page at a time. Empty lists are
 * left out. */
function ListSection<T>({
  id,
  title,
  items,
  open,
  children,
}: {
  id: string;
  title: string;
  items: readonly T[];
  open?: boolean;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <details open={open} class="parser-list" data-testid={`list-${id}`}>
      <summary>
        {title} ({items.length})
      </summary>
      <ShowMore items={items} label={title.toLowerCase()} render={children} />
    </details>
  );
}

/** The first LIST_PAGE items and a button for the next ones. */
function ShowMore<T>({
  items,
  label,
  render,
}: {
  items: readonly T[];
  label: string;
  render: (item: T) => ReactNode;
}) {
  const [shown, setShown] = useState(LIST_PAGE);
  const list = useRef<HTMLUListElement>(null);
  const rest = items.length - shown;
  return (
    <>
      <ul class="parser-items" ref={list}>
        {items.slice(0, shown).map((item, i) => (
          // The lists are read-only and never reordered: the index is a key.
          <li key={i} tabIndex={i >= LIST_PAGE ? -1 : undefined}>
            {render(item)}
          </li>
        ))}
      </ul>
      {rest > 0 && (
        <button
          type="button"
          class="secondary outline"
          onClick={() => {
            const first = shown;
            setShown(shown + LIST_PAGE);
            // Focus goes to the first of the new items.
            setTimeout(
              () => (list.current?.children[first] as HTMLElement | undefined)?.focus(),
              0,
            );
          }}
        >
          Показать ещё {Math.min(rest, LIST_PAGE)} (осталось {rest}) — {label}
        </button>
      )}
    </>
  );
}

// ---- the schedule -------------------------------------------------------------

interface ScheduleForm {
  feedUrl: string;
  interval: string;
  custom: string;
}

function Schedule() {
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

function History({ current, onOpen }: { current: string | null; onOpen: (id: RunId) => void }) {
  const runs = useAdminQuery<ImportRuns>(IMPORTS_URL);
  return (
    <section class="admin-section" aria-labelledby="parser-history-title" data-testid="history">
      <h2 id="parser-history-title">История запусков</h2>
      {runs.isError && !runs.data ? (
        <ErrorPanel
          error={runs.error}
          title="Не удалось загрузить историю"
          url={IMPORTS_URL}
          onRetry={() => void runs.refetch()}
        />
      ) : !runs.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : runs.data.items.length === 0 ? (
        <p class="empty-state">Импортов ещё не было</p>
      ) : (
        <ul class="parser-runs">
          {runs.data.items.map((r) => {
            const here = current === String(r.id);
            return (
              <li key={r.id} data-testid="run" aria-current={here ? "true" : undefined}>
                <div class="parser-run-head">
                  <span class={`badge badge-${STATUS_BADGES[r.status]}`}>
                    {STATUS_LABELS[r.status]}
                  </span>
                  <time dateTime={r.createdAt}>{shortDateTime(r.createdAt)}</time>
                  <span>{TRIGGER_LABELS[r.trigger]}</span>
                  <span class="parser-url">{sourceText(r.source)}</span>
                </div>
                <p class="parser-run-counts">
                  {COUNT_LABELS.map(({ key, label }) => `${label}: ${r.counts[key] ?? 0}`).join(
                    " · ",
                  )}
                  {r.status === "applied" && r.photos.total > 0 && ` · ${photoText(r.photos)}`}
                </p>
                {r.error && <p class="result-error">{r.error}</p>}
                <button
                  type="button"
                  class="secondary outline"
                  disabled={here}
                  aria-label={`${here ? "Отчёт открыт" : "Открыть отчёт"}: ${shortDateTime(r.createdAt)}, ${sourceText(r.source)}`}
                  onClick={() => onOpen(r.id)}
                >
                  {here ? "Отчёт открыт" : "Открыть отчёт"}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

// ---- export feeds -------------------------------------------------------------

function ExportFeeds() {
  const settings = useAdminQuery<ParserSettings>(PARSER_SETTINGS_URL);
  const feeds = settings.data ? feedLinks(settings.data, window.location.origin) : null;
  return (
    <section class="admin-section" aria-labelledby="parser-export-title" data-testid="feeds">
      <h2 id="parser-export-title">Выгрузка на площадки</h2>
      <p>
        Сайт сам публикует опубликованные автомобили в форматах площадок; фиды обновляются при
        каждом изменении каталога. Вставьте ссылку в кабинет площадки один раз.
      </p>
      {!feeds ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <ul class="parser-feeds">
          {feeds.map((f) => (
            <li key={f.url}>
              <FeedRow name={f.name} url={f.url} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FeedRow({ name, url }: { name: string; url: string }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard API (an http address): the old way, from the field.
      input.current?.select();
      document.execCommand("copy");
    }
    toastSuccess(`Адрес фида ${name} скопирован`);
  };
  return (
    <Field label={`Фид для ${name}`} hint={feedHint(name)}>
      {(a) => (
        <div class="inline-row parser-feed">
          <input {...a} ref={input} readOnly value={url} data-testid="feed-link" />
          <button
            type="button"
            class="secondary"
            aria-label={`Копировать адрес фида для ${name}`}
            onClick={() => void copy()}
          >
            Копировать
          </button>
        </div>
      )}
    </Field>
  );
}
