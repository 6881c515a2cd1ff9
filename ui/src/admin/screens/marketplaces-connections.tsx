/** «Площадки»: each marketplace's connection (docs/marketplaces.md, "Jobs
 * and checks"): not configured — what to put in dealership.toml; configured
 * — its jobs' last runs, «Проверить подключение» (the answer in a status
 * region) and «Обновить данные» (a sync started in the background). */
import { useState } from "react";
import { apiPost } from "../../api/client";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import {
  type CheckAnswer,
  CONFIG_TEXT,
  CONNECTIONS_URL,
  checkUrl,
  JOB_NAMES,
  MARKET_NAMES,
  type MarketConnection,
  runLine,
  type SyncStarted,
  syncUrl,
} from "../lib/connections";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

export default function MarketplacesScreen() {
  const list = useAdminQuery<MarketConnection[]>(CONNECTIONS_URL);
  return (
    <AdminPage title="Площадки">
      {list.data ? (
        list.data.map((c) => <Market key={c.channel} connection={c} />)
      ) : list.isError ? (
        <ErrorPanel
          error={list.error}
          title="Не удалось загрузить состояние площадок"
          url={CONNECTIONS_URL}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <SkeletonCards count={2} label="Загрузка…" />
      )}
    </AdminPage>
  );
}

function Market({ connection: c }: { connection: MarketConnection }) {
  const name = MARKET_NAMES[c.channel];
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const failed = (e: unknown, fallback: string) =>
    setAnswer({ ok: false, text: errorMessage(e, fallback) });
  const check = useAdminMutation(() => apiPost<CheckAnswer>(checkUrl(c.channel)), {
    onSuccess: (a) => setAnswer({ ok: a.ok, text: a.message }),
    onFailure: (e) => failed(e, "Не удалось проверить подключение"),
  });
  const sync = useAdminMutation(() => apiPost<SyncStarted>(syncUrl(c.channel)), {
    onSuccess: (a) => setAnswer({ ok: true, text: a.message }),
    onFailure: (e) => failed(e, "Не удалось запустить обновление"),
  });
  const id = `market-${c.channel}`;
  return (
    <section class="admin-section" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{name}</h2>
      {!c.configured ? (
        <>
          <p>
            Не настроено. Впишите раздел в файл <code>dealership.toml</code> (секреты — в файлах с
            правами 600) и перезапустите сервер:
          </p>
          <pre data-testid={`${id}-config`}>{CONFIG_TEXT[c.channel]}</pre>
        </>
      ) : (
        <>
          {c.error && <p class="result-error">{c.error}</p>}
          {c.runs.length === 0 ? (
            <p>Запусков ещё не было.</p>
          ) : (
            <dl class="detail-list">
              {c.runs.map((run) => (
                <div key={run.job}>
                  <dt>{JOB_NAMES[run.job]}</dt>
                  <dd>{runLine(run)}</dd>
                </div>
              ))}
            </dl>
          )}
          <p>
            <button
              type="button"
              class="secondary"
              aria-busy={check.isPending || undefined}
              disabled={check.isPending}
              onClick={() => {
                setAnswer(null);
                check.mutate();
              }}
            >
              Проверить подключение
            </button>{" "}
            <button
              type="button"
              class="secondary"
              aria-busy={sync.isPending || undefined}
              disabled={sync.isPending || c.busy}
              onClick={() => {
                setAnswer(null);
                sync.mutate();
              }}
            >
              Обновить данные
            </button>
          </p>
        </>
      )}
      <div role="status" data-testid={`${id}-result`}>
        {answer && <p class={answer.ok ? "result-ok" : "result-error"}>{answer.text}</p>}
      </div>
    </section>
  );
}
