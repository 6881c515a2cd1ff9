/** The team's add and edit dialogs (docs/admin.md, "The team"): name,
 * login, role, the person's e-mail and working hours, and for a new member
 * the way they get in. The server's refusals are shown at their fields. */
import { useEffect, useState } from "react";
import {
  type FieldError,
  type UseFormRegisterReturn,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import type { StaffAnswer, StaffChange, StaffUser, WorkSchedule } from "../../api/types";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { FormDialog } from "../components/FormDialog";
import { scheduleForm } from "../lib/schedule";
import { hoursError } from "../lib/staff-hours";
import {
  accountName,
  type ContactValues,
  checkName,
  checkRole,
  checkUsername,
  EDIT_USER_FIELDS,
  editUserValues,
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
import { AccessChoice, DialogActions, InvitationResult, temporaryPassword } from "./users-access";
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

/** The form of either dialog: the salon's schedule taken in when it
 * arrives after the dialog opened (unless the hours were touched), and a
 * submit that checks the person's own hours first (their message belongs
 * to no single input: it is cleared before each try, or react-hook-form
 * refuses to submit). */
function useStaffForm<V extends ContactValues>(defaultValues: V, salon: WorkSchedule | undefined) {
  const form = useForm<ContactValues>({ defaultValues });
  const { getValues, getFieldState, resetField, clearErrors, setError, handleSubmit } = form;
  useEffect(() => {
    if (salon && getValues("hours") === "salon" && !getFieldState("workSchedule").isDirty) {
      resetField("workSchedule", { defaultValue: scheduleForm(salon) });
    }
  }, [salon, getValues, getFieldState, resetField]);
  const submit = (save: (v: V) => void) => (e: Event) => {
    clearErrors("workSchedule");
    return handleSubmit((v) => {
      const wrong = hoursError(v);
      if (wrong) setError("workSchedule", { type: "validate", message: wrong });
      else save(v as V);
    })(e);
  };
  return { ...(form as unknown as UseFormReturn<V>), submit };
}

/** The name, as the panel and the leads show it. */
function NameField({
  field,
  error,
}: {
  field: UseFormRegisterReturn;
  error: FieldError | undefined;
}) {
  return (
    <Field label="Имя" error={error} hint={NAME_HINT}>
      {(a) => <input {...a} autoComplete="off" {...field} />}
    </Field>
  );
}

/** The role, from the roles' list. */
function RoleField({
  field,
  error,
  hint,
  choose,
}: {
  field: UseFormRegisterReturn;
  error: FieldError | undefined;
  hint?: string;
  /** The empty first option of a new member's role. */
  choose?: string;
}) {
  return (
    <Field label="Роль" required error={error} hint={hint}>
      {(a) => (
        <select {...a} {...field}>
          {choose && <option value="">{choose}</option>}
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function AddUserDialog({ salon, onClose }: DialogProps) {
  const { register, setError, watch, submit, formState } = useStaffForm(
    newUserValues(salon),
    salon,
  );
  const { errors, isDirty } = formState;
  const [result, setResult] = useState<StaffAnswer | null>(null);
  const save = useAdminMutation(
    (v: NewUserValues) => apiPost<StaffAnswer>(USERS_URL, newUserInput(v)),
    {
      success: "Учётная запись создана",
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
          message={`Учётная запись ${accountName(result.user)} создана. Войти можно, задав пароль по ссылке.`}
          url={result.invitationUrl}
          onClose={onClose}
        />
      ) : (
        <form noValidate onSubmit={submit((v) => save.mutate(v))}>
          <NameField field={register("name", { validate: checkName })} error={errors.name} />
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
          <RoleField
            field={register("role", { validate: checkRole })}
            error={errors.role}
            choose="Выберите роль"
          />
          <ContactFields
            register={register}
            errors={errors}
            hours={watch("hours")}
            days={watch("workSchedule")}
          />
          <AccessChoice
            legend="Как сотрудник получит доступ"
            inviteLabel="Пригласить по ссылке"
            method={watch("method")}
            methodField={register("method")}
            passwordField={register("password", temporaryPassword)}
            error={errors.password}
          />
          <DialogActions busy={save.isPending} label="Добавить" />
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
  const { register, setError, watch, submit, formState } = useStaffForm(
    editUserValues(user, salon),
    salon,
  );
  const { errors, isDirty } = formState;
  const save = useAdminMutation(
    (change: StaffChange) => apiPut<StaffUser>(userUrl(user.id), change),
    {
      success: "Учётная запись изменена",
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
        onSubmit={submit((v) => {
          const change = staffChange(user, v);
          if (change) save.mutate(change);
          else onClose();
        })}
      >
        <NameField field={register("name", { validate: checkName })} error={errors.name} />
        <RoleField
          field={register("role", { validate: checkRole })}
          error={errors.role}
          hint={
            user.username === me
              ? "Это ваша учётная запись: с другой ролью раздел «Пользователи» станет недоступен"
              : undefined
          }
        />
        <ContactFields
          register={register}
          errors={errors}
          hours={watch("hours")}
          days={watch("workSchedule")}
        />
        <DialogActions busy={save.isPending} label="Сохранить" />
      </form>
    </FormDialog>
  );
}
