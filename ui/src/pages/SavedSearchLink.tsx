/** The confirm and unsubscribe links of the saved-search mails: the page
 * sends the link's token on load and says what happened. A lazily loaded
 * chunk; the server marks both pages noindex. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import { apiPost } from "../api/client";
import type { SearchConfirmed, SearchUnsubscribed } from "../api/types";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import {
  catalogueLink,
  LINK_INVALID,
  linkToken,
  SAVED_SEARCH_CONFIRM,
  SAVED_SEARCH_UNSUBSCRIBE,
} from "../lib/savedSearchLink";
import { ROUTES } from "../routes";
import { type LinkTrouble, LinkTroubleView, linkTrouble } from "./LinkTrouble";

export type LinkAction = "confirm" | "unsubscribe";

type State =
  | { kind: "sending" }
  | { kind: "done"; answer: SearchConfirmed | SearchUnsubscribed }
  | LinkTrouble;

const TEXTS: Record<LinkAction, { url: string; title: string; done: string; sending: string }> = {
  confirm: {
    url: SAVED_SEARCH_CONFIRM,
    title: "Подтверждение подписки",
    done: "Подписка подтверждена",
    sending: "Подтверждаем подписку…",
  },
  unsubscribe: {
    url: SAVED_SEARCH_UNSUBSCRIBE,
    title: "Отписка от рассылки",
    done: "Вы отписались от рассылки",
    sending: "Отписываем…",
  },
};

export default function SavedSearchLink({ action }: { action: LinkAction }) {
  const text = TEXTS[action];
  useDocumentTitle(text.title);
  const token = linkToken(useSearch());
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(
    token ? { kind: "sending" } : { kind: "invalid", message: LINK_INVALID },
  );
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!token) {
      setState({ kind: "invalid", message: LINK_INVALID });
      return;
    }
    let live = true;
    setState({ kind: "sending" });
    apiPost<SearchConfirmed | SearchUnsubscribed>(text.url, { token }, { invalidate: [] })
      .then((answer) => live && setState({ kind: "done", answer }))
      .catch((error: unknown) => live && setState(linkTrouble(error)));
    return () => {
      live = false;
    };
  }, [token, text.url, attempt]);

  // The outcome replaces the waiting line: its heading takes the focus, so a
  // screen reader reads it (and a retry's button does not leave focus nowhere).
  useEffect(() => {
    if (state.kind !== "sending" && attempt > 0) heading.current?.focus();
  }, [state.kind, attempt]);

  let body: ReactNode;
  switch (state.kind) {
    case "sending":
      body = (
        <>
          <h1>{text.title}</h1>
          <p aria-busy="true">{text.sending}</p>
        </>
      );
      break;
    case "done": {
      const { answer } = state;
      body = (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {text.done}
          </h1>
          {action === "confirm" ? (
            <p>
              Мы будем сообщать на {answer.email} о новых автомобилях и снижении цен по подборке «
              {answer.description}», не чаще раза в день.
            </p>
          ) : (
            <p>
              Письма о подборке «{answer.description}» больше не будут приходить на {answer.email}.
            </p>
          )}
          <p>
            {"pageUrl" in answer ? (
              <Link
                href={catalogueLink(answer.pageUrl, location.origin, ROUTES.newCars)}
                role="button"
              >
                Перейти к подборке
              </Link>
            ) : (
              <Link href={ROUTES.newCars} role="button" class="outline">
                Каталог
              </Link>
            )}
          </p>
        </>
      );
      break;
    }
    case "invalid":
      body = (
        <LinkTroubleView trouble={state} title={text.title} heading={heading}>
          <p>
            <Link href={ROUTES.newCars} role="button" class="outline">
              Каталог
            </Link>
          </p>
        </LinkTroubleView>
      );
      break;
    case "failed":
      body = (
        <LinkTroubleView trouble={state} title={text.title} heading={heading}>
          <p>
            <button type="button" onClick={() => setAttempt(attempt + 1)}>
              Повторить
            </button>
          </p>
        </LinkTroubleView>
      );
      break;
  }
  return (
    // What happened is announced when it replaces the waiting line.
    <div class="container page" aria-live="polite" data-testid="saved-search-link">
      {body}
    </div>
  );
}
