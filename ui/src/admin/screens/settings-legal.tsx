/** The personal-data parts of the settings form (docs/personal-data.md):
 * the operator's section (`#operator`), Google Analytics' switch with its
 * warning (`#analytics`), the placeholders the consent text and the policy
 * may hold, and the link to a text's public page. Saved with the form; the
 * server's refusals are shown at their fields. */
import type { FieldErrors, UseFormRegister, UseFormRegisterReturn } from "react-hook-form";
import { Field } from "../components/Field";
import {
  ANALYTICS_WARNING,
  OPERATOR_HINT,
  type OperatorField,
  operatorRules,
  PLACEHOLDERS,
} from "../lib/operator";

export type OperatorForm = Record<OperatorField, string>;

/** The operator's inputs, by field (a link to `#operator` lands on the
 * first empty one). */
export const OPERATOR_IDS: Record<OperatorField, string> = {
  operatorName: "operator-name",
  operatorInn: "operator-inn",
  operatorOgrn: "operator-ogrn",
  operatorAddress: "operator-address",
};

export const ANALYTICS_SWITCH = "analytics-enabled";

export function OperatorFields({
  register,
  errors,
}: {
  register: UseFormRegister<OperatorForm>;
  errors: FieldErrors<OperatorForm>;
}) {
  return (
    <fieldset id="operator" data-testid="operator-section">
      <legend>Оператор персональных данных</legend>
      <p id="operator-hint" class="muted">
        {OPERATOR_HINT}
      </p>
      <Line
        register={register}
        errors={errors}
        name="operatorName"
        label="Полное наименование оператора"
        hint="Например, Общество с ограниченной ответственностью «Невский Автоцентр»"
      />
      <div class="form-grid">
        <Line
          register={register}
          errors={errors}
          name="operatorInn"
          label="ИНН"
          hint="10 цифр у организации, 12 у ИП"
          numeric
        />
        <Line
          register={register}
          errors={errors}
          name="operatorOgrn"
          label="ОГРН / ОГРНИП"
          hint="13 цифр у организации, 15 у ИП"
          numeric
        />
      </div>
      <Line register={register} errors={errors} name="operatorAddress" label="Юридический адрес" />
    </fieldset>
  );
}

/** One of the operator's details, described by the section's note too; a
 * number (ИНН, ОГРН) without spelling check or autofill. */
function Line({
  register,
  errors,
  name,
  label,
  hint,
  numeric,
}: {
  register: UseFormRegister<OperatorForm>;
  errors: FieldErrors<OperatorForm>;
  name: keyof typeof OPERATOR_IDS;
  label: string;
  hint?: string;
  numeric?: boolean;
}) {
  return (
    <Field
      id={OPERATOR_IDS[name]}
      label={label}
      error={errors[name]}
      hint={hint}
      describedBy="operator-hint"
    >
      {(a) =>
        numeric ? (
          <input
            {...a}
            inputMode="numeric"
            spellcheck={false}
            autoComplete="off"
            {...register(name, operatorRules[name])}
          />
        ) : (
          <input {...a} {...register(name, operatorRules[name])} />
        )
      }
    </Field>
  );
}

/** Google Analytics' switch, with the warning always in sight: the id alone
 * starts nothing (docs/personal-data.md). */
export function AnalyticsSwitch({
  input,
  error,
}: {
  input: UseFormRegisterReturn<"googleAnalyticsEnabled">;
  error?: string;
}) {
  const errorId = `${ANALYTICS_SWITCH}-error`;
  return (
    <div class="field">
      <label>
        <input
          type="checkbox"
          id={ANALYTICS_SWITCH}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} analytics-warning` : "analytics-warning"}
          {...input}
        />
        Включить Google Analytics
      </label>
      {error && (
        <small id={errorId} class="field-error" role="alert">
          {error}
        </small>
      )}
      <p id="analytics-warning" class="notice" role="note" data-testid="analytics-warning">
        {ANALYTICS_WARNING}
      </p>
    </div>
  );
}

export const PLACEHOLDERS_NOTE = "legal-placeholders";

/** The placeholders the consent text and the policy may hold. */
export function PlaceholdersNote() {
  return (
    <div id={PLACEHOLDERS_NOTE} class="muted placeholders-note" data-testid="placeholders-note">
      <p>
        В тексте согласия и в политике можно писать подстановки: сервер заменяет их, когда текст
        читает посетитель. Посетители видят сохранённый текст.
      </p>
      <ul>
        {PLACEHOLDERS.map((p) => (
          <li key={p.code}>
            <code>{p.code}</code> — {p.meaning}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The public page of a text, in a new tab (the form stays as it is). */
export function PreviewLink({ href, what }: { href: string; what: string }) {
  return (
    <p class="legal-preview">
      <a href={href} target="_blank" rel="noopener" data-testid={`preview-${href.slice(1)}`}>
        Посмотреть, как видят посетители
        <span class="visually-hidden"> ({what}, откроется в новой вкладке)</span>
      </a>
    </p>
  );
}
