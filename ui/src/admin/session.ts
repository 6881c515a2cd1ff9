/** Logging in and out against the server's session endpoints. */
import { ApiError, apiGet, apiPost, NETWORK_FAILED, NetworkError } from "../api/client";
import type { Me } from "../api/types";
import { sessionRefused, signedIn, signedOut } from "./auth";
import { queryClient } from "./query";

export const ME = "/api/admin/me";
export const LOGIN = "/api/admin/login";
export const LOGOUT = "/api/admin/logout";
export const WRONG_CREDENTIALS = "Неверный логин или пароль";

/** On start: is there a session? */
export async function checkSession(): Promise<void> {
  try {
    const me = await apiGet<Me>(ME, { fresh: true });
    signedIn(me);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) sessionRefused();
    else throw e;
  }
}

/** What the login form says when the server refuses: wrong credentials, the
 * lockout (the server's own words), or no connection. */
export function loginFailure(error: unknown): string {
  if (error instanceof NetworkError) return NETWORK_FAILED;
  if (error instanceof ApiError) {
    if (error.status === 401) return WRONG_CREDENTIALS;
    if (error.status >= 500) return `Ошибка сервера (${error.status})`;
    return error.message || WRONG_CREDENTIALS;
  }
  return NETWORK_FAILED;
}

/** Opens a session; the answers of the current screen are asked again. */
export async function logIn(login: string, password: string): Promise<void> {
  const me = await apiPost<Me>(LOGIN, { login, password }, { invalidate: ["/api/admin"] });
  signedIn(me);
  void queryClient.invalidateQueries();
}

/** Closes the session and forgets what only an admin could read. */
export async function logOut(): Promise<void> {
  try {
    await apiPost(LOGOUT, undefined, { invalidate: ["/api/admin"] });
  } catch (e) {
    // Already gone is as good as closed.
    if (!(e instanceof ApiError && e.status === 401)) throw e;
  }
  queryClient.clear();
  signedOut();
}
