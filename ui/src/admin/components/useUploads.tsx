import { useCallback, useEffect, useRef, useState } from "react";
import type { FieldError } from "react-hook-form";
import { upload } from "../../api/client";
import type { Uploaded } from "../../api/types";
import { dismissToast, toastError } from "../toast";
import { fieldMessage, percent, UPLOAD_FAILED_TITLE, uploadOutcome } from "../uploads";

/** One file on its way to the server. */
export interface Pending {
  id: number;
  name: string;
  /** 0..100 */
  progress: number;
}

let nextId = 1;

/** Sends files with a progress bar each (XMLHttpRequest upload events),
 * cancelled when the widget goes away. Resolves with the URLs of the files
 * that arrived, in the order given; a failure is said in an 'Ошибка
 * загрузки' toast (the server's words when it gave a reason), which a later
 * upload that arrives whole takes away. */
export function useUploads(
  kind: "image" | "favicon" = "image",
  onBusyChange?: (b: boolean) => void,
) {
  const [pending, setPending] = useState<Pending[]>([]);
  const controllers = useRef(new Set<AbortController>());
  const busyRef = useRef(onBusyChange);
  busyRef.current = onBusyChange;

  useEffect(() => {
    const all = controllers.current;
    return () => {
      for (const c of all) c.abort();
    };
  }, []);

  useEffect(() => {
    busyRef.current?.(pending.length > 0);
  }, [pending.length]);

  const send = useCallback(
    async (files: File[]): Promise<string[]> => {
      const jobs = files.map((file) => ({ file, id: nextId++, controller: new AbortController() }));
      setPending((p) => [...p, ...jobs.map((j) => ({ id: j.id, name: j.file.name, progress: 0 }))]);
      const results = await Promise.allSettled(
        jobs.map(async (job) => {
          controllers.current.add(job.controller);
          try {
            const answer = await upload<Uploaded>(job.file, {
              kind,
              signal: job.controller.signal,
              onProgress: ({ loaded, total }) =>
                setPending((p) =>
                  p.map((x) => (x.id === job.id ? { ...x, progress: percent(loaded, total) } : x)),
                ),
            });
            return answer.url;
          } finally {
            controllers.current.delete(job.controller);
            setPending((p) => p.filter((x) => x.id !== job.id));
          }
        }),
      );
      const { urls, failure } = uploadOutcome(results);
      if (failure) toastError(failure, UPLOAD_FAILED_TITLE);
      else if (urls.length > 0) dismissToast(UPLOAD_FAILED_TITLE);
      return urls;
    },
    [kind],
  );

  const cancelAll = useCallback(() => {
    for (const c of controllers.current) c.abort();
  }, []);

  return { pending, send, cancelAll };
}

/** The form's message of an upload field (`error`), hidden once a picture
 * arrives after it (`answer()`: the message spoke of the picture before)
 * until the form says something new. */
export function useFieldError(error: FieldError | string | null | undefined) {
  const [answered, setAnswered] = useState<FieldError | string | null | undefined>(undefined);
  const latest = useRef(error);
  latest.current = error;
  useEffect(() => {
    setAnswered((a) => (a === error ? a : undefined));
  }, [error]);
  const answer = useCallback(() => setAnswered(latest.current), []);
  const message = fieldMessage(error, answered, (e) => (typeof e === "string" ? e : e.message));
  return { message, answer };
}

/** A labelled bar of one upload. */
export function UploadBar({ item }: { item: Pending }) {
  return (
    <div class="upload-bar" data-testid="upload-progress">
      <span>{item.name}</span>
      <progress max={100} value={item.progress} aria-label={`Загрузка ${item.name}`}>
        {item.progress}%
      </progress>
    </div>
  );
}
