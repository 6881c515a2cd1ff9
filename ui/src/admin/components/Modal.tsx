import { type ReactNode, useId, useLayoutEffect, useRef } from "react";
import { keepTabInside } from "../../components/ui/Dialog";

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

/** A modal on the native <dialog>: the rest of the page is inert while it is
 * open, so focus stays inside; a later modal (a confirmation, the login) is
 * drawn above an earlier one. */
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
  const opener = useRef<Element | null>(null);
  // Back to the control that opened it, when it is still there and focus
  // is not already somewhere else on the page. After the current render:
  // dialogs closing together (a confirmation over a form) have all left by
  // then.
  const closeAndReturn = (dialog: HTMLDialogElement) => {
    dialog.close();
    const back = opener.current as HTMLElement | null;
    queueMicrotask(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if ((lost || dialog.contains(active)) && back?.isConnected) back.focus();
    });
  };
  const wanted = useRef(open);
  wanted.current = open;

  // Before paint: the dialog is open (or closed) as soon as it is drawn, so a
  // key pressed right after a click reaches the right one.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    }
    if (!open && dialog.open) closeAndReturn(dialog);
  }, [open]);

  // Unmounted while open (its screen closed it by leaving it out): focus
  // still goes back to the opener rather than to the page's body. A layout
  // effect, so this runs while the dialog is still in the page.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) closeAndReturn(dialog);
    };
  }, []);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      class={className}
      data-testid={testId}
      onClose={() => {
        // The browser may close a modal on its own (a repeated Escape):
        // while it should be open, it opens again and that counts as a
        // request to close.
        const dialog = ref.current;
        if (wanted.current && dialog?.isConnected && !dialog.open) {
          dialog.showModal();
          if (!locked) onRequestClose();
        }
      }}
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
