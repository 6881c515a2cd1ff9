/** Staff comments on a lead (docs/leads.md): the API's address, the
 * server's rule for a comment (1 to 2000 characters, trimmed) in its own
 * words, and what adding one sends. */
import type { NewComment } from "../../api/types";

export const commentsUrl = (lead: string) => `/api/leads/${encodeURIComponent(lead)}/comments`;

export const MAX_COMMENT = 2000;

export const COMMENT_MESSAGES = {
  empty: "Напишите комментарий",
  tooLong: `Комментарий: не длиннее ${MAX_COMMENT} символов`,
} as const;

/** The server's check, before sending: something besides spaces, at most
 * 2000 characters (as the server counts them, not UTF-16 units). */
export function checkComment(body: string): true | string {
  const text = body.trim();
  if (text === "") return COMMENT_MESSAGES.empty;
  if ([...text].length > MAX_COMMENT) return COMMENT_MESSAGES.tooLong;
  return true;
}

export function commentInput(body: string): NewComment {
  return { body: body.trim() };
}
