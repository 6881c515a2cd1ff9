/** A run's report on the parser screen: its feed, its counts, for a
 * preview the condition chosen for all its cars (compared again), apply
 * and discard, then the photos' progress and the lists (parser-lists.tsx). */
import { useEffect, useRef, useState } from "react";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import { longDateTime } from "../lib/dates";
import {
  APPLIED_COUNT_LABELS,
  applySummary,
  applyUrl,
  COUNT_LABELS,
  changesAnything,
  FORMAT_LABELS,
  IMPORTS_URL,
  type ImportRun,
  importUrl,
  newBodyTypesText,
  photosPending,
  type RunId,
  STATUS_BADGES,
  STATUS_LABELS,
  sourceText,
  TRIGGER_LABELS,
} from "../lib/parser";
import { conditionBody, conditionUrl, PREVIEW_CONDITIONS, runFeedText } from "../lib/parser-feeds";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import "./content.css";
import "./parser.css";
import { Photos, RunLists } from "./parser-lists";

/** How often the report asks for the photos' progress. */
const PHOTO_POLL_MS = 1000;

export function RunReport({ id, onClose }: { id: RunId; onClose: () => void }) {
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
  const [recomparing, setRecomparing] = useState(false);

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
            <strong data-testid="import-feed">{runFeedText(run)}</strong> · {sourceText(run.source)}
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
            <PreviewCondition run={run} busy={apply.isPending} onChange={setRecomparing} />
          )}
          {run.status === "preview" && (
            <div class="form-actions parser-actions">
              <button
                type="button"
                disabled={apply.isPending || discard.isPending || recomparing}
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

/** «Состояние всех машин предпросмотра»: the preview compared again with
 * every car new, used or lease (or back to the feed's own rules). */
function PreviewCondition({
  run,
  busy,
  onChange,
}: {
  run: ImportRun;
  busy: boolean;
  onChange: (pending: boolean) => void;
}) {
  const url = importUrl(run.id);
  const [said, setSaid] = useState("");
  const change = useAdminMutation(
    (value: string) => apiPut<ImportRun>(conditionUrl(run.id), conditionBody(value)),
    {
      failure: "Не удалось пересчитать предпросмотр",
      onSuccess: (r, value) => {
        queryClient.setQueryData([url], r);
        const label = PREVIEW_CONDITIONS.find((c) => c.value === value)?.label ?? "";
        setSaid(`Предпросмотр пересчитан: ${label.toLowerCase()}`);
      },
    },
  );
  useEffect(() => onChange(change.isPending), [change.isPending, onChange]);
  return (
    <div class="parser-condition">
      <Field
        label="Состояние всех машин предпросмотра"
        hint="Если фид не говорит правду о состоянии, выберите его для всех машин этой загрузки: предпросмотр пересчитается до применения."
      >
        {(a) => (
          <select
            {...a}
            value={run.condition ?? ""}
            disabled={busy || change.isPending}
            aria-busy={change.isPending || undefined}
            onChange={(e) => {
              setSaid("");
              change.mutate(e.currentTarget.value);
            }}
            data-testid="preview-condition"
          >
            {PREVIEW_CONDITIONS.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p role="status" class="muted" data-testid="preview-condition-status">
        {change.isPending ? "Пересчитываем предпросмотр…" : said}
      </p>
    </div>
  );
}
