/** The upload rules of the admin widgets, apart from the widgets. */
import { ApiError, isAbort } from "../api/client";

export const MB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 5 * MB;
export const MAX_FAVICON_BYTES = 1 * MB;
export const DEFAULT_MAX_IMAGES = 6;

export const SINGLE_NOT_IMAGE = "Пожалуйста, выберите файл изображения";
export const SINGLE_TOO_BIG = "Размер файла не должен превышать 5MB";
export const UPLOAD_FAILED_TITLE = "Ошибка загрузки";
export const UPLOAD_FAILED = "Не удалось загрузить изображение. Попробуйте еще раз.";

export const notImage = (name: string) => `${name} не является изображением`;
export const tooBig = (name: string) => `${name} превышает 5MB`;
export const tooMany = (max: number) => `Максимум ${max} изображений`;

/** What the file pickers need to know of a file (a File is one). */
export interface PickedFile {
  name: string;
  type: string;
  size: number;
}

/** Whether a file is a picture by its type (or, when the browser gives no
 * type, by its extension). */
export function isImage(
  file: PickedFile,
  extensions: readonly string[] = IMAGE_EXTENSIONS,
): boolean {
  if (file.type) return file.type.startsWith("image/");
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  return extensions.includes(ext);
}

export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "avif", "bmp"] as const;

export interface SingleRules {
  maxBytes?: number;
  notImageMessage?: string;
  tooBigMessage?: string;
  /** Extensions accepted when the browser gives no type. */
  extensions?: readonly string[];
}

/** The single-image widget's check: null when the file may be sent. */
export function checkSingle(file: PickedFile, rules: SingleRules = {}): string | null {
  if (!isImage(file, rules.extensions)) return rules.notImageMessage ?? SINGLE_NOT_IMAGE;
  if (file.size > (rules.maxBytes ?? MAX_IMAGE_BYTES)) return rules.tooBigMessage ?? SINGLE_TOO_BIG;
  return null;
}

/** The multi-image widget's check: which files to send and what to say of
 * the others. Files beyond the free places are refused with 'Максимум {n}
 * изображений'. */
export function checkMany<F extends PickedFile>(
  files: readonly F[],
  already: number,
  max: number = DEFAULT_MAX_IMAGES,
): { accepted: F[]; errors: string[] } {
  const accepted: F[] = [];
  const errors: string[] = [];
  let overflow = false;
  for (const file of files) {
    if (!isImage(file)) errors.push(notImage(file.name));
    else if (file.size > MAX_IMAGE_BYTES) errors.push(tooBig(file.name));
    else if (already + accepted.length >= max) overflow = true;
    else accepted.push(file);
  }
  if (overflow) errors.push(tooMany(max));
  return { accepted, errors };
}

/** Moves one item of a list (reordering pictures). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** 0..100 of a progress event (0 when the total is unknown). */
export function percent(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((loaded / total) * 100));
}

/** What a batch of uploads comes to: the URLs of the files that arrived, in
 * the order given, and what to say of a failure (the server's words for a
 * refusal it explains, 'Не удалось загрузить изображение…' otherwise; none
 * for a cancelled upload or an ended session, which are said elsewhere). */
export function uploadOutcome(results: readonly PromiseSettledResult<string>[]): {
  urls: string[];
  failure: string | null;
} {
  const urls: string[] = [];
  let failure: string | null = null;
  for (const r of results) {
    if (r.status === "fulfilled") {
      urls.push(r.value);
      continue;
    }
    const reason: unknown = r.reason;
    if (isAbort(reason) || (reason instanceof ApiError && reason.status === 401)) continue;
    failure =
      reason instanceof ApiError && reason.status < 500 && reason.status !== 404 && reason.message
        ? reason.message
        : UPLOAD_FAILED;
  }
  return { urls, failure };
}

/** The form's message of an upload field, unless a picture has arrived since
 * the form said it (`answered` is the message a successful upload
 * answered): the message spoke of the picture before. */
export function fieldMessage<E>(
  error: E | null | undefined,
  answered: E | null | undefined,
  text: (error: E) => string | undefined,
): string | null {
  if (error === null || error === undefined) return null;
  if (error === answered) return null;
  return text(error) ?? null;
}
