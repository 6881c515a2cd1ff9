/** What a mail's link page (saved-search confirm and unsubscribe, consent
 * withdrawal) says when its token was refused or the request failed. */
import type { ReactNode, RefObject } from "react";
import { ApiError, NetworkError } from "../api/client";
import { LINK_INVALID } from "../lib/savedSearchLink";

export type LinkTrouble =
  | { kind: "invalid"; message: string }
  | { kind: "failed"; message: string; network: boolean };

/** A 404 is a link that does not work (any more); anything else failed. */
export function linkTrouble(error: unknown): LinkTrouble {
  if (error instanceof ApiError && error.status === 404) {
    return { kind: "invalid", message: error.message || LINK_INVALID };
  }
  return {
    kind: "failed",
    message: (error as Error).message,
    network: error instanceof NetworkError,
  };
}

/** A message as a sentence: its own full stop kept, one added otherwise. */
function sentence(message: string): string {
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}

/** The page's heading (focused after a click) and what went wrong, then
 * what the visitor may do (`children`). */
export function LinkTroubleView({
  trouble,
  title,
  heading,
  children,
}: {
  trouble: LinkTrouble;
  title: string;
  heading: RefObject<HTMLHeadingElement | null>;
  children?: ReactNode;
}) {
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {trouble.kind === "invalid" ? (
        <p data-testid="link-invalid">{trouble.message}</p>
      ) : (
        <p data-testid="link-failed">
          {sentence(trouble.message)}{" "}
          {trouble.network ? "Проверьте подключение к интернету и повторите." : "Повторите позже."}
        </p>
      )}
      {children}
    </>
  );
}
