import { type ReactNode, type RefObject, useId, useLayoutEffect, useRef } from "react";

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]';

/** Keeps Tab inside a modal dialog: from its last control to its first and
 * back (the browser's own modal would let Tab out to its toolbar). For a
 * dialog's onKeyDown. */
export function keepTabInside(e: KeyboardEvent) {
  if (e.key !== "Tab") return;
  const dialog = e.currentTarget as HTMLDialogElement;
  const items = [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !dialog.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

/** Opens a <dialog> as a modal while `open` is true: the browser moves focus
 * into it, keeps it there (the rest of the page is inert) and sends Escape
 * as a cancel. When it closes, or leaves the page still open (its owner
 * unmounted it), focus goes back to the control that opened it. */
export function useModal(
  ref: RefObject<HTMLDialogElement | null>,
  open: boolean,
  onClose: () => void,
): () => void {
  const opener = useRef<HTMLElement | null>(null);
  // The close event comes a moment after close(): by then the owner may
  // have opened it (or another dialog in its place) again.
  const wanted = useRef(open);
  wanted.current = open;
  /** Closes the dialog; focus goes back to the opener unless it is
   * already somewhere else on the page. After the current render: dialogs
   * closing together (a confirmation over a form) have all left by then. */
  const closeAndReturn = (dialog: HTMLDialogElement) => {
    if (dialog.open) dialog.close();
    const el = opener.current;
    opener.current = null;
    queueMicrotask(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if ((lost || dialog.contains(active)) && el?.isConnected) el.focus();
    });
  };

  // Before paint, so a key pressed right after the click reaches the dialog.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    }
    if (!open && dialog.open) closeAndReturn(dialog);
  }, [open]);

  // A layout effect: its cleanup runs while the dialog is still in the page
  // (a passive one would run after the owner removed it).
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      wanted.current = false;
      if (dialog?.open) closeAndReturn(dialog);
    };
  }, []);

  /** The dialog's onClose: only a close the browser made on its own (not
   * one this hook made) is passed on. */
  return () => {
    if (wanted.current && !ref.current?.open) onClose();
  };
}

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A modal on the native <dialog> element (see useModal). */
export function Dialog({ open, title, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closed = useModal(ref, open, onClose);

  return (
    // Escape closes it for keyboards; a click on the backdrop for pointers.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={closed}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      onKeyDown={keepTabInside}
    >
      {open && (
        <article>
          <header>
            <button type="button" class="dialog-close" aria-label="Закрыть" onClick={onClose}>
              ×
            </button>
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
