import { useState } from "react";
import { useForm } from "react-hook-form";
import { Field } from "./components/Field";
import { logIn, loginFailure } from "./session";

interface Values {
  login: string;
  password: string;
}

/** Login and password, both required. The server's refusal (wrong
 * credentials, lockout) or the lost connection is said above the button. */
export function LoginForm({ expired }: { expired?: boolean }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ defaultValues: { login: "", password: "" } });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = handleSubmit(async (v) => {
    setFailure(null);
    try {
      await logIn(v.login.trim(), v.password);
    } catch (e) {
      setFailure(loginFailure(e));
    }
  });

  return (
    <form class="login-form" onSubmit={submit} noValidate data-testid="login-form">
      {expired && (
        <p class="login-expired" data-testid="session-expired">
          Сессия истекла. Войдите снова: несохранённые данные останутся на экране.
        </p>
      )}
      <Field label="Логин" required error={errors.login}>
        {(a) => (
          <input
            {...a}
            {...register("login", {
              validate: (x) => x.trim() !== "" || "Введите логин",
            })}
            autoComplete="username"
            autoCapitalize="none"
            spellcheck={false}
          />
        )}
      </Field>
      <Field label="Пароль" required error={errors.password}>
        {(a) => (
          <input
            {...a}
            {...register("password", { required: "Введите пароль" })}
            type="password"
            autoComplete="current-password"
          />
        )}
      </Field>
      {failure && (
        <p class="field-error" role="alert" data-testid="login-error">
          {failure}
        </p>
      )}
      <button type="submit" aria-busy={isSubmitting || undefined} disabled={isSubmitting}>
        Войти
      </button>
    </form>
  );
}
