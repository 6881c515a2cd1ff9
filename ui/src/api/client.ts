/** The one API client: GET through a small cache (primed with the data the
 * server embedded in the page, concurrent calls sharing one request), POST,
 * PUT, DELETE and uploads with progress. Writes carry the admin session's
 * CSRF token and drop the cached GETs they change. A server's error answer
 * (`{"error", "field"}`) becomes an ApiError; no answer at all, a
 * NetworkError. */

/** The server answered with an error status. */
export class ApiError extends Error {
  readonly status: number;
  /** The request field at fault, when the server names one. */
  readonly field: string | null;
  readonly url: string;

  constructor(status: number, message: string, field: string | null, url: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.field = field;
    this.url = url;
  }
}

/** No answer: offline, the server down, the connection cut. */
export class NetworkError extends Error {
  readonly url: string;

  constructor(url: string, cause?: unknown) {
    super(NETWORK_FAILED, { cause });
    this.name = "NetworkError";
    this.url = url;
  }
}

export const NETWORK_FAILED = "Не удалось подключиться к серверу";
export const NOT_FOUND = "Не найдено";
export const CSRF_HEADER = "X-CSRF-Token";
export const UPLOAD = "/api/objects/upload";
const LOGIN = "/api/admin/login";
const LOGOUT = "/api/admin/logout";
const ME = "/api/admin/me";

/** Whether a request was cancelled by its AbortSignal. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

function aborted(): DOMException {
  return new DOMException("Запрос отменён", "AbortError");
}

// ---- cache ----------------------------------------------------------------

/** How long an answer counts as fresh in the client cache. */
export const FRESH_MS = 5 * 60 * 1000;

interface Entry {
  data: unknown;
  at: number;
}

const cache = new Map<string, Entry>();
/** GETs on their way; an invalidation removes them, so their answers are not cached. */
const inflight = new Map<string, Promise<unknown>>();

/** Fills the cache from the page's embedded JSON; null marks a known 404. */
export function primeCache(data: Record<string, unknown>): void {
  const now = Date.now();
  for (const [url, value] of Object.entries(data)) cache.set(url, { data: value, at: now });
}

/** Fills the cache with answers read when first asked for (the server's
 * drawing parses a page's answers only if the page reads them:
 * src/server/render.tsx). The browser never calls it, and its bundle
 * leaves it out. */
export function primeLazily(answers: Map<string, () => unknown>): void {
  const now = Date.now();
  for (const [url, read] of answers) {
    let data: unknown;
    let done = false;
    cache.set(url, {
      at: now,
      get data() {
        if (!done) {
          data = read();
          done = true;
        }
        return data;
      },
    });
  }
}

/** A fresh cached answer: undefined when absent; throws for a known 404. */
export function cached<T>(url: string): T | undefined {
  const entry = cache.get(url);
  if (!entry || Date.now() - entry.at > FRESH_MS) return undefined;
  if (entry.data === null) throw new ApiError(404, NOT_FOUND, null, url);
  return entry.data as T;
}

/** Whether `url` is `prefix` itself or lies under it (a path below, or a query). */
function under(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charAt(prefix.length);
  return next === "" || next === "/" || next === "?" || prefix.endsWith("/");
}

/** Drops the cached GETs under any of the prefixes (and ignores the answers of
 * those still running). */
export function invalidate(...prefixes: string[]): void {
  for (const url of [...cache.keys()]) {
    if (prefixes.some((p) => under(url, p))) cache.delete(url);
  }
  for (const url of [...inflight.keys()]) {
    if (prefixes.some((p) => under(url, p))) inflight.delete(url);
  }
}

/** What a write to `url` changes by default: its collection, public and admin
 * (`/api/cars/7` → `/api/cars`, `/api/admin/cars`). */
export function affectedBy(url: string): string[] {
  const path = url.split("?")[0];
  const parts = path.split("/").filter(Boolean);
  if (parts[0] !== "api" || parts.length < 2) return [path];
  const resource = parts[1] === "admin" ? parts[2] : parts[1];
  if (!resource) return [path];
  return [`/api/${resource}`, `/api/admin/${resource}`];
}

/** Forgets every cached answer and the CSRF token. */
export function resetClient(): void {
  cache.clear();
  inflight.clear();
  csrfToken = null;
}

// ---- CSRF -----------------------------------------------------------------

/** The admin session's token, held in memory only (never in storage). */
let csrfToken: string | null = null;

export function csrf(): string | null {
  return csrfToken;
}

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The login and /api/admin/me answers carry the session's token; logging
 * out forgets it and what only an admin could read. */
function remember(url: string, method: string, body: unknown): void {
  const path = url.split("?")[0];
  if (path === LOGOUT && method === "POST") {
    csrfToken = null;
    invalidate("/api/admin");
  }
  if ((path === LOGIN && method === "POST") || (path === ME && method === "GET")) {
    const token = (body as { csrfToken?: unknown } | null)?.csrfToken;
    if (typeof token === "string") csrfToken = token;
  }
}

// ---- requests ---------------------------------------------------------------

/** Our error JSON, or the status when the answer is something else. */
function errorFrom(status: number, text: string, url: string): ApiError {
  let message = `Ошибка HTTP ${status}`;
  let field: string | null = null;
  try {
    const body = JSON.parse(text) as { error?: unknown; field?: unknown };
    if (typeof body.error === "string" && body.error) message = body.error;
    if (typeof body.field === "string") field = body.field;
  } catch {
    // not our JSON: keep the status
  }
  if (status === 404 && message === `Ошибка HTTP ${status}`) message = NOT_FOUND;
  return new ApiError(status, message, field, url);
}

function parseBody(text: string): unknown {
  return text ? JSON.parse(text) : undefined;
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

async function request<T>(
  method: string,
  url: string,
  body: BodyInit | undefined,
  options: RequestOptions & { contentType?: string },
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.contentType) headers["Content-Type"] = options.contentType;
  if (method !== "GET" && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers,
      body,
      signal: options.signal,
    });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new NetworkError(url, e);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new NetworkError(url, e);
  }
  if (!response.ok) throw errorFrom(response.status, text, url);
  const data = parseBody(text) as T;
  remember(url, method, data);
  return data;
}

export interface GetOptions {
  /** Skips the cached answer (admin lists must never be stale); the new
   * answer is still cached and concurrent calls still share a request. */
  fresh?: boolean;
}

/** GET through the cache; concurrent calls for one URL share a request. */
export function apiGet<T>(url: string, options: GetOptions = {}): Promise<T> {
  if (!options.fresh) {
    try {
      const hit = cached<T>(url);
      if (hit !== undefined) return Promise.resolve(hit);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  const running = inflight.get(url);
  if (running) return running as Promise<T>;
  // Still current when it ends: not invalidated (nor replaced) meanwhile.
  const current = () => inflight.get(url) === promise;
  const promise: Promise<T> = request<T>("GET", url, undefined, {})
    .then((data) => {
      if (current()) cache.set(url, { data, at: Date.now() });
      return data;
    })
    .catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404 && current()) {
        cache.set(url, { data: null, at: Date.now() });
      }
      throw e;
    })
    .finally(() => {
      if (current()) inflight.delete(url);
    });
  inflight.set(url, promise);
  return promise;
}

export interface WriteOptions extends RequestOptions {
  /** URL prefixes whose cached GETs the write changes; by default the written
   * collection's (see `affectedBy`). */
  invalidate?: string[];
}

async function write<T>(
  method: string,
  url: string,
  body: BodyInit | undefined,
  contentType: string | undefined,
  options: WriteOptions,
): Promise<T> {
  const data = await request<T>(method, url, body, { ...options, contentType });
  invalidate(...(options.invalidate ?? affectedBy(url)));
  return data;
}

const json = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));
const jsonType = (body: unknown) => (body === undefined ? undefined : "application/json");

export function apiPost<T>(url: string, body?: unknown, options: WriteOptions = {}): Promise<T> {
  return write<T>("POST", url, json(body), jsonType(body), options);
}

export function apiPut<T>(url: string, body?: unknown, options: WriteOptions = {}): Promise<T> {
  return write<T>("PUT", url, json(body), jsonType(body), options);
}

export function apiDelete<T = undefined>(url: string, options: WriteOptions = {}): Promise<T> {
  return write<T>("DELETE", url, undefined, undefined, options);
}

// ---- upload -----------------------------------------------------------------

export interface UploadProgress {
  loaded: number;
  /** 0 when the browser cannot tell. */
  total: number;
}

export interface UploadOptions {
  /** `favicon` keeps the file as sent; pictures get their WebP variants. */
  kind?: "image" | "favicon";
  /** Another endpoint taking a multipart `file` (an import feed); `kind` is
   * then ignored. */
  url?: string;
  /** Text parts sent before the file (an import's `feedId`). */
  fields?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Sends one file as multipart/form-data (field `file`) to the upload
 * endpoint (or `options.url`), reporting the bytes sent. XMLHttpRequest,
 * because fetch has no upload progress. */
export function upload<T>(file: Blob, options: UploadOptions = {}): Promise<T> {
  const url = options.url ?? (options.kind === "favicon" ? `${UPLOAD}?kind=favicon` : UPLOAD);
  return new Promise<T>((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    if (csrfToken) xhr.setRequestHeader(CSRF_HEADER, csrfToken);
    if (onProgress) {
      xhr.upload.addEventListener("progress", (e) =>
        onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 }),
      );
    }
    xhr.addEventListener("load", () => {
      done();
      const text = xhr.responseText;
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFrom(xhr.status, text, url));
        return;
      }
      try {
        resolve(parseBody(text) as T);
      } catch (e) {
        reject(e);
      }
    });
    xhr.addEventListener("error", () => {
      done();
      reject(new NetworkError(url));
    });
    xhr.addEventListener("abort", () => {
      done();
      reject(aborted());
    });
    signal?.addEventListener("abort", onAbort);
    const form = new FormData();
    for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
    form.append("file", file);
    xhr.send(form);
  });
}
