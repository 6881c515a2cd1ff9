/** The admin session as the panel sees it. The session itself is the
 * server's HttpOnly cookie: nothing about it is stored in the browser.
 *
 * - `checking`: asking `GET /api/admin/me` on start;
 * - `out`: no session, the login screen instead of the panel;
 * - `in`: working;
 * - `expired`: a request answered 401 while working: the login screen is
 *   drawn over the current screen, which stays mounted (an open form keeps
 *   what was typed) and is there again after logging in. */
import { useSyncExternalStore } from "react";

export type AuthState = "checking" | "out" | "in" | "expired";

export interface AuthSnapshot {
  state: AuthState;
  username: string | null;
}

let snapshot: AuthSnapshot = { state: "checking", username: null };
const listeners = new Set<() => void>();

function set(next: AuthSnapshot): void {
  if (next.state === snapshot.state && next.username === snapshot.username) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

export function authSnapshot(): AuthSnapshot {
  return snapshot;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The server accepted the session (me answered, or a login succeeded). */
export function signedIn(username: string): void {
  set({ state: "in", username });
}

/** The server refused the session: while working it has expired; before
 * (or after logging out) there is simply none. */
export function sessionRefused(): void {
  if (snapshot.state === "in" || snapshot.state === "expired") {
    set({ state: "expired", username: snapshot.username });
  } else {
    set({ state: "out", username: null });
  }
}

/** Logged out on purpose. */
export function signedOut(): void {
  set({ state: "out", username: null });
}

/** Back to the start (tests). */
export function resetAuth(): void {
  snapshot = { state: "checking", username: null };
  for (const listener of listeners) listener();
}

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(subscribeAuth, authSnapshot, authSnapshot);
}
