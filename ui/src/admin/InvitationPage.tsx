/** `/admin/invitation/:token`, opened without an account: whom the link is
 * for, a new password twice, then the login to use. A used or expired link
 * shows the server's words. */
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import { ApiError, apiPost } from "../api/client";
import type { Invitation, InvitationPassword } from "../api/types";
import { applyServerError } from "./components/applyServerError";
import { ErrorPanel } from "./components/ErrorPanel";
import { NewPasswordFields } from "./components/OwnPassword";
import { greeting, type InvitationValues, invitationApiUrl } from "./lib/team";
import { useAdminQuery } from "./query";

const TITLE = "Приглашение в панель администратора";

export function InvitationPage({ token }: { token: string }) {
  const url = invitationApiUrl(token);
  const [done, setDone] = useState<Invitation | null>(null);
  /** The link stopped working while the form was open. */
  const [gone, setGone] = useState<string | null>(null);
  const invitation = useAdminQuery<Invitation>(done || gone ? null : url, {
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    document.title = `${TITLE} — администрирование`;
  }, []);

  const refusal =
    gone ??
    (invitation.error instanceof ApiError && invitation.error.status === 404
      ? invitation.error.message
      : null);

  return (
    <main id="main" class="container login-screen" data-testid="invitation-page">
      <article>
        <h1>{TITLE}</h1>
        {done ? (
          <Done username={done.username} />
        ) : refusal ? (
          <>
            <p class="field-error" role="alert" data-testid="invitation-error">
              {refusal}
            </p>
            <p>
              <Link href="~/admin">Перейти ко входу в панель</Link>
            </p>
          </>
        ) : invitation.isError ? (
          <ErrorPanel
            error={invitation.error}
            title="Не удалось открыть приглашение"
            url={url}
            onRetry={() => void invitation.refetch()}
          />
        ) : !invitation.data ? (
          <p aria-busy="true">Загрузка…</p>
        ) : (
          <InvitationForm
            url={url}
            invitation={invitation.data}
            onDone={setDone}
            onGone={setGone}
          />
        )}
        <p>
          <a href="/">Вернуться на сайт</a>
        </p>
      </article>
    </main>
  );
}

/** The password is set: the login to use and the way in. Focus moves to
 * the message (the form it replaces had it). */
function Done({ username }: { username: string }) {
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => message.current?.focus(), []);
  return (
    <>
      <p ref={message} tabIndex={-1} role="status" data-testid="invitation-done">
        Пароль задан. Войдите с логином <strong>{username}</strong>.
      </p>
      <p>
        <Link href="~/admin">Войти в панель администратора</Link>
      </p>
    </>
  );
}

function InvitationForm({
  url,
  invitation,
  onDone,
  onGone,
}: {
  url: string;
  invitation: Invitation;
  onDone: (account: Invitation) => void;
  onGone: (message: string) => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InvitationValues>({ defaultValues: { password: "", repeat: "" } });

  const submit = handleSubmit(async (v) => {
    try {
      const body: InvitationPassword = { password: v.password };
      onDone(await apiPost<Invitation>(url, body));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) onGone(e.message);
      else
        applyServerError(setError, e, {
          fallback: "Не удалось задать пароль",
          fields: ["password"],
        });
    }
  });

  return (
    <>
      <p data-testid="invitation-greeting">
        {greeting(invitation)} Задайте пароль для входа с логином{" "}
        <strong>{invitation.username}</strong>.
      </p>
      <form noValidate onSubmit={submit} data-testid="invitation-form">
        <NewPasswordFields register={register} errors={errors} />
        <button type="submit" aria-busy={isSubmitting || undefined} disabled={isSubmitting}>
          Задать пароль
        </button>
      </form>
    </>
  );
}
