import type { ReactNode } from "react";
import { Modal } from "./Modal";

interface Props {
  open: boolean;
  title: string;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A red confirm button (deleting). */
  destructive?: boolean;
  /** The confirmed action is running: the buttons wait. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before doing something that cannot be undone. Focus starts on
 * "Отмена", so Enter never deletes by accident. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = "Удалить",
  cancelLabel = "Отмена",
  destructive = true,
  busy,
  onConfirm,
  onCancel,
}: Props) {
  return (
    <Modal
      open={open}
      title={title}
      role="alertdialog"
      class="confirm-dialog"
      backdropCloses
      noCloseButton
      onRequestClose={onCancel}
      testId="confirm-dialog"
    >
      {message && <div class="confirm-message">{message}</div>}
      <footer class="dialog-actions">
        <button
          type="button"
          class="secondary outline"
          // biome-ignore lint/a11y/noAutofocus: the safe choice takes focus in a confirmation
          autoFocus
          disabled={busy}
          onClick={onCancel}
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          class={destructive ? "danger" : undefined}
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </footer>
    </Modal>
  );
}
