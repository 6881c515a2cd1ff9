/** The withdrawal link of every visitor mail (docs/personal-data.md): the
 * page explains what withdrawing the consent erases and asks for a click; it
 * never sends the token on load (mail scanners open links). A lazily loaded
 * chunk; the server marks the page noindex. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useSearch } from "wouter";
import { apiPost } from "../api/client";
import type { components } from "../api/schema";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { LINK_INVALID, linkToken } from "../lib/savedSearchLink";
import { type LinkTrouble, LinkTroubleView, linkTrouble } from "./LinkTrouble";

const TITLE = "Отзыв согласия на обработку персональных данных";
const FORGET = "/api/personal-data/forget";

type State =
  | { kind: "asking" }
  | { kind: "sending" }
  | { kind: "done"; email: string }
  | LinkTrouble;

export default function ForgetLink() {
  useDocumentTitle(TITLE);
  const token = linkToken(useSearch());
  const [state, setState] = useState<State>(
    token ? { kind: "asking" } : { kind: "invalid", message: LINK_INVALID },
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const clicked = useRef(false);

  // The outcome's heading takes the focus after a click, so a screen reader
  // reads it (and the pressed button does not leave focus nowhere).
  useEffect(() => {
    if (clicked.current && state.kind !== "asking" && state.kind !== "sending") {
      heading.current?.focus();
    }
  }, [state.kind]);

  const send = () => {
    if (!token) return;
    clicked.current = true;
    setState({ kind: "sending" });
    apiPost<components["schemas"]["Forgotten"]>(FORGET, { token }, { invalidate: [] })
      .then((answer) => setState({ kind: "done", email: answer.email }))
      .catch((error: unknown) => setState(linkTrouble(error)));
  };

  const button = (label: string) => (
    <p>
      <button
        type="button"
        aria-busy={state.kind === "sending" || undefined}
        disabled={state.kind === "sending"}
        onClick={send}
      >
        {state.kind === "sending" ? "Удаляем…" : label}
      </button>
    </p>
  );

  let body: ReactNode;
  switch (state.kind) {
    case "asking":
    case "sending":
      body = (
        <>
          <h1>{TITLE}</h1>
          <p>
            Нажав кнопку, вы отзываете согласие на обработку персональных данных. Сайт удалит ваши
            заявки, подписки на подборки и письма, которые хранит о вашем адресе. Отменить это будет
            нельзя.
          </p>
          {button("Отозвать согласие и удалить данные")}
        </>
      );
      break;
    case "done":
      body = (
        <>
          <h1 ref={heading} tabIndex={-1}>
            Ваши данные удалены
          </h1>
          <p data-testid="forget-done">
            Мы больше не храним данные, связанные с адресом {state.email}.
          </p>
        </>
      );
      break;
    case "invalid":
    case "failed":
      body = (
        <LinkTroubleView trouble={state} title={TITLE} heading={heading}>
          {state.kind === "failed" && button("Повторить")}
        </LinkTroubleView>
      );
      break;
  }
  return (
    // What happened is announced when it replaces the question.
    <div class="container page" aria-live="polite" data-testid="forget-link">
      {body}
    </div>
  );
}
