import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, isAbort, upload } from "../../api/client";
import type { Uploaded } from "../../api/types";
import { isUnauthorized } from "../errors";
import { toastError } from "../toast";
import { percent, UPLOAD_FAILED, UPLOAD_FAILED_TITLE } from "../uploads";

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
 * загрузки' toast (the server's words when it gave a reason). */
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
      const urls: string[] = [];
      let failure: unknown = null;
      for (const r of results) {
        if (r.status === "fulfilled") urls.push(r.value);
        else if (!isAbort(r.reason) && !isUnauthorized(r.reason)) failure = r.reason;
      }
      if (failure) {
        const reason =
          failure instanceof ApiError && failure.status < 500 && failure.status !== 404
            ? failure.message
            : UPLOAD_FAILED;
        toastError(reason, UPLOAD_FAILED_TITLE);
      }
      return urls;
    },
    [kind],
  );

  const cancelAll = useCallback(() => {
    for (const c of controllers.current) c.abort();
  }, []);

  return { pending, send, cancelAll };
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
