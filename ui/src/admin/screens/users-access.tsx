/** How a staff member gets in (docs/admin.md, "The team"): an invitation
 * link, shown once with its terms and a copy button, or a one-time
 * password; and the owner's password reset, which gives a new one of
 * either. */
import { useEffect, useRef, useState } from "react";
import { type FieldError, type UseFormRegisterReturn, useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import type { StaffAnswer, StaffUser } from "../../api/types";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import {
  type AccessMethod,
  accountName,
  checkPassword,
  INVITATION_TERMS,
  RESET_VALUES,
  type ResetValues,
  resetInput,
  userPasswordUrl,
} from "../lib/team";
import { useAdminMutation } from "../query";
import { toastSuccess } from "../toast";

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
      hint={`${INVITATION_TERMS} Передайте её сотруднику: по ней задаётся пароль для входа. Больше ссылка показана не будет.`}
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
export function InvitationResult({
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
export function AccessChoice({
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
          hint="Не короче 8 символов. Сообщите его сотруднику: при первом входе панель попросит задать свой пароль."
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
export const temporaryPassword = {
  validate: (x: string, all: { method: AccessMethod }) =>
    all.method !== "password" || checkPassword(x),
};

export function ResetPasswordDialog({ user, onClose }: { user: StaffUser; onClose: () => void }) {
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
  const who = accountName(user);
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
          message={`Пароль учётной записи ${who} сброшен. Войти можно, задав новый пароль по ссылке.`}
          url={link}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
          <p>
            Текущий пароль учётной записи {who} перестанет действовать, открытые сеансы завершатся.
          </p>
          <AccessChoice
            legend="Новый доступ"
            inviteLabel="Ссылка-приглашение для нового пароля"
            method={method}
            methodField={register("method")}
            passwordField={register("password", temporaryPassword)}
            error={errors.password}
          />
          <DialogActions busy={save.isPending} label="Сбросить пароль" danger />
        </form>
      )}
    </FormDialog>
  );
}

/** A dialog's Cancel and submit buttons. */
export function DialogActions({
  busy,
  label,
  danger,
}: {
  busy: boolean;
  label: string;
  danger?: boolean;
}) {
  return (
    <footer class="dialog-actions">
      <CancelButton />
      <button
        type="submit"
        class={danger ? "danger" : undefined}
        aria-busy={busy || undefined}
        disabled={busy}
      >
        {label}
      </button>
    </footer>
  );
}
