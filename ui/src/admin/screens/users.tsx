/** "Пользователи" (the owner's `users` capability; docs/admin.md, "The
 * team"): every staff account with its role, e-mail, open leads, own hours
 * and state; add one (invited by a link valid 24 hours, or with a one-time
 * password), rename, change the role, the e-mail and the working hours,
 * block and unblock, reset the password and delete. The server keeps the
 * last active owner; its refusals are shown in its own words. The dialogs
 * are in users-dialogs.tsx and users-access.tsx. */
import { Fragment, useMemo, useState } from "react";
import { Link } from "wouter";
import { apiPut } from "../../api/client";
import type { Settings, StaffChange, StaffUser } from "../../api/types";
import { useAuth, useCan } from "../auth";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ScrollRegion } from "../components/ScrollRegion";
import { useSalons } from "../components/useSalons";
import { errorMessage } from "../errors";
import { PUBLIC_SETTINGS } from "../lib/banners";
import { SETTINGS_URL } from "../lib/personalData";
import { salonsNote } from "../lib/salons";
import { type AdminSettings, ASSIGNMENT_SETTINGS_HREF, assignmentLine } from "../lib/settings";
import { hoursNote } from "../lib/staff-hours";
import { confirmText, USERS_URL, type UserStateKind, userState, userUrl } from "../lib/team";
import { useAdminMutation, useAdminQuery } from "../query";
import { type Resource, ResourceScreen } from "../resource/ResourceScreen";
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

/** The team as a resource of the block; the delete's question names the
 * account (and warns when it is one's own). */
function usersResource(me: string | null): Resource<StaffUser> {
  return {
    title: "Пользователи",
    listUrl: USERS_URL,
    createUrl: USERS_URL,
    itemUrl: (u) => userUrl(u.id),
    writeCapability: "users",
    name: (u) => `пользователя ${u.username}`,
    text: {
      add: "Добавить пользователя",
      addOpensDialog: true,
      loading: "Загрузка пользователей…",
      loadFailed: "Не удалось загрузить пользователей",
      empty: "Пользователей нет",
      deleteTitle: "Удалить пользователя?",
      deleteMessage: (u) => confirmText("delete", u, u.username === me).message,
      deleted: "Учётная запись удалена",
      deleteFailed: "Не удалось удалить пользователя",
      formTitle: (u) => (u ? `Изменить пользователя ${u.username}` : "Добавить пользователя"),
      created: "Учётная запись создана",
      updated: "Учётная запись изменена",
      saveFailed: "Не удалось сохранить пользователя",
    },
    skeletons: 3,
    form: { Dialog: UserDialog },
  };
}

export default function UsersScreen() {
  const { username: me } = useAuth();
  const resource = useMemo(() => usersResource(me), [me]);
  // Read now: "Свои часы" in the dialogs start from the salon's schedule.
  useSalonHours();
  /** Blocking, asked first. */
  const [blocking, setBlocking] = useState<StaffUser | null>(null);
  const block = useAdminMutation(
    ({ user, blocked }: { user: StaffUser; blocked: boolean }) =>
      apiPut<StaffUser>(userUrl(user.id), { blocked } satisfies StaffChange),
    {
      success: (_, v) =>
        v.blocked ? "Учётная запись заблокирована" : "Учётная запись разблокирована",
      onSuccess: () => setBlocking(null),
      onFailure: (e) => {
        setBlocking(null);
        toastError(errorMessage(e, "Не удалось изменить пользователя"));
      },
    },
  );
  const [resetting, setResetting] = useState<StaffUser | null>(null);
  // With several salons each member's are named.
  const salons = useSalons();
  return (
    <>
      <ResourceScreen
        resource={resource}
        intro={() => (
          <>
            <p class="muted">
              Сотрудники, которые входят в панель, и их роли. Новому сотруднику можно отправить
              ссылку-приглашение (по ней задаётся пароль) или задать временный пароль, который нужно
              сменить при первом входе. С заблокированной учётной записью войти нельзя.
            </p>
            <AssignmentRuleLine />
          </>
        )}
        layout={(list, card) => (
          <ScrollRegion label="Пользователи панели">
            <table class="users-table card-table" data-testid="users">
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
                  <Fragment key={u.id}>{card(u)}</Fragment>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        card={(u, { edit, remove }) => (
          <UserRow
            user={u}
            isMe={u.username === me}
            salons={salons.several && salons.list ? salonsNote(u, salons.list) : null}
            busy={block.isPending && block.variables?.user.id === u.id}
            onEdit={() => edit(u)}
            onBlock={() => setBlocking(u)}
            onUnblock={() => block.mutate({ user: u, blocked: false })}
            onReset={() => setResetting(u)}
            onDelete={() => remove(u)}
          />
        )}
      />
      {resetting && (
        <ResetPasswordDialog
          key={resetting.id}
          user={resetting}
          onClose={() => setResetting(null)}
        />
      )}
      <ConfirmDialog
        open={blocking !== null}
        {...(blocking ? confirmText("block", blocking, blocking.username === me) : { title: "" })}
        busy={block.isPending}
        onConfirm={() => blocking && block.mutate({ user: blocking, blocked: true })}
        onCancel={() => setBlocking(null)}
      />
    </>
  );
}

/** The lead rule in force (round robin, least loaded or by hand), with a
 * link to its setting: who gets leads depends on it and on the hours set
 * here. */
function AssignmentRuleLine() {
  const canSettings = useCan("settings");
  const settings = useAdminQuery<AdminSettings>(canSettings ? SETTINGS_URL : null, {
    refetchOnWindowFocus: false,
  }).data;
  if (!settings) return null;
  return (
    <p data-testid="assignment-rule">
      {assignmentLine(settings.leadAssignment)}{" "}
      <Link href={ASSIGNMENT_SETTINGS_HREF}>Изменить в настройках</Link>
    </p>
  );
}

/** The salon's working schedule (the settings'). */
function useSalonHours() {
  return useAdminQuery<Settings>(PUBLIC_SETTINGS, { refetchOnWindowFocus: false }).data
    ?.workSchedule;
}

/** Adding (the way in, an invitation's link) or editing one member. */
function UserDialog({ item, onClose }: { item: StaffUser | null; onClose: () => void }) {
  const { username: me } = useAuth();
  const salon = useSalonHours();
  return item ? (
    <EditUserDialog user={item} me={me} salon={salon} onClose={onClose} />
  ) : (
    <AddUserDialog salon={salon} onClose={onClose} />
  );
}

function UserRow({
  user: u,
  isMe,
  salons,
  busy,
  onEdit,
  onBlock,
  onUnblock,
  onReset,
  onDelete,
}: {
  user: StaffUser;
  isMe: boolean;
  /** Their salons in words, when there are several. */
  salons: string | null;
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
      <td data-testid="user-name" data-label="Имя">
        {u.name.trim() || <span class="muted">—</span>}
        {isMe && <span class="muted"> (вы)</span>}
      </td>
      <td data-testid="user-login" data-label="Логин">
        {login}
      </td>
      <td data-testid="user-email" data-label="E-mail">
        {u.email || <span class="muted">—</span>}
      </td>
      <td data-testid="user-role" data-label="Роль">
        {roleLabel(u.role)}
        {salons && (
          <small class="muted user-salons" data-testid="user-salons-note">
            {`Салоны: ${salons}`}
          </small>
        )}
      </td>
      <td class="user-open-leads" data-testid="user-open-leads" data-label="Открытых заявок">
        {u.openLeads ?? 0}
      </td>
      <td data-label="Состояние">
        <span class={`badge ${STATE_BADGES[state.kind]}`} data-testid="user-state">
          {state.label}
        </span>
        {hours && (
          <small class="muted user-hours" data-testid="user-hours">
            {hours}
          </small>
        )}
      </td>
      <td class="card-table-actions">
        <div class="user-actions">
          <RowButton text="Изменить" login={login} onClick={onEdit} />
          {u.blockedAt ? (
            <RowButton
              text="Разблокировать"
              login={login}
              opensDialog={false}
              busy={busy}
              onClick={onUnblock}
            />
          ) : (
            <RowButton text="Заблокировать" login={login} disabled={busy} onClick={onBlock} />
          )}
          <RowButton text="Сбросить пароль" login={login} onClick={onReset} />
          <RowButton text="Удалить" login={login} danger disabled={busy} onClick={onDelete} />
        </div>
      </td>
    </tr>
  );
}

/** A row's button, named with the login ("Удалить пользователя ivan"); most
 * open a dialog. */
function RowButton({
  text,
  login,
  onClick,
  opensDialog = true,
  danger,
  busy,
  disabled,
}: {
  text: string;
  login: string;
  onClick: () => void;
  opensDialog?: boolean;
  danger?: boolean;
  /** Waiting for its own change (disabled meanwhile). */
  busy?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      class={danger ? "danger outline" : "secondary outline"}
      aria-haspopup={opensDialog ? "dialog" : undefined}
      aria-label={`${text} пользователя ${login}`}
      aria-busy={busy || undefined}
      disabled={busy || disabled}
      onClick={onClick}
    >
      {text}
    </button>
  );
}
