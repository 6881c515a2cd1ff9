/** A run's report on the parser screen: its counts, the photos' progress,
 * the lists (new, changed field by field, gone, errors, warnings), apply
 * and discard. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { apiDelete, apiPost } from "../../api/client";
import { formatPrice } from "../../lib/format";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import { longDateTime } from "../lib/dates";
import {
  APPLIED_COUNT_LABELS,
  applySummary,
  applyUrl,
  CAR_STATUS_LABELS,
  COUNT_LABELS,
  changesAnything,
  changeValue,
  FORMAT_LABELS,
  groupWarnings,
  IMPORTS_URL,
  type ImportRun,
  importUrl,
  LIST_PAGE,
  newBodyTypesText,
  photosPending,
  photoText,
  type RunId,
  rowErrorText,
  rowPlace,
  STATUS_BADGES,
  STATUS_LABELS,
  sourceText,
  TRIGGER_LABELS,
} from "../lib/parser";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import "./content.css";
import "./parser.css";

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
