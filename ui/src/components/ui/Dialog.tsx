import { type ReactNode, useEffect, useId, useRef } from "react";

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A modal on the native <dialog> element (focus trap and Escape for free). */
export function Dialog({ open, title, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // Escape closes it for keyboards; a click on the backdrop for pointers.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled by onCancel
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
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
