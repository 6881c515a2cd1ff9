/** The amoCRM integration: not configured (the setup steps), configured but
 * not authorised, or authorised (account, token expiry); the authorisation
 * (amoCRM's page in a popup, then the code pasted here) and the connection
 * test (docs/notifications.md). */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { SkeletonCards } from "../components/SkeletonCards";
import { longDateTime } from "../lib/dates";
import {
  AMOCRM_AUTH_URL_URL,
  AMOCRM_CALLBACK_URL,
  AMOCRM_KEYS,
  AMOCRM_STATE_BADGES,
  AMOCRM_STATE_LABELS,
  AMOCRM_STATUS_URL,
  AMOCRM_TEST_URL,
  type AmoCrmStatus,
  type AuthUrl,
  amoCrmState,
  amoTestView,
  type CallbackResult,
  codeFromAddress,
  redirectUriFor,
  type TestResult,
} from "../lib/notifications";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

export default function AmoCrmScreen() {
  const status = useAdminQuery<AmoCrmStatus>(AMOCRM_STATUS_URL);
  return (
    <AdminPage title="Интеграция с amoCRM">
      {status.data ? (
        <Integration status={status.data} />
      ) : status.isError ? (
        <ErrorPanel
          error={status.error}
          title="Не удалось загрузить состояние интеграции"
          url={AMOCRM_STATUS_URL}
          onRetry={() => void status.refetch()}
        />
      ) : (
        <SkeletonCards count={2} label="Загрузка…" />
      )}
    </AdminPage>
  );
}

function Integration({ status }: { status: AmoCrmStatus }) {
  const state = amoCrmState(status);
  return (
    <>
      <section aria-labelledby="amocrm-state-title" data-testid="amocrm-status">
        <h2 id="amocrm-state-title">
          Состояние:{" "}
          <span class={`badge badge-${AMOCRM_STATE_BADGES[state]}`} data-testid="amocrm-state">
            {AMOCRM_STATE_LABELS[state]}
          </span>
        </h2>
        {state === "unconfigured" ? (
          <p>
            Заявки в amoCRM не отправляются: в настройках сервера не заданы данные интеграции.
            Выполните шаги ниже.
          </p>
        ) : (
          <dl class="detail-list">
            <dt>Домен аккаунта</dt>
            <dd>{status.domain}</dd>
            <dt>ID интеграции</dt>
            <dd>{status.clientId}</dd>
            <dt>Адрес перенаправления</dt>
            <dd>{status.redirectUri}</dd>
            <dt>Токен доступа</dt>
            <dd data-testid="amocrm-expiry">
              {status.expiresAt
                ? `действует до ${longDateTime(status.expiresAt)} (обновляется автоматически)`
                : "не получен: авторизуйте интеграцию"}
            </dd>
          </dl>
        )}
        {state === "unauthorized" && (
          <p class="notice">
            Интеграция настроена, но не авторизована: заявки ждут в очереди и уйдут в amoCRM сразу
            после авторизации.
          </p>
        )}
      </section>
      {state === "unconfigured" ? (
        <SetupSteps />
      ) : (
        <>
          <Authorize authorized={state === "authorized"} />
          <ConnectionTest />
          <details class="admin-section">
            <summary>Как настроить интеграцию</summary>
            <SetupSteps nested />
          </details>
        </>
      )}
    </>
  );
}

/** What a new owner does once: the integration in amoCRM, its keys on the
 * server, a restart, then the authorisation here. */
function SetupSteps({ nested }: { nested?: boolean }) {
  const redirect = redirectUriFor(window.location.origin);
  const body = (
    <ol class="setup-steps">
      <li>
        В amoCRM откройте «Настройки» → «Интеграции» → «Создать интеграцию» (внешняя интеграция).
        Адрес перенаправления (Redirect URI) укажите такой: <code>{redirect}</code>. Разрешите
        доступ ко всем данным аккаунта.
      </li>
      <li>
        На вкладке «Ключи и доступы» созданной интеграции скопируйте ID интеграции и секретный ключ.
      </li>
      <li>
        Впишите их в раздел <code>[amocrm]</code> файла <code>dealership.toml</code> (или задайте
        переменными окружения):
        <pre data-testid="amocrm-config">
          {[
            "[amocrm]",
            'domain = "mysalon.amocrm.ru"',
            'client_id = "…"',
            'client_secret = "…"',
            `redirect_uri = "${redirect}"`,
          ].join("\n")}
        </pre>
        <ul>
          {AMOCRM_KEYS.map((k) => (
            <li key={k.key}>
              <code>{k.key}</code> (<code>{k.env}</code>): {k.what}
            </li>
          ))}
        </ul>
      </li>
      <li>Перезапустите сервер и откройте эту страницу снова.</li>
      <li>
        Нажмите «Открыть окно авторизации», войдите в amoCRM и разрешите доступ. amoCRM вернёт окно
        на адрес перенаправления с кодом (<code>?code=…</code>); вставьте код или весь адрес в поле
        «Код авторизации». Токены хранятся в базе данных сервера и обновляются сами: ни перезапуск,
        ни правка окружения больше не нужны.
      </li>
    </ol>
  );
  if (nested) return body;
  return (
    <section class="admin-section" aria-labelledby="amocrm-setup-title" data-testid="amocrm-setup">
      <h2 id="amocrm-setup-title">Как подключить amoCRM</h2>
      {body}
    </section>
  );
}

interface CodeForm {
  code: string;
}

/** The popup with amoCRM's consent page, and the code pasted back. */
function Authorize({ authorized }: { authorized: boolean }) {
  const authUrl = useAdminQuery<AuthUrl>(AMOCRM_AUTH_URL_URL, { refetchOnWindowFocus: false });
  const url = authUrl.data?.authUrl ?? null;
  // Back from amoCRM on this very screen (the redirect URI): the code is in the address.
  const returned = codeFromAddress(window.location.search);
  const [result, setResult] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CodeForm>({ defaultValues: { code: returned ?? "" } });
  const send = useAdminMutation(
    (v: CodeForm) => apiPost<CallbackResult>(AMOCRM_CALLBACK_URL, { code: v.code.trim() }),
    {
      onSuccess: (answer) => setResult(answer.message),
      onFailure: (e) =>
        applyServerError(setError, e, { fallback: "Не удалось авторизоваться", fields: ["code"] }),
    },
  );
  const openPopup = () => {
    if (!url) return;
    const left = Math.max(0, window.screenX + (window.outerWidth - 640) / 2);
    window.open(url, "amocrm-auth", `popup,width=640,height=720,left=${left},top=80`);
  };

  return (
    <section
      class="admin-section"
      aria-labelledby="amocrm-auth-title"
      data-testid="amocrm-authorize"
    >
      <h2 id="amocrm-auth-title">{authorized ? "Повторная авторизация" : "Авторизация"}</h2>
      <p>
        Откройте окно amoCRM, разрешите доступ, затем вставьте код из адреса, на который вас
        перенаправит amoCRM.
      </p>
      <p>
        <button
          type="button"
          class="secondary"
          disabled={!url}
          aria-busy={authUrl.isPending || undefined}
          onClick={openPopup}
        >
          Открыть окно авторизации
        </button>
      </p>
      {url && (
        <p>
          <small>
            Если окно не открылось,{" "}
            <a href={url} target="_blank" rel="noopener noreferrer">
              откройте страницу авторизации amoCRM в новой вкладке
            </a>
            .
          </small>
        </p>
      )}
      <form
        noValidate
        onSubmit={handleSubmit((v) => {
          setResult(null);
          send.mutate(v);
        })}
      >
        <Field
          label="Код авторизации"
          required
          error={errors.code}
          hint={
            returned
              ? "Код получен из адреса этой страницы: нажмите «Авторизовать»"
              : "Код из адреса перенаправления (?code=…) или весь адрес целиком"
          }
        >
          {(a) => (
            <input
              {...a}
              autoComplete="off"
              spellcheck={false}
              {...register("code", {
                validate: (v) => v.trim() !== "" || "Вставьте код авторизации",
                onChange: () => setResult(null),
              })}
            />
          )}
        </Field>
        {result && (
          <p class="result-ok" role="status" data-testid="amocrm-auth-result">
            {result}
          </p>
        )}
        <button type="submit" aria-busy={send.isPending || undefined} disabled={send.isPending}>
          Авторизовать
        </button>
      </form>
    </section>
  );
}

/** Checks the account and makes a test deal; shows what came of it. */
function ConnectionTest() {
  const [result, setResult] = useState<TestResult | null>(null);
  const test = useAdminMutation(() => apiPost<TestResult>(AMOCRM_TEST_URL), {
    failure: "Не удалось проверить подключение",
    onSuccess: setResult,
  });
  const view = result && amoTestView(result);
  return (
    <section class="admin-section" aria-labelledby="amocrm-test-title" data-testid="amocrm-test">
      <h2 id="amocrm-test-title">Проверка подключения</h2>
      <p>Проверяет доступ к аккаунту и создаёт в amoCRM тестовую сделку.</p>
      <button
        type="button"
        class="secondary"
        aria-busy={test.isPending || undefined}
        disabled={test.isPending}
        onClick={() => {
          setResult(null);
          test.mutate();
        }}
      >
        Проверить подключение
      </button>
      <div role="status" data-testid="amocrm-test-result">
        {view && (
          <p class={view.ok ? "result-ok" : "result-error"}>
            <strong>{view.title}</strong>
            {view.detail && `: ${view.detail}`}
          </p>
        )}
      </div>
    </section>
  );
}
