/** The withdrawal link of every visitor mail (docs/personal-data.md): the
 * page explains what withdrawing the consent erases and asks for a click; it
 * never sends the token on load (mail scanners open links). The server draws
 * what it knows (src/http/pages/data/forget.rs): whether the link works and,
 * after the form was sent without JavaScript, what was done. With
 * JavaScript the form's token goes to the JSON call instead. A lazily loaded
 * chunk; the server marks the page noindex. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useSearch } from "wouter";
import { apiPost, cached } from "../api/client";
import type { components } from "../api/schema";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { SalonPhoneLink, useSettings } from "../hooks/useSettings";
import { LINK_INVALID, linkToken } from "../lib/savedSearchLink";
import { type LinkTrouble, LinkTroubleView, linkTrouble } from "./LinkTrouble";

const TITLE = "Отзыв согласия на обработку персональных данных";
const FORGET = "/api/personal-data/forget";
/** The page's own address: its form is sent here without JavaScript. */
const PAGE = "/personal-data/forget";
/** What the server found, in the page's data (forget.rs `OUTCOME`). */
const OUTCOME = "page:personal-data/forget";

type Drawn =
  | { state: "asking"; email: string }
  | { state: "invalid" }
  | { state: "done"; email: string }
  | { state: "failed"; message: string; token: string };

type State =
  | { kind: "asking"; email?: string }
  | { kind: "sending"; email?: string }
  | { kind: "done"; email: string }
  | LinkTrouble;

/** The server's outcome, when the page came with one. */
function drawn(): Drawn | undefined {
  try {
    return cached<Drawn>(OUTCOME);
  } catch {
    return undefined;
  }
}

function initial(outcome: Drawn | undefined, token: string | null): State {
  switch (outcome?.state) {
    case "asking":
      return { kind: "asking", email: outcome.email };
    case "invalid":
      return { kind: "invalid", message: LINK_INVALID };
    case "done":
      return { kind: "done", email: outcome.email };
    case "failed":
      return { kind: "failed", message: outcome.message, network: false };
    default:
      return token ? { kind: "asking" } : { kind: "invalid", message: LINK_INVALID };
  }
}

export default function ForgetLink() {
  useDocumentTitle(TITLE);
  const search = useSearch();
  const [outcome] = useState(drawn);
  // After a refused form the token is in the page's data, not its address.
  const token = (outcome?.state === "failed" ? outcome.token : null) ?? linkToken(search);
  const [state, setState] = useState<State>(() => initial(outcome, token));
  const heading = useRef<HTMLHeadingElement>(null);
  const clicked = useRef(false);

  // The outcome's heading takes the focus after a click, so a screen reader
  // reads it (and the pressed button does not leave focus nowhere).
  useEffect(() => {
    if (clicked.current && state.kind !== "asking" && state.kind !== "sending") {
      heading.current?.focus();
    }
  }, [state.kind]);

  const send = (e: { preventDefault(): void }) => {
    e.preventDefault();
    if (!token || state.kind === "sending") return;
    clicked.current = true;
    const email = state.kind === "asking" ? state.email : undefined;
    setState({ kind: "sending", email });
    apiPost<components["schemas"]["Forgotten"]>(FORGET, { token }, { invalidate: [] })
      .then((answer) => setState({ kind: "done", email: answer.email }))
      .catch((error: unknown) => setState(linkTrouble(error)));
  };

  // A plain form: without JavaScript the browser sends it to the page
  // (never a GET: the link itself changes nothing).
  const form = (label: string) => (
    <form method="post" action={PAGE} onSubmit={send}>
      <input type="hidden" name="token" value={token ?? ""} />
      <button
        type="submit"
        aria-busy={state.kind === "sending" || undefined}
        disabled={state.kind === "sending"}
      >
        {state.kind === "sending" ? "Удаляем…" : label}
      </button>
    </form>
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
            заявки, подписки на подборки и письма, которые хранит о вашем адресе
            {state.email ? ` ${state.email}` : ""}. Отменить это будет нельзя.
          </p>
          {form("Отозвать согласие и удалить данные")}
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
            Согласие на обработку персональных данных отозвано. Мы удалили заявки, подписки и
            письма, связанные с адресом {state.email}, и больше не храним их.
          </p>
        </>
      );
      break;
    case "invalid":
    case "failed":
      body = (
        <LinkTroubleView trouble={state} title={TITLE} heading={heading}>
          {state.kind === "failed" && token && form("Повторить")}
          <OtherWay />
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

/** The other way to withdraw: the salon's e-mail and phone. */
function OtherWay() {
  const { email, phone } = useSettings();
  if (!email && !phone) return null;
  const mail = email && <a href={`mailto:${email}`}>{email}</a>;
  const call = phone && <SalonPhoneLink number={phone} />;
  return (
    <p data-testid="forget-other-way">
      Отозвать согласие можно и без ссылки:{" "}
      {mail && call ? (
        <>
          напишите нам на {mail} или позвоните по телефону {call}
        </>
      ) : mail ? (
        <>напишите нам на {mail}</>
      ) : (
        <>позвоните нам по телефону {call}</>
      )}
      .
    </p>
  );
}
