/** The admin panel, its own chunk loaded only under /admin: the login gate,
 * server state (react-query) and the screens of screens.ts under /admin.
 * An invitation link (/admin/invitation/:token) is opened without an
 * account, before the gate; a one-time password must be changed before any
 * screen opens. */
import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useEffect, useState } from "react";
import { Link, Route, Switch } from "wouter";
import { ToastProvider, useToast, useToastDismiss } from "../components/ui/Toast";
import "./admin.css";
import { useAuth } from "./auth";
import { AdminPage } from "./components/AdminPage";
import { ErrorPanel } from "./components/ErrorPanel";
import { Modal } from "./components/Modal";
import { ScreenGate } from "./components/ScreenGate";
import { ForcedPasswordChange } from "./ForcedPasswordChange";
import { InvitationPage } from "./InvitationPage";
import { LoginForm } from "./LoginForm";
import { queryClient } from "./query";
import { DASHBOARD, SCREENS } from "./screens";
import { checkSession, ME } from "./session";
import { connectToasts } from "./toast";

/** Lets `notify` (toast.ts) reach the site's ToastProvider. */
function ToastBridge() {
  const show = useToast();
  const dismiss = useToastDismiss();
  useEffect(() => {
    connectToasts(show, dismiss);
    return () => connectToasts(null);
  }, [show, dismiss]);
  return null;
}

const dashboard = SCREENS.find((s) => s.path === DASHBOARD);

/** Every screen at its path; one the role may not open is refused there
 * (ScreenGate) rather than left to "not found". */
function Screens() {
  return (
    <Suspense fallback={<p aria-busy="true">Загрузка…</p>}>
      <Switch>
        {dashboard && (
          <Route path="/">
            <ScreenGate screen={dashboard} />
          </Route>
        )}
        {SCREENS.map((s) => (
          <Route key={s.path} path={s.path}>
            <ScreenGate screen={s} />
          </Route>
        ))}
        <Route component={UnknownScreen} />
      </Switch>
    </Suspense>
  );
}

function UnknownScreen() {
  return (
    <AdminPage title="Раздел не найден">
      <p>
        Такого раздела нет. <Link href="/">Вернуться в панель администратора</Link>
      </p>
    </AdminPage>
  );
}

function LoginScreen() {
  useEffect(() => {
    document.title = "Вход — администрирование";
  }, []);
  return (
    <main id="main" class="container login-screen">
      <article>
        <h1>Вход в панель администратора</h1>
        <LoginForm />
        <p>
          <a href="/">Вернуться на сайт</a>
        </p>
      </article>
    </main>
  );
}

/** Shows the login screen, or the panel; over the panel when the session
 * expired while working, so what is on screen stays as it was. With a
 * one-time password, the panel is only the form that changes it. */
function Gate() {
  const { state, mustChangePassword } = useAuth();
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setFailure(null);
    checkSession().catch(setFailure);
  }, [attempt]);

  if (failure)
    return (
      <main class="container admin-main">
        <ErrorPanel
          error={failure}
          url={ME}
          title="Не удалось подключиться к серверу"
          onRetry={() => setAttempt((n) => n + 1)}
        />
      </main>
    );
  if (state === "checking") return <p aria-busy="true">Загрузка…</p>;
  if (state === "out") return <LoginScreen />;
  return (
    <>
      {/* A modal: everything under it, an open form too, is inert until login. */}
      {mustChangePassword ? <ForcedPasswordChange /> : <Screens />}
      <Modal
        open={state === "expired"}
        title="Вход в панель администратора"
        locked
        onRequestClose={() => {}}
        testId="login-dialog"
      >
        <LoginForm expired />
      </Modal>
    </>
  );
}

export default function AdminApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ToastBridge />
        <Route path="/admin" nest>
          <Switch>
            <Route path="/invitation/:token">
              {(params) => <InvitationPage key={params.token} token={params.token} />}
            </Route>
            <Route>
              <Gate />
            </Route>
          </Switch>
        </Route>
      </ToastProvider>
    </QueryClientProvider>
  );
}
