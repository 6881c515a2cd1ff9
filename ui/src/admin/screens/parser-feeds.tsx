/** The parser screen's feeds card: the dealer's feeds in their order (the
 * higher one's values win for a car in two feeds), each with its source,
 * schedule, condition, cars and runs, loaded now (an address) or from a
 * file, changed, deleted (its cars stay as they are) or moved; and the
 * dialog that adds one. docs/admin.md, "The parser screen". */
import { useEffect, useRef, useState } from "react";
import { apiDelete, apiPost, apiPut, upload } from "../../api/client";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { shortDateTime } from "../lib/dates";
import { checkFeedFile, FEED_ACCEPT, IMPORTS_URL, type ImportRun } from "../lib/parser";
import {
  carsText,
  conditionText,
  deleteMessage,
  FEEDS_ORDER_URL,
  FEEDS_URL,
  feedUrl,
  moveFeed,
  ORDER_NOTE,
  scheduleText,
} from "../lib/parser-feeds";
import type { Feed, FeedList } from "../lib/parser-types";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";
import { percent } from "../uploads";
import { FeedDialog } from "./parser-feed-dialog";
import { refusal } from "./parser-import";

type Editing = { feed: Feed | null } | null;

export function FeedsCard({ onPreview }: { onPreview: (run: ImportRun) => void }) {
  const feeds = useAdminQuery<FeedList>(FEEDS_URL);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Feed | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const items = feeds.data?.items ?? [];

  // One move at a time: the next is computed from the order the last gave.
  const ordering = useRef(false);
  const order = useAdminMutation(
    async (ids: string[]) => {
      try {
        return await apiPut<FeedList>(FEEDS_ORDER_URL, { ids }, { invalidate: [] });
      } finally {
        ordering.current = false;
      }
    },
    {
      failure: "Не удалось изменить порядок фидов",
      onSuccess: (list) => queryClient.setQueryData([FEEDS_URL], list),
    },
  );
  const remove = useAdminMutation(
    (feed: Feed) => apiDelete(feedUrl(feed.id), { invalidate: [FEEDS_URL, IMPORTS_URL] }),
    {
      success: "Фид удалён, его машины остались на сайте как были",
      failure: "Не удалось удалить фид",
      onSuccess: () => {
        setDeleting(null);
        setTimeout(() => addButton.current?.focus(), 0);
      },
    },
  );
  const move = (feed: Feed, delta: -1 | 1) => {
    const next = moveFeed(
      items.map((f) => f.id),
      feed.id,
      delta,
    );
    if (!next || ordering.current) return;
    ordering.current = true;
    order.mutate(next, {
      // The moved feed's button keeps the focus (its other one at an edge,
      // where this one is off).
      onSuccess: (list) => {
        const at = list.items.findIndex((f) => f.id === feed.id);
        const edge = delta < 0 ? at === 0 : at === list.items.length - 1;
        const side = delta < 0 !== edge ? "up" : "down";
        setTimeout(() => document.getElementById(`feed-${side}-${feed.id}`)?.focus(), 0);
      },
    });
  };

  return (
    <section class="admin-section" aria-labelledby="parser-feeds-title" data-testid="feeds-card">
      <div class="parser-report-head">
        <h2 id="parser-feeds-title">Фиды</h2>
        <button type="button" ref={addButton} onClick={() => setEditing({ feed: null })}>
          Добавить фид
        </button>
      </div>
      {feeds.isError && !feeds.data ? (
        <ErrorPanel
          error={feeds.error}
          title="Не удалось загрузить фиды"
          url={FEEDS_URL}
          onRetry={() => void feeds.refetch()}
        />
      ) : !feeds.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : items.length === 0 ? (
        <div class="empty-state" data-testid="feeds-empty">
          <p>
            Фид — это список машин из дилерской системы или с площадки (XML Авто.ру, XML Avito или
            CSV): по адресу, который сайт читает сам, или файлом, который вы загружаете. Машины
            каждого фида появляются на сайте после проверки.
          </p>
          <button type="button" class="secondary" onClick={() => setEditing({ feed: null })}>
            Добавить первый фид
          </button>
        </div>
      ) : (
        <>
          {items.length > 1 && <p class="muted">{ORDER_NOTE}</p>}
          <ol class="parser-feed-list">
            {items.map((feed, i) => (
              <FeedItem
                key={feed.id}
                feed={feed}
                first={i === 0}
                last={i === items.length - 1}
                onMove={(d) => move(feed, d)}
                onEdit={() => setEditing({ feed })}
                onDelete={() => setDeleting(feed)}
                onPreview={onPreview}
              />
            ))}
          </ol>
        </>
      )}
      {editing && <FeedDialog feed={editing.feed} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          open
          title={`Удалить фид «${deleting.name}»?`}
          message={deleteMessage(deleting)}
          confirmLabel="Удалить фид"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

interface ItemProps {
  feed: Feed;
  first: boolean;
  last: boolean;
  onMove: (delta: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
  onPreview: (run: ImportRun) => void;
}

function FeedItem({ feed, first, last, onMove, onEdit, onDelete, onPreview }: ItemProps) {
  return (
    <li class="parser-feed-item" data-testid="feed" data-feed-id={feed.id}>
      <h3>{feed.name}</h3>
      <p class="parser-url" data-testid="feed-source">
        {feed.kind === "url" ? feed.source : `Файл: ${feed.source}`}
      </p>
      <ul class="parser-feed-facts">
        <li>{scheduleText(feed)}</li>
        <li>{conditionText(feed.condition)}</li>
        <li data-testid="feed-cars">{carsText(feed.cars)}</li>
        {/* The API's lastRunAt is the last scheduled run; manual runs are in the history. */}
        {feed.kind === "url" && (feed.intervalHours > 0 || feed.lastRunAt) && (
          <li>
            Последний запуск по расписанию:{" "}
            {feed.lastRunAt ? shortDateTime(feed.lastRunAt) : "ещё не было"}
          </li>
        )}
        {feed.kind === "url" && feed.intervalHours > 0 && feed.nextRunAt && (
          <li>Следующий запуск: {shortDateTime(feed.nextRunAt)}</li>
        )}
      </ul>
      <FeedImport feed={feed} onPreview={onPreview} />
      <div class="parser-feed-actions">
        <button
          type="button"
          class="secondary outline"
          aria-label={`Изменить фид «${feed.name}»`}
          onClick={onEdit}
        >
          Изменить
        </button>
        <button
          type="button"
          class="secondary outline"
          aria-label={`Удалить фид «${feed.name}»`}
          onClick={onDelete}
        >
          Удалить
        </button>
        <button
          type="button"
          id={`feed-up-${feed.id}`}
          class="secondary outline"
          aria-label={`Выше: фид «${feed.name}»`}
          disabled={first}
          onClick={() => onMove(-1)}
        >
          Выше
        </button>
        <button
          type="button"
          id={`feed-down-${feed.id}`}
          class="secondary outline"
          aria-label={`Ниже: фид «${feed.name}»`}
          disabled={last}
          onClick={() => onMove(1)}
        >
          Ниже
        </button>
      </div>
    </li>
  );
}

interface ImportVars {
  file: File | null;
  signal: AbortSignal;
}

/** «Загрузить сейчас» (an address) or «Загрузить файл» (a file feed). */
function FeedImport({ feed, onPreview }: { feed: Feed; onPreview: (run: ImportRun) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = useAdminMutation(
    async (v: ImportVars): Promise<ImportRun> => {
      try {
        if (!v.file) {
          return await apiPost<ImportRun>(IMPORTS_URL, { feedId: feed.id }, { signal: v.signal });
        }
        setProgress(0);
        return await upload<ImportRun>(v.file, {
          url: IMPORTS_URL,
          fields: { feedId: feed.id },
          signal: v.signal,
          onProgress: ({ loaded, total }) => setProgress(percent(loaded, total)),
        });
      } finally {
        setProgress(null);
      }
    },
    {
      onSuccess: (r) => {
        void queryClient.invalidateQueries({ queryKey: [FEEDS_URL] });
        void queryClient.invalidateQueries({ queryKey: [IMPORTS_URL] });
        // The feed could not be read: told here; its report stays in the history.
        if (r.status === "failed") setError(r.error || "Не удалось прочитать фид");
        else onPreview(r);
      },
      onFailure: (e) => setError(refusal(e)),
    },
  );
  const start = (file: File | null) => {
    if (run.isPending) return;
    setError(null);
    controller.current = new AbortController();
    run.mutate({ file, signal: controller.current.signal });
  };
  const errorId = `feed-error-${feed.id}`;
  const busy = run.isPending;

  return (
    <div class="parser-feed-import">
      {feed.kind === "url" ? (
        <button
          type="button"
          aria-busy={busy || undefined}
          disabled={busy}
          aria-describedby={error ? errorId : undefined}
          aria-label={`Загрузить сейчас: фид «${feed.name}»`}
          onClick={() => start(null)}
        >
          Загрузить сейчас
        </button>
      ) : (
        <label class="parser-feed-file">
          Загрузить файл<span class="visually-hidden">: фид «{feed.name}»</span>
          <input
            ref={fileInput}
            type="file"
            accept={FEED_ACCEPT}
            disabled={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0] ?? null;
              const problem = checkFeedFile(file);
              if (problem) setError(problem);
              else start(file);
              e.currentTarget.value = "";
            }}
          />
        </label>
      )}
      <div role="status" class="parser-progress">
        {busy &&
          (progress !== null && progress < 100 ? (
            <span>Отправка файла: {progress}%</span>
          ) : (
            <span>Проверка фида «{feed.name}»…</span>
          ))}
      </div>
      {error && (
        <p id={errorId} class="field-error" role="alert" data-testid="feed-error">
          {error}
        </p>
      )}
    </div>
  );
}
