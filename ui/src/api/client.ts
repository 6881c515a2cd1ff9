/** The one fetch client: JSON in and out, our error JSON turned into an
 * ApiError, and a small cache primed with the data the server embedded. */

export class ApiError extends Error {
  readonly status: number;
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

/** How long an answer counts as fresh in the client cache. */
const FRESH_MS = 5 * 60 * 1000;

interface Entry {
  data: unknown;
  at: number;
}

const cache = new Map<string, Entry>();
const inflight = new Map<string, Promise<unknown>>();

/** Fills the cache from the page's embedded JSON; null marks a known 404. */
export function primeCache(data: Record<string, unknown>): void {
  const now = Date.now();
  for (const [url, value] of Object.entries(data)) cache.set(url, { data: value, at: now });
}

/** A fresh cached answer: undefined when absent; throws for a known 404. */
export function cached<T>(url: string): T | undefined {
  const entry = cache.get(url);
  if (!entry || Date.now() - entry.at > FRESH_MS) return undefined;
  if (entry.data === null) throw new ApiError(404, "Not found", null, url);
  return entry.data as T;
}

async function readError(response: Response, url: string): Promise<ApiError> {
  let message = `HTTP ${response.status}`;
  let field: string | null = null;
  try {
    const body = (await response.json()) as { error?: string; field?: string | null };
    if (body.error) message = body.error;
    field = body.field ?? null;
  } catch {
    // not our JSON: keep the status text
  }
  return new ApiError(response.status, message, field, url);
}

async function request<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, {
    credentials: "same-origin",
    ...init,
    headers: { Accept: "application/json", ...(init?.headers ?? {}) },
  });
  if (!response.ok) throw await readError(response, url);
  return (await response.json()) as T;
}

/** GET through the cache; concurrent calls for one URL share a request. */
export function apiGet<T>(url: string): Promise<T> {
  try {
    const hit = cached<T>(url);
    if (hit !== undefined) return Promise.resolve(hit);
  } catch (e) {
    return Promise.reject(e);
  }
  const running = inflight.get(url);
  if (running) return running as Promise<T>;
  const promise = request<T>(url)
    .then((data) => {
      cache.set(url, { data, at: Date.now() });
      return data;
    })
    .catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) cache.set(url, { data: null, at: Date.now() });
      throw e;
    })
    .finally(() => inflight.delete(url));
  inflight.set(url, promise);
  return promise;
}

export function apiPost<T>(url: string, body: unknown): Promise<T> {
  return request<T>(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
