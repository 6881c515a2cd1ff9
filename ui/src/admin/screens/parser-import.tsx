/** The parser screen's one-off import: a feed by address or as a file
 * (checked before sending, uploaded with progress), sent for a preview.
 * The server files the run under that address's feed (or the file feed of
 * that name), made when there is none. */
import { useEffect, useRef, useState } from "react";
import { ApiError, apiPost, NetworkError, upload } from "../../api/client";
import { Field } from "../components/Field";
import {
  checkFeedFile,
  checkFeedUrl,
  FEED_ACCEPT,
  IMPORTS_URL,
  type ImportRun,
} from "../lib/parser";
import { FEEDS_URL } from "../lib/parser-feeds";
import { queryClient, useAdminMutation } from "../query";
import { percent } from "../uploads";
import "./content.css";
import "./parser.css";

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
export function refusal(error: unknown): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof ApiError && error.status !== 500 && error.message) return error.message;
  return "Не удалось проверить фид";
}

export function ImportForm({ onPreview }: { onPreview: (run: ImportRun) => void }) {
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
        // The run made (or used) a feed: the feeds card shows it.
        void queryClient.invalidateQueries({ queryKey: [FEEDS_URL] });
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
      <h2 id="parser-source-title">Разовая загрузка</h2>
      <p class="muted">
        Проверить фид по адресу или файлом, не добавляя его заранее: он появится в списке фидов
        (адрес — как фид по адресу, файл — как фид-файл с таким именем).
      </p>
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
