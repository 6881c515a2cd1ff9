/** "Пользователи" (the owner's `users` capability; docs/admin.md, "The
 * team"): every staff account with its role and state; add one (invited by
 * a link valid 24 hours, or with a one-time password), rename, change the
 * role, block and unblock, reset the password and delete. The server keeps
 * the last active owner; its refusals are shown in its own words. */
import { useEffect, useRef, useState } from "react";
import { type FieldError, type UseFormRegisterReturn, useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { StaffAnswer, StaffChange, StaffUser } from "../../api/types";
import { useAuth } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ScrollRegion } from "../components/ScrollRegion";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import {
  type AccessMethod,
  type ConfirmKind,
  checkName,
  checkPassword,
  checkRole,
  checkUsername,
  confirmText,
  EDIT_USER_FIELDS,
  type EditUserValues,
  editUserValues,
  fullName,
  INVITATION_TERMS,
  NEW_USER_FIELDS,
  NEW_USER_VALUES,
  type NewUserValues,
  newUserInput,
  RESET_VALUES,
  type ResetValues,
  ROLES,
  resetInput,
  staffChange,
  USERS_URL,
  type UserStateKind,
  userPasswordUrl,
  userState,
  userUrl,
} from "../lib/team";
import { useAdminMutation, useAdminQuery } from "../query";
import { ROLE_LABELS, roleLabel } from "../roles";
import { checkSession } from "../session";
import { toastError, toastSuccess } from "../toast";
import "./content.css";
import "./staff.css";
import "./users.css";

const STATE_BADGES: Record<UserStateKind, string> = {
  active: "badge-green",
  blocked: "badge-red",
  invited: "badge-blue",
  temporary: "badge-orange",
};

/** After a change of one's own account the session is read again (a new
 * name or role in the header, the screens of the new role). */
function refreshIfMe(user: StaffUser, me: string | null): void {
  if (user.username === me) void checkSession().catch(() => {});
}

export default function UsersScreen() {
  const { username: me } = useAuth();
  const users = useAdminQuery<StaffUser[]>(USERS_URL);
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
                <th scope="col">Роль</th>
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
      {adding && <AddUserDialog onClose={() => setAdding(false)} />}
      {editing && (
        <EditUserDialog key={editing.id} user={editing} me={me} onClose={() => setEditing(null)} />
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
  return (
    <tr data-testid="user-row" data-username={login} data-state={state.kind}>
      <td data-testid="user-name">
        {u.name.trim() || <span class="muted">—</span>}
        {isMe && <span class="muted"> (вы)</span>}
      </td>
      <td data-testid="user-login">{login}</td>
      <td data-testid="user-role">{roleLabel(u.role)}</td>
      <td>
        <span class={`badge ${STATE_BADGES[state.kind]}`} data-testid="user-state">
          {state.label}
        </span>
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

/** The invitation link, shown once: selected for copying, with a copy
 * button and its terms. */
function InvitationLink({ url }: { url: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // The form's button is gone: focus goes to the link, ready to copy.
    input.current?.focus();
    input.current?.select();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard API (an http address): the old way, from the field.
      input.current?.select();
      document.execCommand("copy");
    }
    toastSuccess("Ссылка скопирована");
  };
  return (
    <Field
      label="Ссылка-приглашение"
      hint={`${INVITATION_TERMS} Передайте её сотруднику: по ней он задаст свой пароль. Больше ссылка показана не будет.`}
    >
      {(a) => (
        <div class="inline-row invitation-link">
          <input {...a} ref={input} readOnly value={url} data-testid="invitation-url" />
          <button type="button" class="secondary" onClick={() => void copy()}>
            Копировать ссылку
          </button>
        </div>
      )}
    </Field>
  );
}

/** What a dialog shows once the server made an invitation link. */
function InvitationResult({
  message,
  url,
  onClose,
}: {
  message: string;
  url: string;
  onClose: () => void;
}) {
  return (
    <div data-testid="invitation-result">
      <p role="status">{message}</p>
      <InvitationLink url={url} />
      <footer class="dialog-actions">
        <button type="button" onClick={onClose}>
          Готово
        </button>
      </footer>
    </div>
  );
}

/** "Пригласить по ссылке" or a one-time password, with its field. */
function AccessChoice({
  legend,
  inviteLabel,
  method,
  methodField,
  passwordField,
  error,
}: {
  legend: string;
  inviteLabel: string;
  method: AccessMethod;
  methodField: UseFormRegisterReturn;
  passwordField: UseFormRegisterReturn;
  error?: FieldError;
}) {
  return (
    <>
      <fieldset class="access-choice">
        <legend>{legend}</legend>
        <label>
          <input type="radio" value="invite" {...methodField} />
          {inviteLabel}
        </label>
        <label>
          <input type="radio" value="password" {...methodField} />
          Задать временный пароль
        </label>
      </fieldset>
      {method === "password" ? (
        <Field
          label="Временный пароль"
          required
          error={error}
          hint="Не короче 8 символов. Сообщите его сотруднику: при первом входе он задаст свой пароль."
        >
          {(a) => (
            <input
              {...a}
              type="text"
              autoComplete="off"
              autoCapitalize="none"
              spellcheck={false}
              {...passwordField}
            />
          )}
        </Field>
      ) : (
        <p class="muted">{INVITATION_TERMS}</p>
      )}
    </>
  );
}

/** A one-time password is checked only when it is the chosen way. */
const temporaryPassword = {
  validate: (x: string, all: { method: AccessMethod }) =>
    all.method !== "password" || checkPassword(x),
};

function AddUserDialog({ onClose }: { onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<NewUserValues>({ defaultValues: NEW_USER_VALUES });
  const [result, setResult] = useState<StaffAnswer | null>(null);
  const save = useAdminMutation(
    (v: NewUserValues) => apiPost<StaffAnswer>(USERS_URL, newUserInput(v)),
    {
      success: "Пользователь добавлен",
      onSuccess: (answer) => {
        if (answer.invitationUrl) setResult(answer);
        else onClose();
      },
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось добавить пользователя",
          fields: NEW_USER_FIELDS,
        }),
    },
  );
  const method = watch("method");

  return (
    <FormDialog
      open
      title="Добавить пользователя"
      dirty={!result && isDirty}
      onClose={onClose}
      testId="user-dialog"
    >
      {result?.invitationUrl ? (
        <InvitationResult
          message={`Пользователь ${fullName(result.user)} добавлен. Он войдёт, когда задаст пароль по ссылке.`}
          url={result.invitationUrl}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
          <Field
            label="Имя"
            error={errors.name}
            hint="Как показывать сотрудника в панели и в заявках"
          >
            {(a) => (
              <input {...a} autoComplete="off" {...register("name", { validate: checkName })} />
            )}
          </Field>
          <Field
            label="Логин"
            required
            error={errors.username}
            hint="Для входа: без пробелов и двоеточий, до 50 символов"
          >
            {(a) => (
              <input
                {...a}
                autoComplete="off"
                autoCapitalize="none"
                spellcheck={false}
                {...register("username", { validate: checkUsername })}
              />
            )}
          </Field>
          <Field label="Роль" required error={errors.role}>
            {(a) => (
              <select {...a} {...register("role", { validate: checkRole })}>
                <option value="">Выберите роль</option>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <AccessChoice
            legend="Как сотрудник получит доступ"
            inviteLabel="Пригласить по ссылке"
            method={method}
            methodField={register("method")}
            passwordField={register("password", temporaryPassword)}
            error={errors.password}
          />
          <footer class="dialog-actions">
            <CancelButton />
            <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
              Добавить
            </button>
          </footer>
        </form>
      )}
    </FormDialog>
  );
}

function EditUserDialog({
  user,
  me,
  onClose,
}: {
  user: StaffUser;
  me: string | null;
  onClose: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<EditUserValues>({ defaultValues: editUserValues(user) });
  const save = useAdminMutation(
    (change: StaffChange) => apiPut<StaffUser>(userUrl(user.id), change),
    {
      success: "Пользователь изменён",
      onSuccess: (changed) => {
        refreshIfMe(changed, me);
        onClose();
      },
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось изменить пользователя",
          fields: EDIT_USER_FIELDS,
        }),
    },
  );
  return (
    <FormDialog
      open
      title={`Изменить пользователя ${user.username}`}
      dirty={isDirty}
      onClose={onClose}
      testId="user-edit-dialog"
    >
      <form
        noValidate
        onSubmit={handleSubmit((v) => {
          const change = staffChange(user, v);
          if (change) save.mutate(change);
          else onClose();
        })}
      >
        <Field
          label="Имя"
          error={errors.name}
          hint="Как показывать сотрудника в панели и в заявках"
        >
          {(a) => (
            <input {...a} autoComplete="off" {...register("name", { validate: checkName })} />
          )}
        </Field>
        <Field
          label="Роль"
          required
          error={errors.role}
          hint={
            user.username === me
              ? "Это ваша учётная запись: с другой ролью раздел «Пользователи» станет недоступен"
              : undefined
          }
        >
          {(a) => (
            <select {...a} {...register("role", { validate: checkRole })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            Сохранить
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: StaffUser; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<ResetValues>({ defaultValues: RESET_VALUES });
  const [link, setLink] = useState<string | null>(null);
  const save = useAdminMutation(
    (v: ResetValues) => apiPost<StaffAnswer>(userPasswordUrl(user.id), resetInput(v)),
    {
      success: "Пароль сброшен",
      onSuccess: (answer) => {
        if (answer.invitationUrl) setLink(answer.invitationUrl);
        else onClose();
      },
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сбросить пароль",
          fields: ["password"],
        }),
    },
  );
  const method = watch("method");
  const who = fullName(user);
  return (
    <FormDialog
      open
      title={`Сбросить пароль: ${user.username}`}
      dirty={!link && isDirty}
      onClose={onClose}
      testId="reset-dialog"
    >
      {link ? (
        <InvitationResult
          message={`Пароль пользователя ${who} сброшен. Он войдёт, когда задаст новый пароль по ссылке.`}
          url={link}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
          <p>
            Текущий пароль пользователя {who} перестанет действовать, открытые сеансы завершатся.
          </p>
          <AccessChoice
            legend="Новый доступ"
            inviteLabel="Ссылка-приглашение для нового пароля"
            method={method}
            methodField={register("method")}
            passwordField={register("password", temporaryPassword)}
            error={errors.password}
          />
          <footer class="dialog-actions">
            <CancelButton />
            <button
              type="submit"
              class="danger"
              aria-busy={save.isPending || undefined}
              disabled={save.isPending}
            >
              Сбросить пароль
            </button>
          </footer>
        </form>
      )}
    </FormDialog>
  );
}
