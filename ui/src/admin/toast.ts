/** Admin toasts: 'Успешно' for done, 'Ошибка' for refused. They are drawn by
 * the site's ToastProvider (one at a time); `notify` also works outside
 * components (the mutation wrappers, applyServerError) once AdminApp has
 * connected the provider. */
import type { ToastMessage } from "../components/ui/Toast";

export const SUCCESS_TITLE = "Успешно";
export const ERROR_TITLE = "Ошибка";

let sink: ((toast: ToastMessage) => void) | null = null;
let dismissSink: ((title: string) => void) | null = null;

export function connectToasts(
  show: ((toast: ToastMessage) => void) | null,
  dismiss: ((title: string) => void) | null = null,
): void {
  sink = show;
  dismissSink = dismiss;
}

export function notify(toast: ToastMessage): void {
  sink?.(toast);
}

export function toastSuccess(description: string, title = SUCCESS_TITLE): void {
  notify({ title, description, variant: "success" });
}

export function toastError(description: string, title = ERROR_TITLE): void {
  notify({ title, description, variant: "error" });
}

/** Takes away the shown toast if it has `title` (a failure a later success
 * made untrue), leaving any other toast. */
export function dismissToast(title: string): void {
  dismissSink?.(title);
}
