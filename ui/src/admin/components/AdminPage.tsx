import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { DASHBOARD_URL } from "../api";
import { can, useAuth } from "../auth";
import { problemsText } from "../lib/checks";
import { allowedScreens, CHECKS } from "../navigation";
import { useAdminQuery } from "../query";
import { roleLabel } from "../roles";
import { logOut } from "../session";
import { toastError } from "../toast";
import { ChangePasswordButton } from "./OwnPassword";

interface Props {
  title: string;
  /** Shown beside the title, e.g. the number of cars. */
  count?: number | null;
  /** Buttons on the right of the title (e.g. 'Добавить автомобиль'). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of every admin screen: title, back to the dashboard, back to
 * the site, who is signed in and as what, the other screens the role may
 * open, one's own password and logout. */
export function AdminPage({ title, count, actions, children }: Props) {
  const [path] = useLocation();
  const auth = useAuth();
  const { username } = auth;
  const name = auth.name?.trim();
  const role = roleLabel(auth.role);
  const screens = allowedScreens(auth.capabilities);
  // The dashboard's summary (shared with the dashboard) gives the checks' count.
  const summary = useAdminQuery<{ checksCount?: number }>(
    can("figures", auth) ? DASHBOARD_URL : null,
    { staleTime: 60_000 },
  );
  const problems = summary.data?.checksCount ?? 0;
  useEffect(() => {
    document.title = `${title} — администрирование`;
  }, [title]);
  // On a phone the sections and the account fold behind "Меню" (a
  // disclosure: aria-expanded, focus into it, Escape back to the button).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sections = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    sections.current?.querySelector<HTMLElement>("a")?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A dialog over the page answers Escape itself.
      if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  return (
    <div class="admin-page">
      <header class="admin-bar">
        <div class="admin-bar-top">
          <nav aria-label="Переходы">
            <ul>
              {path !== "/" && path !== "/dashboard" && (
                <li>
                  <Link href="/">← Панель администратора</Link>
                </li>
              )}
              <li>
                <a href="/">На сайт</a>
              </li>
            </ul>
          </nav>
          <button
            ref={menuButton}
            type="button"
            class="admin-menu-button secondary outline"
            aria-expanded={menuOpen}
            aria-controls="admin-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Меню
          </button>
        </div>
        <div id="admin-menu" class={menuOpen ? "admin-menu open" : "admin-menu"}>
          <ul class="admin-account">
            {username && (
              <li class="admin-user" data-testid="admin-user">
                {name && name !== username ? `${name} (${username})` : username}
                {role && (
                  <>
                    <span aria-hidden="true"> · </span>
                    <span class="visually-hidden">, роль: </span>
                    <span data-testid="admin-role">{role}</span>
                  </>
                )}
              </li>
            )}
            {username && (
              <li>
                <ChangePasswordButton />
              </li>
            )}
            <li>
              <LogoutButton />
            </li>
          </ul>
          <nav ref={sections} aria-label="Разделы администрирования" class="admin-nav">
            <ul>
              {screens.map((s) => (
                <li key={s.path}>
                  <Link
                    href={s.path}
                    onClick={() => setMenuOpen(false)}
                    aria-current={
                      path === s.path || (s.path === "/dashboard" && path === "/")
                        ? "page"
                        : undefined
                    }
                  >
                    {s.label}
                    {s.path === CHECKS && problems > 0 && (
                      <>
                        <span class="nav-count" aria-hidden="true" data-testid="nav-checks-count">
                          {problems}
                        </span>
                        <span class="visually-hidden">: {problemsText(problems)}</span>
                      </>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" class="container admin-main">
        <div class="admin-title">
          <h1>
            {title}
            {count != null && (
              <span class="admin-count" data-testid="admin-count">
                {" "}
                ({count})
              </span>
            )}
          </h1>
          {actions && <div class="admin-actions">{actions}</div>}
        </div>
        {children}
      </main>
    </div>
  );
}

/** Ends the session (the leads screen also places it in its own header). */
export function LogoutButton({ class: className = "secondary outline" }: { class?: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class={className}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        logOut()
          .catch(() => toastError("Не удалось выйти"))
          .finally(() => setBusy(false));
      }}
    >
      Выйти
    </button>
  );
}
