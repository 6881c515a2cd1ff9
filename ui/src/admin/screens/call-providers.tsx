/** «Звонки»: each call-tracking service and PBX (docs/calls.md): not set up
 * — what to put in dealership.toml; set up — its webhook's address, who may
 * post, the last call heard and the last poll, «Проверить подключение» and
 * «Проверить пропущенные звонки» (answers in a status region). */
import { useState } from "react";
import { apiPost } from "../../api/client";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import {
  type CallProvider,
  heardLine,
  PROVIDER_CONFIG,
  PROVIDERS_URL,
  type ProviderAnswer,
  pollLine,
  providerCheckUrl,
  providerPollUrl,
} from "../lib/call-providers";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

export default function CallProvidersScreen() {
  const list = useAdminQuery<CallProvider[]>(PROVIDERS_URL);
  return (
    <AdminPage title="Звонки">
      <p>
        Звонки из сервисов коллтрекинга и АТС приходят в заявки: пропущенный — заявка «Пропущенный
        звонок» со сроком перезвона, принятый с нового номера — «Звонок».
      </p>
      {list.data ? (
        list.data.map((p) => <Provider key={p.state.provider} provider={p} />)
      ) : list.isError ? (
        <ErrorPanel
          error={list.error}
          title="Не удалось загрузить сервисы звонков"
          url={PROVIDERS_URL}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <SkeletonCards count={3} label="Загрузка…" />
      )}
    </AdminPage>
  );
}

function Provider({ provider: p }: { provider: CallProvider }) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const failed = (e: unknown, fallback: string) =>
    setAnswer({ ok: false, text: errorMessage(e, fallback) });
  const check = useAdminMutation(
    () => apiPost<ProviderAnswer>(providerCheckUrl(p.state.provider)),
    {
      onSuccess: (a) => setAnswer({ ok: a.ok, text: a.message }),
      onFailure: (e) => failed(e, "Не удалось проверить подключение"),
    },
  );
  const poll = useAdminMutation(() => apiPost<ProviderAnswer>(providerPollUrl(p.state.provider)), {
    onSuccess: (a) => setAnswer({ ok: a.ok, text: a.message }),
    onFailure: (e) => failed(e, "Не удалось проверить журнал звонков"),
  });
  const id = `calls-${p.state.provider}`;
  const poll_ = pollLine(p.run);
  return (
    <section class="admin-section" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>{p.state.label}</h2>
      {!p.state.apiConfigured && !p.state.hookConfigured ? (
        <>
          <p>
            Не настроено. Впишите раздел в файл <code>dealership.toml</code> (секреты — в файлах с
            правами 600) и перезапустите сервер:
          </p>
          <pre data-testid={`${id}-config`}>{PROVIDER_CONFIG[p.state.provider]}</pre>
        </>
      ) : (
        <>
          {p.state.error && <p class="result-error">{p.state.error}</p>}
          <dl class="detail-list">
            {p.state.hookConfigured && (
              <div>
                <dt>Адрес вебхука</dt>
                <dd>
                  <code>{p.hookUrl}</code> (вместо {"{secret}"} — секрет из файла)
                </dd>
              </div>
            )}
            {p.state.hookConfigured && (
              <div>
                <dt>Принимать от</dt>
                <dd>
                  {p.state.allowFrom.length
                    ? p.state.allowFrom.join(", ")
                    : "любого адреса с секретом"}
                </dd>
              </div>
            )}
            <div>
              <dt>Последний звонок</dt>
              <dd data-testid={`${id}-heard`}>{heardLine(p.run)}</dd>
            </div>
            {poll_ && (
              <div>
                <dt>Опрос журнала</dt>
                <dd>{poll_}</dd>
              </div>
            )}
          </dl>
          {p.state.apiConfigured && (
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
              {p.polled && (
                <button
                  type="button"
                  class="secondary"
                  aria-busy={poll.isPending || undefined}
                  disabled={poll.isPending}
                  onClick={() => {
                    setAnswer(null);
                    poll.mutate();
                  }}
                >
                  Проверить пропущенные звонки
                </button>
              )}
            </p>
          )}
        </>
      )}
      <div role="status" data-testid={`${id}-result`}>
        {answer && <p class={answer.ok ? "result-ok" : "result-error"}>{answer.text}</p>}
      </div>
    </section>
  );
}
