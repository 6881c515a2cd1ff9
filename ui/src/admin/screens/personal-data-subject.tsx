/** A person's phone and e-mail side by side, as a request and a search of
 * personal data take them (either may be left empty, not both). */
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { Field } from "../components/Field";
import { subjectRules } from "../lib/personalData";

interface Subject {
  phone: string;
  email: string;
}

export function SubjectFields<V extends Subject>(props: {
  register: UseFormRegister<V>;
  errors: FieldErrors<V>;
  /** The phone's own hint. */
  phoneHint?: string;
  /** A note both fields are described by. */
  describedBy?: string;
}) {
  const register = props.register as unknown as UseFormRegister<Subject>;
  const errors = props.errors as FieldErrors<Subject>;
  const { phoneHint, describedBy } = props;
  return (
    <div class="form-grid">
      <Field label="Телефон" error={errors.phone} hint={phoneHint} describedBy={describedBy}>
        {(a) => (
          <input
            {...a}
            type="tel"
            autoComplete="off"
            {...register("phone", { validate: subjectRules.phone.validate, deps: "email" })}
          />
        )}
      </Field>
      <Field label="E-mail" error={errors.email} describedBy={describedBy}>
        {(a) => (
          <input
            {...a}
            type="email"
            autoComplete="off"
            spellcheck={false}
            {...register("email", { validate: subjectRules.email.validate, deps: "phone" })}
          />
        )}
      </Field>
    </div>
  );
}
