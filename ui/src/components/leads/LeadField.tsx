import { createContext, type ReactNode, useContext, useId } from "react";
import { ApiError } from "../../api/client";

/** The messages of a lead form's wrong fields, by input name. */
export const FieldErrors = createContext<Record<string, string>>({});

/** What a LeadField hands its control. */
export interface LeadControlProps {
  id: string;
  name: string;
  required?: boolean;
  "aria-required"?: true;
  /** Set only on a wrong value: pico marks aria-invalid="false" as valid (green). */
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

interface Props {
  name: string;
  /** Shown as is ('ФИО *': the star is explained at the top of the form). */
  label: string;
  required?: boolean;
  children: (control: LeadControlProps) => ReactNode;
}

/** A label, its control and the control's error message right below it,
 * tied to it with aria-invalid and aria-describedby. */
export function LeadField({ name, label, required, children }: Props) {
  const id = useId();
  const error = useContext(FieldErrors)[name];
  const errorId = `${id}-error`;
  return (
    <>
      <label for={id}>{label}</label>
      {children({
        id,
        name,
        required,
        "aria-required": required || undefined,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? errorId : undefined,
      })}
      {error && (
        <small id={errorId} class="field-error">
          {error}
        </small>
      )}
    </>
  );
}

/** The note that explains the star, once per form. */
export function RequiredNote() {
  return <p class="required-note">Поля, отмеченные *, обязательны для заполнения</p>;
}

/** The field people never see (bots fill it in): sent as `website`. */
export function Honeypot({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = `${useId()}-website`;
  return (
    <div class="hp" aria-hidden="true">
      <label for={id}>Ваш сайт</label>
      <input
        id={id}
        name="website"
        tabIndex={-1}
        autocomplete="off"
        value={value}
        onInput={(e) => onChange((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}

/** Focuses the form's control of that name (the first of a group). */
export function focusField(form: HTMLFormElement, name: string) {
  const el = form.elements.namedItem(name);
  const control = el instanceof RadioNodeList ? el[0] : el;
  if (control instanceof HTMLElement) control.focus();
}

/** Shows a refused submission at its field: the server's message of a 422
 * or 429 (else `failed`), set on and focused at the field it names when that
 * is a field of this form. Gives the message for the toast. */
export function showRefusal(
  error: unknown,
  form: HTMLFormElement,
  failed: string,
  setErrors: (errors: Record<string, string>) => void,
): string {
  const refused =
    error instanceof ApiError &&
    (error.status === 422 || error.status === 429 || error.status === 503);
  const message = refused ? error.message : failed;
  const field = error instanceof ApiError ? error.field : null;
  if (refused && field && field !== "website" && form.elements.namedItem(field)) {
    setErrors({ [field]: message });
    focusField(form, field);
  }
  return message;
}
