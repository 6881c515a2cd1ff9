import { type ReactNode, useId } from "react";
import type { FieldError } from "react-hook-form";

/** What a Field hands its control: its id and the attributes that tie it to
 * the label, the hint and the error. */
export interface FieldControlProps {
  id: string;
  /** Set only on a wrong value: pico marks aria-invalid="false" as valid (green). */
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  "aria-required"?: boolean;
}

interface Props {
  label: string;
  /** The control's id when a link points at it (`/admin/settings#consent`);
   * a generated one otherwise. */
  id?: string;
  required?: boolean;
  /** react-hook-form's error of the field, or a message. */
  error?: FieldError | string | null;
  hint?: ReactNode;
  /** Ids of descriptions outside the field (a note of its section), read
   * after its own hint. */
  describedBy?: string;
  class?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** A labelled form control: the label (with a required marker that screen
 * readers announce), the control, a hint and the error message, tied to the
 * control with aria-describedby and aria-invalid. */
export function Field({
  label,
  id: fixedId,
  required,
  error,
  hint,
  describedBy: more,
  class: className,
  children,
}: Props) {
  const generated = useId();
  const id = fixedId ?? generated;
  const message = typeof error === "string" ? error : error?.message;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId, more].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${className ? ` ${className}` : ""}`}>
      <label for={id}>
        {label}
        {required && <RequiredMark />}
      </label>
      {children({
        id,
        "aria-invalid": message ? true : undefined,
        "aria-describedby": describedBy,
        "aria-required": required || undefined,
      })}
      {message && (
        <small id={errorId} class="field-error" role="alert">
          {message}
        </small>
      )}
      {hint && <small id={hintId}>{hint}</small>}
    </div>
  );
}

/** ' *' on screen; 'обязательное поле' for screen readers. */
export function RequiredMark() {
  return (
    <>
      <span aria-hidden="true"> *</span>
      <span class="visually-hidden"> (обязательное поле)</span>
    </>
  );
}
