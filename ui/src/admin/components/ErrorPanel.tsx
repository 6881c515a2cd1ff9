import { ApiError, NetworkError } from "../../api/client";

interface Props {
  error: unknown;
  /** What failed to load, e.g. 'Не удалось загрузить автомобили'. */
  title?: string;
  /** The URL asked for (when the error does not carry it). */
  url?: string;
  /** Asks again; by default the page is reloaded. */
  onRetry?: () => void;
}

/** Everything an admin (or whoever they call) needs about a failed load:
 * the message, the HTTP status, the URL, the full error and a reload button. */
export function ErrorPanel({ error, title = "Не удалось загрузить данные", url, onRetry }: Props) {
  const status = error instanceof ApiError ? error.status : null;
  const where =
    error instanceof ApiError || error instanceof NetworkError ? error.url : (url ?? null);
  const message = error instanceof Error ? error.message : String(error);
  const full = error instanceof Error ? `${error.name}: ${error.message}${stack(error)}` : message;
  return (
    <article class="error-panel" data-testid="error-panel">
      <div role="alert">
        <h2>{title}</h2>
        <p>{message}</p>
      </div>
      <dl>
        <dt>Сообщение</dt>
        <dd>{message}</dd>
        <dt>Статус</dt>
        <dd>{status ?? "нет ответа"}</dd>
        {where && (
          <>
            <dt>URL</dt>
            <dd>
              <code>{where}</code>
            </dd>
          </>
        )}
      </dl>
      <details>
        <summary>Полный текст ошибки</summary>
        <pre>{full}</pre>
      </details>
      <button type="button" onClick={onRetry ?? (() => location.reload())}>
        Обновить
      </button>
    </article>
  );
}

function stack(error: Error): string {
  return error.stack ? `\n${error.stack}` : "";
}
