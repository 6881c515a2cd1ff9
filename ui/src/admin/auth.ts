/** The admin session as the panel sees it. The session itself is the
 * server's HttpOnly cookie: nothing about it is stored in the browser.
 *
 * - `checking`: asking `GET /api/admin/me` on start;
 * - `out`: no session, the login screen instead of the panel;
 * - `in`: working;
 * - `expired`: a request answered 401 while working: the login screen is
 *   drawn over the current screen, which stays mounted (an open form keeps
 *   what was typed) and is there again after logging in.
 *
 * With the user come their name, role and its capabilities (`Me`): screens
 * show only what the role may do; the server checks every request anyway.
 * Signed in with a one-time password (`mustChangePassword`), the panel
 * shows only the form that changes it. */
import { useSyncExternalStore } from "react";
import type { Capability, Me, Role } from "../api/types";

export type AuthState = "checking" | "out" | "in" | "expired";

export interface AuthSnapshot {
  state: AuthState;
  /** The account's id (leads assigned to it carry it). */
  id: string | null;
  username: string | null;
  /** The person's name ('' when not given). */
  name: string | null;
  role: Role | null;
  capabilities: readonly Capability[];
  /** Signed in with a one-time password: it must be changed first. */
  mustChangePassword: boolean;
}

/** Who signed in: what `/api/admin/me` and the login answer (the name and
 * the one-time password's flag may be missing from an older server). */
export type SignedInUser = Pick<Me, "username" | "role" | "capabilities"> &
  Partial<Pick<Me, "id" | "name" | "mustChangePassword">>;

const NOBODY = {
  id: null,
  username: null,
  name: null,
  role: null,
  capabilities: [],
  mustChangePassword: false,
} as const;

let snapshot: AuthSnapshot = { state: "checking", ...NOBODY };
const listeners = new Set<() => void>();

function sameCapabilities(a: readonly Capability[], b: readonly Capability[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

function set(next: AuthSnapshot): void {
  if (
    next.state === snapshot.state &&
    next.id === snapshot.id &&
    next.username === snapshot.username &&
    next.name === snapshot.name &&
    next.role === snapshot.role &&
    next.mustChangePassword === snapshot.mustChangePassword &&
    sameCapabilities(next.capabilities, snapshot.capabilities)
  )
    return;
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
export function signedIn(me: SignedInUser): void {
  set({
    state: "in",
    id: me.id ?? null,
    username: me.username,
    name: me.name ?? "",
    role: me.role ?? null,
    // An answer without them (an older server) may do nothing.
    capabilities: [...(me.capabilities ?? [])],
    mustChangePassword: me.mustChangePassword === true,
  });
}

/** The server refused the session: while working it has expired (who it
 * was stays, so the screen under the login stays as it was); before (or
 * after logging out) there is simply none. */
export function sessionRefused(): void {
  if (snapshot.state === "in" || snapshot.state === "expired") {
    set({ ...snapshot, state: "expired" });
  } else {
    set({ state: "out", ...NOBODY });
  }
}

/** Logged out on purpose. */
export function signedOut(): void {
  set({ state: "out", ...NOBODY });
}

/** Back to the start (tests). */
export function resetAuth(): void {
  snapshot = { state: "checking", ...NOBODY };
  for (const listener of listeners) listener();
}

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(subscribeAuth, authSnapshot, authSnapshot);
}

/** Whether the signed-in user's role has `capability` (false when nobody
 * is signed in). */
export function can(capability: Capability, from: AuthSnapshot = snapshot): boolean {
  return (
    from.state !== "checking" && from.state !== "out" && from.capabilities.includes(capability)
  );
}

/** `can` for components: redrawn when the session changes. */
export function useCan(capability: Capability): boolean {
  return can(capability, useAuth());
}
