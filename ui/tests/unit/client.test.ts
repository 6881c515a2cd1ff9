import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  affectedBy,
  apiDelete,
  apiGet,
  apiPost,
  apiPut,
  CSRF_HEADER,
  cached,
  csrf,
  FRESH_MS,
  invalidate,
  isAbort,
  NetworkError,
  primeCache,
  primeLazily,
  resetClient,
  setCsrfToken,
  upload,
} from "../../src/api/client";

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

let calls: Call[];
/** The next answers of the fake fetch, in order; a function may hold one back. */
let answers: (() => Promise<Response>)[];

function json(status: number, body: unknown): () => Promise<Response> {
  return () =>
    Promise.resolve(
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      }),
    );
}

function text(status: number, body: string): () => Promise<Response> {
  return () => Promise.resolve(new Response(status === 204 ? null : body, { status }));
}

/** An answer the test releases later. */
function held(): { answer: () => Promise<Response>; release: (r: Response) => void } {
  let release: (r: Response) => void = () => {};
  const promise = new Promise<Response>((ok) => {
    release = ok;
  });
  return { answer: () => promise, release };
}

/** The error a promise fails with. */
function failure<E = ApiError>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as E,
  );
}

beforeEach(() => {
  resetClient();
  calls = [];
  answers = [];
  vi.stubGlobal("fetch", (url: string, init: RequestInit = {}) => {
    calls.push({
      url,
      method: init.method ?? "GET",
      headers: (init.headers ?? {}) as Record<string, string>,
      body: init.body,
    });
    const next = answers.shift();
    if (!next) return Promise.reject(new TypeError("no answer prepared"));
    return next();
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("GET and its cache", () => {
  it("answers from the page's embedded data without a request", async () => {
    primeCache({ "/api/settings": { salonName: "Автосалон" } });
    expect(await apiGet("/api/settings")).toEqual({ salonName: "Автосалон" });
    expect(calls).toHaveLength(0);
  });

  it("reads a lazily primed answer once, when it is first asked for", async () => {
    const read: string[] = [];
    primeLazily(
      new Map<string, () => unknown>([
        [
          "/api/settings",
          () => {
            read.push("settings");
            return { salonName: "Автосалон" };
          },
        ],
        [
          "/api/cars/slug/nope",
          () => {
            read.push("nope");
            return null;
          },
        ],
      ]),
    );
    expect(read).toEqual([]);
    expect(cached("/api/settings")).toEqual({ salonName: "Автосалон" });
    expect(await apiGet("/api/settings")).toEqual({ salonName: "Автосалон" });
    expect(read).toEqual(["settings"]);
    expect(() => cached("/api/cars/slug/nope")).toThrow("Не найдено");
    expect(read).toEqual(["settings", "nope"]);
    expect(calls).toHaveLength(0);
  });

  it("turns an embedded null into a known 404, in Russian", async () => {
    primeCache({ "/api/cars/slug/nope": null });
    expect(() => cached("/api/cars/slug/nope")).toThrow("Не найдено");
    const error = await failure(apiGet("/api/cars/slug/nope"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.message).toBe("Не найдено");
    expect(calls).toHaveLength(0);
  });

  it("shares one request between concurrent calls and caches the answer", async () => {
    const h = held();
    answers.push(h.answer);
    const a = apiGet("/api/brands/fast");
    const b = apiGet("/api/brands/fast");
    h.release(new Response(JSON.stringify([{ id: "b1" }]), { status: 200 }));
    expect(await a).toEqual([{ id: "b1" }]);
    expect(await b).toEqual([{ id: "b1" }]);
    expect(await apiGet("/api/brands/fast")).toEqual([{ id: "b1" }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: "GET", headers: { Accept: "application/json" } });
    expect(calls[0].headers[CSRF_HEADER]).toBeUndefined();
  });

  it("asks again once an answer is stale, or when told to", async () => {
    vi.useFakeTimers();
    answers.push(json(200, 1), json(200, 2), json(200, 3));
    expect(await apiGet("/api/x")).toBe(1);
    vi.advanceTimersByTime(FRESH_MS + 1);
    expect(await apiGet("/api/x")).toBe(2);
    expect(await apiGet("/api/x", { fresh: true })).toBe(3);
    expect(await apiGet("/api/x")).toBe(3);
    expect(calls).toHaveLength(3);
  });

  it("remembers a 404 answer as a known 404", async () => {
    answers.push(json(404, { error: "Автомобиль не найден" }));
    const error = await failure(apiGet("/api/cars/slug/gone"));
    expect(error.message).toBe("Автомобиль не найден");
    await expect(apiGet("/api/cars/slug/gone")).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it("does not cache other failures", async () => {
    answers.push(text(503, "busy"), json(200, "ok"));
    await expect(apiGet("/api/y")).rejects.toBeInstanceOf(ApiError);
    expect(await apiGet("/api/y")).toBe("ok");
  });
});

describe("errors", () => {
  it("reads our error JSON: status, message and field", async () => {
    answers.push(json(422, { error: "Введите логин и пароль", field: "login" }));
    const error = await failure(apiPost("/api/admin/login", { login: "" }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: "Введите логин и пароль",
      field: "login",
      url: "/api/admin/login",
    });
  });

  it("keeps the status when the answer is not our JSON", async () => {
    answers.push(text(502, "<html>Bad gateway</html>"), text(404, ""));
    await expect(apiGet("/api/a")).rejects.toMatchObject({
      status: 502,
      message: "Ошибка HTTP 502",
      field: null,
    });
    await expect(apiGet("/api/b")).rejects.toMatchObject({ status: 404, message: "Не найдено" });
  });

  it("makes no answer a NetworkError of its own", async () => {
    answers.push(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure<NetworkError>(apiGet("/api/settings"));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toBe("Не удалось подключиться к серверу");
    expect(error.url).toBe("/api/settings");
  });

  it("lets a cancelled request be told apart", async () => {
    answers.push(() => Promise.reject(new DOMException("aborted", "AbortError")));
    const error = await failure(apiPost("/api/leads", {}));
    expect(isAbort(error)).toBe(true);
    expect(isAbort(new Error("x"))).toBe(false);
  });
});

describe("writes", () => {
  it("sends JSON with POST and PUT, and nothing with DELETE", async () => {
    answers.push(json(201, { id: "c1" }), json(200, { id: "c1" }), text(204, ""));
    expect(await apiPost("/api/cars", { name: "Jolion" })).toEqual({ id: "c1" });
    expect(await apiPut("/api/cars/c1", { name: "F7" })).toEqual({ id: "c1" });
    expect(await apiDelete("/api/cars/c1")).toBeUndefined();
    expect(calls.map((c) => c.method)).toEqual(["POST", "PUT", "DELETE"]);
    expect(calls[0].body).toBe('{"name":"Jolion"}');
    expect(calls[0].headers["Content-Type"]).toBe("application/json");
    expect(calls[2].body).toBeUndefined();
    expect(calls[2].headers["Content-Type"]).toBeUndefined();
  });

  it("drops the cached GETs a write changes, and only those", async () => {
    primeCache({
      "/api/cars/fast?status=new&limit=20&offset=0": [],
      "/api/cars/count?status=new": { count: 0 },
      "/api/admin/cars": [],
      "/api/carsharing": "kept",
      "/api/brands/fast": [],
    });
    answers.push(json(200, {}));
    await apiPut("/api/cars/c1", {});
    expect(cached("/api/cars/fast?status=new&limit=20&offset=0")).toBeUndefined();
    expect(cached("/api/cars/count?status=new")).toBeUndefined();
    expect(cached("/api/admin/cars")).toBeUndefined();
    expect(cached("/api/carsharing")).toBe("kept");
    expect(cached("/api/brands/fast")).toEqual([]);
  });

  it("takes the prefixes a write changes when told", async () => {
    primeCache({ "/api/brands/fast": [], "/api/cars/fast?limit=12": [], "/api/settings": {} });
    answers.push(json(200, {}));
    await apiPut("/api/brands/b1", {}, { invalidate: ["/api/brands", "/api/cars"] });
    expect(cached("/api/brands/fast")).toBeUndefined();
    expect(cached("/api/cars/fast?limit=12")).toBeUndefined();
    expect(cached("/api/settings")).toEqual({});
  });

  it("keeps a failed write from dropping anything", async () => {
    primeCache({ "/api/cars/fast?limit=12": [] });
    answers.push(json(422, { error: "Неверная цена", field: "price" }));
    await expect(apiPut("/api/cars/c1", {})).rejects.toMatchObject({ field: "price" });
    expect(cached("/api/cars/fast?limit=12")).toEqual([]);
  });

  it("does not cache a GET answer that was on its way when its URL was dropped", async () => {
    const h = held();
    answers.push(h.answer);
    const old = apiGet("/api/reviews?approved=true");
    invalidate("/api/reviews");
    h.release(new Response("[1]", { status: 200 }));
    expect(await old).toEqual([1]);
    expect(cached("/api/reviews?approved=true")).toBeUndefined();
  });

  it("knows what a write changes by default", () => {
    expect(affectedBy("/api/cars/c1")).toEqual(["/api/cars", "/api/admin/cars"]);
    expect(affectedBy("/api/admin/reviews/r1?x=1")).toEqual(["/api/reviews", "/api/admin/reviews"]);
    expect(affectedBy("/api/settings")).toEqual(["/api/settings", "/api/admin/settings"]);
  });
});

describe("CSRF token", () => {
  it("comes from the login answer and goes on every write, not on reads", async () => {
    answers.push(json(200, { username: "admin", csrfToken: "t1" }), json(200, []), json(200, {}));
    await apiPost("/api/admin/login", { login: "admin", password: "x" });
    expect(csrf()).toBe("t1");
    await apiGet("/api/admin/cars");
    await apiPut("/api/cars/c1", {});
    expect(calls[1].headers[CSRF_HEADER]).toBeUndefined();
    expect(calls[2].headers[CSRF_HEADER]).toBe("t1");
  });

  it("comes from /api/admin/me, and logout forgets it and the admin answers", async () => {
    answers.push(json(200, { username: "admin", csrfToken: "t2" }), text(204, ""));
    primeCache({ "/api/admin/leads?status=new": [], "/api/settings": {} });
    await apiGet("/api/admin/me", { fresh: true });
    expect(csrf()).toBe("t2");
    await apiPost("/api/admin/logout");
    expect(calls[1].headers[CSRF_HEADER]).toBe("t2");
    expect(csrf()).toBeNull();
    expect(cached("/api/admin/leads?status=new")).toBeUndefined();
    expect(cached("/api/settings")).toEqual({});
  });

  it("is not taken from other answers", async () => {
    answers.push(json(200, { csrfToken: "evil" }));
    await apiGet("/api/settings");
    expect(csrf()).toBeNull();
  });
});

/** A stand-in for the browser's XMLHttpRequest. */
class FakeXhr {
  static last: FakeXhr;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = "";
  private listeners: Record<string, (() => void)[]> = {};
  private progressListeners: ((e: ProgressEvent) => void)[] = [];
  upload = {
    addEventListener: (type: string, fn: (e: ProgressEvent) => void) => {
      if (type === "progress") this.progressListeners.push(fn);
    },
  };

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, fn: () => void) {
    this.listeners[type] = [...(this.listeners[type] ?? []), fn];
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.fire("abort");
  }
  // driven by the tests
  fire(type: string) {
    for (const fn of this.listeners[type] ?? []) fn();
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    for (const fn of this.progressListeners) {
      fn({ loaded, total, lengthComputable } as ProgressEvent);
    }
  }
  respond(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.fire("load");
  }
}

describe("upload", () => {
  beforeEach(() => vi.stubGlobal("XMLHttpRequest", FakeXhr));

  it("posts the file as multipart with the CSRF token and reports progress", async () => {
    setCsrfToken("t3");
    const seen: [number, number][] = [];
    const file = new Blob(["png"], { type: "image/png" });
    const done = upload<{ url: string }>(file, {
      onProgress: ({ loaded, total }) => seen.push([loaded, total]),
    });
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/objects/upload");
    expect(xhr.headers[CSRF_HEADER]).toBe("t3");
    expect(xhr.body).toBeInstanceOf(FormData);
    expect((xhr.body as FormData).get("file")).toBeInstanceOf(Blob);
    xhr.progress(1, 3);
    xhr.progress(3, 3);
    xhr.progress(5, 0, false);
    xhr.respond(201, JSON.stringify({ url: "/media/a-800.webp" }));
    expect(await done).toEqual({ url: "/media/a-800.webp" });
    expect(seen).toEqual([
      [1, 3],
      [3, 3],
      [5, 0],
    ]);
  });

  it("sends favicons as such", async () => {
    const done = upload(new Blob(["ico"]), { kind: "favicon" });
    expect(FakeXhr.last.url).toBe("/api/objects/upload?kind=favicon");
    FakeXhr.last.respond(201, "{}");
    await done;
  });

  it("sends to another endpoint when given one", async () => {
    const done = upload(new Blob(["<data/>"]), { url: "/api/admin/imports", kind: "favicon" });
    expect(FakeXhr.last.url).toBe("/api/admin/imports");
    FakeXhr.last.respond(200, JSON.stringify({ id: 1 }));
    expect(await done).toEqual({ id: 1 });
  });

  it("fails with our error, or with a NetworkError", async () => {
    const refused = upload(new Blob(["x"]));
    FakeXhr.last.respond(413, JSON.stringify({ error: "Файл больше 5 МБ", field: "file" }));
    await expect(refused).rejects.toMatchObject({
      status: 413,
      message: "Файл больше 5 МБ",
      field: "file",
    });
    const cut = upload(new Blob(["x"]));
    FakeXhr.last.fire("error");
    await expect(cut).rejects.toBeInstanceOf(NetworkError);
  });

  it("stops when its signal aborts, even before it starts", async () => {
    const controller = new AbortController();
    const running = upload(new Blob(["x"]), { signal: controller.signal });
    controller.abort();
    expect(isAbort(await failure(running))).toBe(true);
    const late = upload(new Blob(["x"]), { signal: controller.signal });
    expect(isAbort(await failure(late))).toBe(true);
  });
});
