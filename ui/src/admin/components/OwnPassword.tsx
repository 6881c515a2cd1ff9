/** One's own password: the form (current, new, repeated), the header's
 * "Сменить пароль" button with its dialog. The same form is the whole panel
 * while a one-time password is in use (ForcedPasswordChange). */
import { type ReactNode, useEffect, useState } from "react";
import { type FieldErrors, type UseFormRegister, useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import type { OwnPassword } from "../../api/types";
import {
  checkPassword,
  checkRepeat,
  OWN_PASSWORD_FIELDS,
  OWN_PASSWORD_URL,
  OWN_PASSWORD_VALUES,
  type OwnPasswordValues,
  TEAM_MESSAGES,
} from "../lib/team";
import { useAdminMutation } from "../query";
import { applyServerError } from "./applyServerError";
import { Field } from "./Field";
import { CancelButton, FormDialog } from "./FormDialog";

export const PASSWORD_CHANGED = "Пароль изменён";

interface NewPassword {
  password: string;
  repeat: string;
}

interface FormProps {
  /** After the server accepted the new password. */
  onDone: () => void;
  /** Something was typed (a dialog asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
  /** Buttons before "Сменить пароль" (a dialog's "Отмена"). */
  extraActions?: ReactNode;
  /** The current password is a one-time one: its hint says so. */
  temporary?: boolean;
}

/** Current password, new password, the new one again (they must match);
 * a wrong current password is said under its field (the server's words). */
export function OwnPasswordForm({ onDone, onDirtyChange, extraActions, temporary }: FormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<OwnPasswordValues>({ defaultValues: OWN_PASSWORD_VALUES });
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);
  const save = useAdminMutation(
    (v: OwnPasswordValues) =>
      apiPut<void>(OWN_PASSWORD_URL, {
        currentPassword: v.currentPassword,
        password: v.password,
      } satisfies OwnPassword),
    {
      success: PASSWORD_CHANGED,
      onSuccess: onDone,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сменить пароль",
          fields: OWN_PASSWORD_FIELDS,
        }),
    },
  );
  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))} data-testid="password-form">
      <Field
        label="Текущий пароль"
        required
        error={errors.currentPassword}
        hint={temporary ? "Временный пароль, с которым вы вошли" : undefined}
      >
        {(a) => (
          <input
            {...a}
            type="password"
            autoComplete="current-password"
            {...register("currentPassword", { required: TEAM_MESSAGES.currentPassword })}
          />
        )}
      </Field>
      <NewPasswordFields register={register} errors={errors} />
      <footer class="dialog-actions">
        {extraActions}
        <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
          Сменить пароль
        </button>
      </footer>
    </form>
  );
}

/** A new password and the same again (they must match): one's own, or
 * the one an invitation sets. */
export function NewPasswordFields<V extends NewPassword>(props: {
  register: UseFormRegister<V>;
  errors: FieldErrors<V>;
}) {
  const register = props.register as unknown as UseFormRegister<NewPassword>;
  const errors = props.errors as FieldErrors<NewPassword>;
  return (
    <>
      <Field label="Новый пароль" required error={errors.password} hint="Не короче 8 символов">
        {(a) => (
          <input
            {...a}
            type="password"
            autoComplete="new-password"
            {...register("password", { validate: checkPassword })}
          />
        )}
      </Field>
      <Field label="Повторите пароль" required error={errors.repeat}>
        {(a) => (
          <input
            {...a}
            type="password"
            autoComplete="new-password"
            {...register("repeat", { validate: (x, all) => checkRepeat(x, all.password) })}
          />
        )}
      </Field>
    </>
  );
}

/** The header's "Сменить пароль": the form in a dialog; the toast says it
 * is done. */
export function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setOpen(false);
    setDirty(false);
  };
  return (
    <>
      <button
        type="button"
        class="secondary outline"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Сменить пароль
      </button>
      {open && (
        <FormDialog
          open
          title="Смена пароля"
          dirty={dirty}
          onClose={close}
          testId="password-dialog"
        >
          <OwnPasswordForm
            onDone={close}
            onDirtyChange={setDirty}
            extraActions={<CancelButton />}
          />
        </FormDialog>
      )}
    </>
  );
}
