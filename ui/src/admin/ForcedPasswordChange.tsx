/** Signed in with a one-time password: the server refuses everything until
 * it is changed, so the panel is this form alone; once changed, the session
 * is read again and the panel opens as usual. */
import { useEffect } from "react";
import { useAuth } from "./auth";
import { LogoutButton } from "./components/AdminPage";
import { OwnPasswordForm } from "./components/OwnPassword";
import { checkSession } from "./session";
import { toastError } from "./toast";

export function ForcedPasswordChange() {
  const { username } = useAuth();
  useEffect(() => {
    document.title = "Смена временного пароля — администрирование";
  }, []);
  return (
    <main id="main" class="container login-screen" data-testid="forced-password-change">
      <article>
        <h1>Смените временный пароль</h1>
        <p>
          Вы вошли{username ? ` как ${username}` : ""} с временным паролем. Чтобы продолжить работу,
          задайте свой пароль.
        </p>
        <OwnPasswordForm
          temporary
          onDone={() => {
            checkSession().catch(() => toastError("Не удалось обновить сессию: обновите страницу"));
          }}
          extraActions={<LogoutButton />}
        />
      </article>
    </main>
  );
}
