import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { createPortal } from "react-dom";

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: "success" | "error";
}

const ToastContext = createContext<(toast: ToastMessage) => void>(() => {});
const DismissContext = createContext<(title: string) => void>(() => {});

/** One toast at a time: a new one replaces the shown one. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<(ToastMessage & { id: number }) | null>(null);
  const show = useCallback((t: ToastMessage) => setToast({ ...t, id: Date.now() }), []);
  // Takes away the shown toast if it has this title (an error that a later
  // success has made untrue), leaving any other.
  const dismiss = useCallback(
    (title: string) => setToast((t) => (t && t.title === title ? null : t)),
    [],
  );

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), 6000);
    return () => window.clearTimeout(timer);
  }, [toast]);

  // A modal dialog makes the rest of the page inert and covers it, so while
  // one is open the toast is drawn inside it.
  const [dialog, setDialog] = useState<Element | null>(null);
  useEffect(() => {
    const update = () => setDialog(document.querySelector("dialog[open]"));
    update();
    const observer = new MutationObserver(update);
    // Dialogs open, close and leave the page (unmounted with their owner).
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["open"],
    });
    return () => observer.disconnect();
  }, []);

  const region = (
    <div class="toast-region" aria-live="polite">
      {toast && (
        <div
          class={`toast toast-${toast.variant ?? "success"}`}
          role={toast.variant === "error" ? "alert" : "status"}
          data-testid="toast"
        >
          <strong>{toast.title}</strong>
          {toast.description && <p>{toast.description}</p>}
          <button
            type="button"
            class="toast-close"
            aria-label="Закрыть уведомление"
            onClick={() => setToast(null)}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
  return (
    <ToastContext.Provider value={show}>
      <DismissContext.Provider value={dismiss}>
        {children}
        {dialog ? createPortal(region, dialog) : region}
      </DismissContext.Provider>
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}

/** `dismiss(title)`: takes away the shown toast when it has that title. */
export function useToastDismiss() {
  return useContext(DismissContext);
}
