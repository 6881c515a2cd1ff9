/** The inventory parser: the dealer's feeds (each an address or a file,
 * with its own schedule, condition and place in the order), a feed's run
 * checked first as a preview (new, changed field by field, unchanged,
 * leaving, gone, rows it cannot use), then applied or dropped; the photos'
 * progress after an apply; a one-off import; the runs so far, all or one
 * feed's, each opening its report; the addresses of the site's own feeds
 * for the marketplaces and the cars they leave out (parser-left-out.tsx).
 * `/admin/parser?run={id}` opens that run's report
 * (the dashboard's failed-import card links there). The rules:
 * docs/admin.md. */
import { useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { shortDateTime } from "../lib/dates";
import {
  COUNT_LABELS,
  feedHint,
  feedLinks,
  type ImportRun,
  type ImportRuns,
  importReportHref,
  importUrl,
  PARSER_SETTINGS_URL,
  type ParserSettings,
  photoText,
  type RunId,
  STATUS_BADGES,
  STATUS_LABELS,
  sourceText,
  TRIGGER_LABELS,
} from "../lib/parser";
import { FEEDS_URL, historyUrl, runFeedText } from "../lib/parser-feeds";
import type { FeedList } from "../lib/parser-types";
import { queryClient, useAdminQuery } from "../query";
import { toastSuccess } from "../toast";
import "./content.css";
import "./parser.css";
import { FeedsCard } from "./parser-feeds";
import { ImportForm } from "./parser-import";
import { LeftOutCars, LeftOutCounts } from "./parser-left-out";
import { RunReport } from "./parser-report";

export default function ParserScreen() {
  const run = new URLSearchParams(useSearch()).get("run")?.trim() || null;
  const [, navigate] = useLocation();
  const open = (id: RunId | null) => navigate(id === null ? "/parser" : importReportHref(id));
  const preview = (r: ImportRun) => {
    queryClient.setQueryData([importUrl(r.id)], r);
    open(r.id);
  };
  return (
    <AdminPage title="Парсер автомобилей">
      <p>
        Загрузка автомобилей из фидов дилерской системы или площадок (XML Авто.ру, XML Avito или
        CSV). Каждый запуск сначала проверяется: ничего не меняется, пока вы не примените результат.
      </p>
      <FeedsCard onPreview={preview} />
      {run && <RunReport key={run} id={run} onClose={() => open(null)} />}
      <ImportForm onPreview={preview} />
      <History current={run} onOpen={open} />
      <ExportFeeds />
      <LeftOutCars />
    </AdminPage>
  );
}

// ---- history ------------------------------------------------------------------

function History({ current, onOpen }: { current: string | null; onOpen: (id: RunId) => void }) {
  const [feedId, setFeedId] = useState<string | null>(null);
  const feeds = useAdminQuery<FeedList>(FEEDS_URL);
  const url = historyUrl(feedId);
  const runs = useAdminQuery<ImportRuns>(url);
  return (
    <section class="admin-section" aria-labelledby="parser-history-title" data-testid="history">
      <h2 id="parser-history-title">История запусков</h2>
      <Field label="Фид">
        {(a) => (
          <select
            {...a}
            value={feedId ?? ""}
            onChange={(e) => setFeedId(e.currentTarget.value || null)}
            data-testid="history-feed"
          >
            <option value="">Все фиды</option>
            {(feeds.data?.items ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {runs.isError && !runs.data ? (
        <ErrorPanel
          error={runs.error}
          title="Не удалось загрузить историю"
          url={url}
          onRetry={() => void runs.refetch()}
        />
      ) : !runs.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : runs.data.items.length === 0 ? (
        <p class="empty-state">
          {feedId ? "У этого фида запусков ещё не было" : "Импортов ещё не было"}
        </p>
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
                  <strong data-testid="run-feed">{runFeedText(r)}</strong>
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
                  aria-label={`${here ? "Отчёт открыт" : "Открыть отчёт"}: ${shortDateTime(r.createdAt)}, ${runFeedText(r)}, ${sourceText(r.source)}`}
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
      <LeftOutCounts />
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
