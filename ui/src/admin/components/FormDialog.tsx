import { createContext, type ReactNode, useContext, useState } from "react";
import { ConfirmDialog } from "./ConfirmDialog";
import { Modal } from "./Modal";

interface Props {
  open: boolean;
  title: string;
  /** Something was typed: closing asks first. */
  dirty: boolean;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}

const CloseContext = createContext<() => void>(() => {});

/** The dialog's own close, asking first when the form is dirty: for a
 * form's "Отмена" button. */
export function useRequestClose(): () => void {
  return useContext(CloseContext);
}

/** A dialog holding a form. Focus stays inside; Escape and the close button
 * close it, asking first when the form has unsaved changes. */
export function FormDialog({ open, title, dirty, onClose, children, testId }: Props) {
  const [asking, setAsking] = useState(false);
  const requestClose = () => {
    if (dirty) setAsking(true);
    else onClose();
  };
  return (
    <>
      <Modal
        open={open}
        title={title}
        class="form-dialog"
        onRequestClose={requestClose}
        testId={testId}
      >
        <CloseContext.Provider value={requestClose}>{children}</CloseContext.Provider>
      </Modal>
      <ConfirmDialog
        open={open && asking}
        title="Закрыть без сохранения?"
        message="Введённые данные будут потеряны."
        confirmLabel="Закрыть"
        cancelLabel="Продолжить редактирование"
        onConfirm={() => {
          setAsking(false);
          onClose();
        }}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

/** "Отмена" of a form in a FormDialog. */
export function CancelButton({ label = "Отмена" }: { label?: string }) {
  const close = useRequestClose();
  return (
    <button type="button" class="secondary outline" onClick={close}>
      {label}
    </button>
  );
}
