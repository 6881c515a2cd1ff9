/** What an admin is told when a request fails. */
import { ApiError, isAbort, NETWORK_FAILED, NetworkError } from "../api/client";

/** The session is gone: the login gate takes over, no toast is needed. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** Failures nobody needs to hear about: a cancelled request, an expired
 * session (the login screen says it). */
export function isSilent(error: unknown): boolean {
  return isAbort(error) || isUnauthorized(error);
}

/** The server's own words for a refusal (4xx: they are written for people),
 * the network message when there was no answer, otherwise the screen's
 * fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return NETWORK_FAILED;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) {
    return error.message;
  }
  return fallback;
}

/** The form field a refusal names, when the form has it. */
export function serverField(error: unknown, fields?: readonly string[]): string | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  if (error.status !== 422 && error.status !== 409 && error.status !== 400) return null;
  if (fields && !fields.includes(error.field)) return null;
  return error.field;
}
