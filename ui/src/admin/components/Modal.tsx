import { type ReactNode, useId, useRef } from "react";
import { keepTabInside, useModal } from "../../components/ui/Dialog";

interface Props {
  open: boolean;
  title: string;
  /** Escape, the close button (and, when `backdropCloses`, a click outside). */
  onRequestClose: () => void;
  children: ReactNode;
  class?: string;
  role?: "dialog" | "alertdialog";
  /** No close button and Escape does nothing (the login over an expired session). */
  locked?: boolean;
  backdropCloses?: boolean;
  /** No × button (a confirmation has its own "Отмена"). */
  noCloseButton?: boolean;
  testId?: string;
}

/** A modal on the native <dialog> (`useModal`): the rest of the page is
 * inert while it is open, so focus stays inside and goes back to its opener
 * after; a later modal (a confirmation, the login) is drawn above an earlier
 * one. */
export function Modal({
  open,
  title,
  onRequestClose,
  children,
  class: className,
  role = "dialog",
  locked,
  backdropCloses,
  noCloseButton,
  testId,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The browser may close a modal on its own (a repeated Escape): while it
  // should be open, it opens again and that counts as a request to close.
  const closed = useModal(ref, open, () => {
    const dialog = ref.current;
    if (!dialog?.isConnected) return;
    dialog.showModal();
    if (!locked) onRequestClose();
  });

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      class={className}
      data-testid={testId}
      onClose={closed}
      onCancel={(e) => {
        e.preventDefault();
        if (!locked) onRequestClose();
      }}
      onClick={(e) => {
        if (backdropCloses && !locked && e.target === ref.current) onRequestClose();
      }}
      onKeyDown={keepTabInside}
    >
      {open && (
        <article>
          <header>
            {!locked && !noCloseButton && (
              <button
                type="button"
                class="dialog-close"
                aria-label="Закрыть"
                onClick={onRequestClose}
              >
                ×
              </button>
            )}
            <h2 id={titleId} class="dialog-title">
              {title}
            </h2>
          </header>
          {children}
        </article>
      )}
    </dialog>
  );
}
