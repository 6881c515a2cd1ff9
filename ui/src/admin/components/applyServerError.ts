import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { errorMessage, isSilent, serverField } from "../errors";
import { toastError } from "../toast";

export interface ServerErrorOptions {
  /** The 'Ошибка' toast's text when the server gave no message of its own. */
  fallback?: string;
  /** The form's fields: a refusal naming another field becomes a toast. */
  fields?: readonly string[];
  /** The toast's title ('Ошибка' by default). */
  title?: string;
}

/** Shows a failed save where it belongs: a refusal that names a field of the
 * form (`{"error", "field"}`, 422) is that field's message, focused; any
 * other failure is an 'Ошибка' toast; an expired session is left to the
 * login gate. Returns whether the message went to a field. */
export function applyServerError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  options: ServerErrorOptions = {},
): boolean {
  if (isSilent(error)) return false;
  const field = serverField(error, options.fields);
  if (field) {
    setError(
      field as Path<T>,
      { type: "server", message: (error as Error).message },
      { shouldFocus: true },
    );
    return true;
  }
  toastError(errorMessage(error, options.fallback ?? "Не удалось сохранить"), options.title);
  return false;
}
