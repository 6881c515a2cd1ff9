import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  authSnapshot,
  resetAuth,
  sessionRefused,
  signedIn,
  signedOut,
  subscribeAuth,
} from "../../src/admin/auth";
import { applyServerError } from "../../src/admin/components/applyServerError";
import { errorMessage, isSilent, serverField } from "../../src/admin/errors";
import { shouldRetry } from "../../src/admin/query";
import { loginFailure, WRONG_CREDENTIALS } from "../../src/admin/session";
import { connectToasts } from "../../src/admin/toast";
import { ApiError, NETWORK_FAILED, NetworkError } from "../../src/api/client";
import type { Me } from "../../src/api/types";
import type { ToastMessage } from "../../src/components/ui/Toast";

const ADMIN: Me = {
  id: "u-admin",
  username: "admin",
  name: "Анна",
  role: "owner",
  capabilities: ["staff", "leads"],
  mustChangePassword: false,
};

describe("the login gate's states", () => {
  beforeEach(() => resetAuth());

  it("goes to the login screen when there is no session at start", () => {
    expect(authSnapshot().state).toBe("checking");
    sessionRefused();
    expect(authSnapshot()).toEqual({
      state: "out",
      id: null,
      username: null,
      name: null,
      role: null,
      capabilities: [],
      mustChangePassword: false,
    });
  });

  it("keeps the screen under the login when a session expires while working", () => {
    signedIn(ADMIN);
    const seen: string[] = [];
    const off = subscribeAuth(() => seen.push(authSnapshot().state));
    sessionRefused();
    expect(authSnapshot()).toEqual({
      state: "expired",
      id: ADMIN.id,
      username: "admin",
      name: "Анна",
      role: "owner",
      capabilities: ["staff", "leads"],
      mustChangePassword: false,
    });
    sessionRefused();
    signedIn(ADMIN);
    expect(seen).toEqual(["expired", "in"]);
    off();
  });

  it("a one-time password holds the panel until the session says it was changed", () => {
    signedIn({ ...ADMIN, mustChangePassword: true });
    expect(authSnapshot().mustChangePassword).toBe(true);
    const seen: boolean[] = [];
    const off = subscribeAuth(() => seen.push(authSnapshot().mustChangePassword));
    signedIn({ ...ADMIN, mustChangePassword: true });
    signedIn(ADMIN);
    expect(seen).toEqual([false]);
    expect(authSnapshot().state).toBe("in");
    off();
  });

  it("an answer without a name or the flag (an older server) counts as neither", () => {
    signedIn({ username: "old", role: "viewer", capabilities: ["staff"] });
    expect(authSnapshot()).toMatchObject({ name: "", mustChangePassword: false });
  });

  it("logging out shows the login screen, not the expired one", () => {
    signedIn(ADMIN);
    signedOut();
    sessionRefused();
    expect(authSnapshot().state).toBe("out");
  });
});

describe("what the admin is told", () => {
  it("says the login refusal, the lockout in the server's words, or the lost connection", () => {
    expect(loginFailure(new ApiError(401, "x", null, "/api/admin/login"))).toBe(WRONG_CREDENTIALS);
    const lock = "Слишком много неудачных попыток входа. Попробуйте снова через 15 минут.";
    expect(loginFailure(new ApiError(429, lock, null, "/api/admin/login"))).toBe(lock);
    expect(loginFailure(new NetworkError("/api/admin/login"))).toBe(NETWORK_FAILED);
  });

  it("uses the server's message for refusals and the fallback for server faults", () => {
    expect(errorMessage(new ApiError(409, "Есть автомобили", null, "/x"), "F")).toBe(
      "Есть автомобили",
    );
    expect(errorMessage(new ApiError(500, "panic", null, "/x"), "F")).toBe("F");
    expect(errorMessage(new NetworkError("/x"), "F")).toBe(NETWORK_FAILED);
    expect(errorMessage(new Error("?"), "F")).toBe("F");
  });

  it("keeps quiet about cancelled requests and expired sessions", () => {
    expect(isSilent(new DOMException("x", "AbortError"))).toBe(true);
    expect(isSilent(new ApiError(401, "x", null, "/x"))).toBe(true);
    expect(isSilent(new ApiError(422, "x", "price", "/x"))).toBe(false);
  });

  it("finds the field a refusal names, when the form has it", () => {
    const e = new ApiError(422, "Цена обязательна", "price", "/api/cars");
    expect(serverField(e)).toBe("price");
    expect(serverField(e, ["name"])).toBeNull();
    expect(serverField(new ApiError(500, "x", "price", "/x"))).toBeNull();
  });

  it("retries failed reads up to three times, never a refusal", () => {
    expect(shouldRetry(0, new ApiError(401, "x", null, "/x"))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, "x", null, "/x"))).toBe(false);
    expect(shouldRetry(2, new ApiError(503, "x", null, "/x"))).toBe(true);
    expect(shouldRetry(3, new NetworkError("/x"))).toBe(false);
  });
});

describe("applyServerError", () => {
  const toasts: ToastMessage[] = [];
  beforeEach(() => connectToasts((t) => toasts.push(t)));
  afterEach(() => {
    connectToasts(null);
    toasts.length = 0;
  });

  it("puts a field's refusal next to the field, focused", () => {
    const setError = vi.fn();
    const e = new ApiError(422, "Цена обязательна", "price", "/api/cars");
    expect(applyServerError(setError, e, { fields: ["price"] })).toBe(true);
    expect(setError).toHaveBeenCalledWith(
      "price",
      { type: "server", message: "Цена обязательна" },
      { shouldFocus: true },
    );
    expect(toasts).toEqual([]);
  });

  it("makes any other failure an 'Ошибка' toast", () => {
    const setError = vi.fn();
    applyServerError(setError, new ApiError(500, "panic", null, "/x"), {
      fallback: "Не удалось сохранить автомобиль",
    });
    applyServerError(setError, new ApiError(422, "Плохо", "other", "/x"), { fields: ["price"] });
    expect(setError).not.toHaveBeenCalled();
    expect(toasts).toEqual([
      { title: "Ошибка", description: "Не удалось сохранить автомобиль", variant: "error" },
      { title: "Ошибка", description: "Плохо", variant: "error" },
    ]);
  });

  it("leaves an expired session to the login gate", () => {
    const setError = vi.fn();
    applyServerError(setError, new ApiError(401, "x", null, "/x"));
    expect(setError).not.toHaveBeenCalled();
    expect(toasts).toEqual([]);
  });
});
