/** The inventory parser: a feed (an address or a file) checked first as a
 * preview (new, changed field by field, unchanged, gone, rows it cannot
 * use), then applied or dropped; the photos' progress after an apply; the
 * schedule; the runs so far, each opening its report; the addresses of the
 * site's own feeds for the marketplaces. `/admin/parser?run={id}` opens that
 * run's report (the dashboard's failed-import card links there). The rules:
 * docs/admin.md. */
import { useRef } from "react";
import { useLocation, useSearch } from "wouter";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { shortDateTime } from "../lib/dates";
import {
  COUNT_LABELS,
  feedHint,
  feedLinks,
  IMPORTS_URL,
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
import { queryClient, useAdminQuery } from "../query";
import { toastSuccess } from "../toast";
import "./content.css";
import "./parser.css";
import { ImportForm } from "./parser-import";
import { RunReport } from "./parser-report";
import { Schedule } from "./parser-schedule";

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
