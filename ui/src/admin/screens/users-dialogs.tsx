/** The team's add and edit dialogs (docs/admin.md, "The team"): name,
 * login, role, the person's e-mail and working hours, and for a new member
 * the way they get in. The server's refusals are shown at their fields. */
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import type { StaffAnswer, StaffChange, StaffUser, WorkSchedule } from "../../api/types";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { scheduleForm } from "../lib/schedule";
import { hoursError } from "../lib/staff-hours";
import {
  checkName,
  checkRole,
  checkUsername,
  EDIT_USER_FIELDS,
  type EditUserValues,
  editUserValues,
  fullName,
  NEW_USER_FIELDS,
  type NewUserValues,
  newUserInput,
  newUserValues,
  ROLES,
  staffChange,
  USERS_URL,
  userUrl,
} from "../lib/team";
import { useAdminMutation } from "../query";
import { ROLE_LABELS } from "../roles";
import { checkSession } from "../session";
import { AccessChoice, InvitationResult, temporaryPassword } from "./users-access";
import { ContactFields } from "./users-hours";

/** After a change of one's own account the session is read again (a new
 * name or role in the header, the screens of the new role). */
function refreshIfMe(user: StaffUser, me: string | null): void {
  if (user.username === me) void checkSession().catch(() => {});
}

interface DialogProps {
  /** The salon's schedule (settings), which "Свои часы" starts from; not
   * known yet while undefined. */
  salon: WorkSchedule | undefined;
  onClose: () => void;
}

const NAME_HINT = "Как показывать сотрудника в панели и в заявках";

export function AddUserDialog({ salon, onClose }: DialogProps) {
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    watch,
    getValues,
    getFieldState,
    resetField,
    formState: { errors, isDirty },
  } = useForm<NewUserValues>({ defaultValues: newUserValues(salon) });
  // The salon's schedule arrived after the dialog opened: the editor starts
  // from it (unless already touched).
  useEffect(() => {
    if (salon && getValues("hours") === "salon" && !getFieldState("workSchedule").isDirty) {
      resetField("workSchedule", { defaultValue: scheduleForm(salon) });
    }
  }, [salon, getValues, getFieldState, resetField]);
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
        <form
          noValidate
          onSubmit={(e) => {
            // The schedule's message belongs to no single input: it is
            // cleared before each try, or react-hook-form refuses to submit.
            clearErrors("workSchedule");
            return handleSubmit((v) => {
              const wrong = hoursError(v);
              if (wrong) setError("workSchedule", { type: "validate", message: wrong });
              else save.mutate(v);
            })(e);
          }}
        >
          <Field label="Имя" error={errors.name} hint={NAME_HINT}>
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
          <ContactFields
            register={register}
            errors={errors}
            hours={watch("hours")}
            days={watch("workSchedule")}
          />
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

export function EditUserDialog({
  user,
  me,
  salon,
  onClose,
}: DialogProps & { user: StaffUser; me: string | null }) {
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    watch,
    getValues,
    getFieldState,
    resetField,
    formState: { errors, isDirty },
  } = useForm<EditUserValues>({ defaultValues: editUserValues(user, salon) });
  useEffect(() => {
    if (salon && getValues("hours") === "salon" && !getFieldState("workSchedule").isDirty) {
      resetField("workSchedule", { defaultValue: scheduleForm(salon) });
    }
  }, [salon, getValues, getFieldState, resetField]);
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
        onSubmit={(e) => {
          clearErrors("workSchedule");
          return handleSubmit((v) => {
            const wrong = hoursError(v);
            if (wrong) {
              setError("workSchedule", { type: "validate", message: wrong });
              return;
            }
            const change = staffChange(user, v);
            if (change) save.mutate(change);
            else onClose();
          })(e);
        }}
      >
        <Field label="Имя" error={errors.name} hint={NAME_HINT}>
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
        <ContactFields
          register={register}
          errors={errors}
          hours={watch("hours")}
          days={watch("workSchedule")}
        />
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
