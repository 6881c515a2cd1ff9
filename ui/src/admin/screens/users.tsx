/** "Пользователи" (the owner's `users` capability; docs/admin.md, "The
 * team"): every staff account with its role, e-mail, open leads, own hours
 * and state; add one (invited by a link valid 24 hours, or with a one-time
 * password), rename, change the role, the e-mail and the working hours,
 * block and unblock, reset the password and delete. The server keeps the
 * last active owner; its refusals are shown in its own words. The dialogs
 * are in users-dialogs.tsx and users-access.tsx. */
import { useState } from "react";
import { apiDelete, apiPut } from "../../api/client";
import type { Settings, StaffChange, StaffUser } from "../../api/types";
import { useAuth } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { ScrollRegion } from "../components/ScrollRegion";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import { PUBLIC_SETTINGS } from "../lib/banners";
import { hoursNote } from "../lib/staff-hours";
import {
  type ConfirmKind,
  confirmText,
  USERS_URL,
  type UserStateKind,
  userState,
  userUrl,
} from "../lib/team";
import { useAdminMutation, useAdminQuery } from "../query";
import { roleLabel } from "../roles";
import { toastError } from "../toast";
import { ResetPasswordDialog } from "./users-access";
import { AddUserDialog, EditUserDialog } from "./users-dialogs";
import "./content.css";
import "./staff.css";
import "./users.css";

const STATE_BADGES: Record<UserStateKind, string> = {
  active: "badge-green",
  blocked: "badge-red",
  invited: "badge-blue",
  expired: "badge-orange",
  temporary: "badge-orange",
};

export default function UsersScreen() {
  const { username: me } = useAuth();
  const users = useAdminQuery<StaffUser[]>(USERS_URL);
  // The salon's schedule: "Свои часы" in the dialogs start from it.
  const salon = useAdminQuery<Settings>(PUBLIC_SETTINGS, { refetchOnWindowFocus: false }).data
    ?.workSchedule;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<StaffUser | null>(null);
  const [resetting, setResetting] = useState<StaffUser | null>(null);
  /** Blocking or deleting, asked first (one question at a time). */
  const [asking, setAsking] = useState<{ kind: ConfirmKind; user: StaffUser } | null>(null);
  const closeAsking = () => setAsking(null);

  const block = useAdminMutation(
    ({ user, blocked }: { user: StaffUser; blocked: boolean }) =>
      apiPut<StaffUser>(userUrl(user.id), { blocked } satisfies StaffChange),
    {
      success: (_, v) => (v.blocked ? "Пользователь заблокирован" : "Пользователь разблокирован"),
      onSuccess: closeAsking,
      onFailure: (e) => {
        closeAsking();
        toastError(errorMessage(e, "Не удалось изменить пользователя"));
      },
    },
  );
  const remove = useAdminMutation((user: StaffUser) => apiDelete(userUrl(user.id)), {
    success: "Пользователь удалён",
    onSuccess: closeAsking,
    onFailure: (e) => {
      closeAsking();
      toastError(errorMessage(e, "Не удалось удалить пользователя"));
    },
  });

  const list = users.data ?? [];
  return (
    <AdminPage
      title="Пользователи"
      count={users.data ? list.length : null}
      actions={
        <button type="button" aria-haspopup="dialog" onClick={() => setAdding(true)}>
          Добавить пользователя
        </button>
      }
    >
      <p class="muted">
        Сотрудники, которые входят в панель, и их роли. Новому сотруднику можно отправить
        ссылку-приглашение (он сам задаст пароль) или задать временный пароль, который он сменит при
        первом входе. Заблокированный пользователь не может войти.
      </p>
      {users.isPending ? (
        <SkeletonCards count={3} label="Загрузка пользователей…" />
      ) : users.isError ? (
        <ErrorPanel
          error={users.error}
          title="Не удалось загрузить пользователей"
          url={USERS_URL}
          onRetry={() => void users.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          Пользователей нет
        </p>
      ) : (
        <ScrollRegion label="Пользователи панели">
          <table class="users-table" data-testid="users">
            <thead>
              <tr>
                <th scope="col">Имя</th>
                <th scope="col">Логин</th>
                <th scope="col">E-mail</th>
                <th scope="col">Роль</th>
                <th scope="col">Открытых заявок</th>
                <th scope="col">Состояние</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {list.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  isMe={u.username === me}
                  busy={
                    (block.isPending && block.variables?.user.id === u.id) ||
                    (remove.isPending && remove.variables?.id === u.id)
                  }
                  onEdit={() => setEditing(u)}
                  onBlock={() => setAsking({ kind: "block", user: u })}
                  onUnblock={() => block.mutate({ user: u, blocked: false })}
                  onReset={() => setResetting(u)}
                  onDelete={() => setAsking({ kind: "delete", user: u })}
                />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {adding && <AddUserDialog salon={salon} onClose={() => setAdding(false)} />}
      {editing && (
        <EditUserDialog
          key={editing.id}
          user={editing}
          me={me}
          salon={salon}
          onClose={() => setEditing(null)}
        />
      )}
      {resetting && (
        <ResetPasswordDialog
          key={resetting.id}
          user={resetting}
          onClose={() => setResetting(null)}
        />
      )}
      <ConfirmDialog
        open={asking !== null}
        {...(asking
          ? confirmText(asking.kind, asking.user, asking.user.username === me)
          : { title: "" })}
        busy={block.isPending || remove.isPending}
        onConfirm={() => {
          if (asking?.kind === "block") block.mutate({ user: asking.user, blocked: true });
          else if (asking?.kind === "delete") remove.mutate(asking.user);
        }}
        onCancel={closeAsking}
      />
    </AdminPage>
  );
}

function UserRow({
  user: u,
  isMe,
  busy,
  onEdit,
  onBlock,
  onUnblock,
  onReset,
  onDelete,
}: {
  user: StaffUser;
  isMe: boolean;
  busy: boolean;
  onEdit: () => void;
  onBlock: () => void;
  onUnblock: () => void;
  onReset: () => void;
  onDelete: () => void;
}) {
  const state = userState(u);
  const login = u.username;
  const hours = hoursNote(u);
  return (
    <tr data-testid="user-row" data-username={login} data-state={state.kind}>
      <td data-testid="user-name">
        {u.name.trim() || <span class="muted">—</span>}
        {isMe && <span class="muted"> (вы)</span>}
      </td>
      <td data-testid="user-login">{login}</td>
      <td data-testid="user-email">{u.email || <span class="muted">—</span>}</td>
      <td data-testid="user-role">{roleLabel(u.role)}</td>
      <td class="user-open-leads" data-testid="user-open-leads">
        {u.openLeads ?? 0}
      </td>
      <td>
        <span class={`badge ${STATE_BADGES[state.kind]}`} data-testid="user-state">
          {state.label}
        </span>
        {hours && (
          <small class="muted user-hours" data-testid="user-hours">
            {hours}
          </small>
        )}
      </td>
      <td>
        <div class="user-actions">
          <button
            type="button"
            class="secondary outline"
            aria-haspopup="dialog"
            aria-label={`Изменить пользователя ${login}`}
            onClick={onEdit}
          >
            Изменить
          </button>
          {u.blockedAt ? (
            <button
              type="button"
              class="secondary outline"
              aria-label={`Разблокировать пользователя ${login}`}
              aria-busy={busy || undefined}
              disabled={busy}
              onClick={onUnblock}
            >
              Разблокировать
            </button>
          ) : (
            <button
              type="button"
              class="secondary outline"
              aria-haspopup="dialog"
              aria-label={`Заблокировать пользователя ${login}`}
              disabled={busy}
              onClick={onBlock}
            >
              Заблокировать
            </button>
          )}
          <button
            type="button"
            class="secondary outline"
            aria-haspopup="dialog"
            aria-label={`Сбросить пароль пользователя ${login}`}
            onClick={onReset}
          >
            Сбросить пароль
          </button>
          <button
            type="button"
            class="danger outline"
            aria-haspopup="dialog"
            aria-label={`Удалить пользователя ${login}`}
            disabled={busy}
            onClick={onDelete}
          >
            Удалить
          </button>
        </div>
      </td>
    </tr>
  );
}
