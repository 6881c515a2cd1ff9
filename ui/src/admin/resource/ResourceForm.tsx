/** The add / edit form of a resource: its fields (drawn from the
 * description's `fields`) in a dialog, or in the list's place (`inline`), the save (POST
 * or PUT), the wait for uploads, and the server's refusals under their
 * fields (applyServerError). */
import { useCallback, useState } from "react";
import { type DefaultValues, type FieldValues, useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { queryClient, useAdminMutation } from "../query";
import { fieldNames, formBody, formValues } from "./fields";
import { SpecFields } from "./SpecFields";
import type { FieldsForm, Resource, ResourceForm } from "./types";
import { textOf } from "./view";

/** The add / edit form: in a dialog, or in the list's place (`inline`). */
export function ResourceFormView<T extends object, V extends FieldValues>({
  resource: r,
  form: spec,
  item,
  onClose,
}: {
  resource: Resource<T, V>;
  form: FieldsForm<T, V>;
  item: T | null;
  onClose: () => void;
}) {
  const { fields: specs, values, body } = spec;
  const methods = useForm<V>({
    defaultValues: values ? values(item) : (formValues(specs, item) as DefaultValues<V>),
    mode: spec.mode,
  });
  const [uploads, setUploads] = useState(0);
  const busy = useCallback((b: boolean) => setUploads((n) => n + (b ? 1 : -1)), []);
  const [asking, setAsking] = useState(false);
  const save = useAdminMutation(
    async (v: V) => {
      const sent = body ? body(v, item) : formBody(specs, v, item);
      const saved = await (item ? apiPut<T>(r.itemUrl(item), sent) : apiPost<T>(r.createUrl, sent));
      // The list is read again before the form closes: the cards show what
      // was saved the moment it is gone (a failed read keeps the old list).
      await queryClient.refetchQueries({ queryKey: [r.listUrl] });
      return saved;
    },
    {
      success: (saved) => textOf(item ? r.text.updated : r.text.created, saved),
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(methods.setError, e, {
          fallback: textOf(r.text.saveFailed, item),
          title: r.text.saveFailedTitle && textOf(r.text.saveFailedTitle, item),
          fields: fieldNames(specs),
        }),
    },
  );
  const form = { ...methods, busy } as unknown as ResourceForm<FieldValues>;
  const fields = <SpecFields fields={specs} rules={spec.rules} form={form} item={item} />;
  const submit = (
    <button
      type="submit"
      aria-busy={save.isPending || undefined}
      disabled={save.isPending || uploads > 0}
    >
      {spec.submit ?? "Сохранить"}
    </button>
  );
  const onSubmit = methods.handleSubmit((v) => save.mutate(v));
  const { isDirty } = methods.formState;

  if (spec.inline) {
    return (
      <form class="admin-form" noValidate data-testid={spec.testId} onSubmit={onSubmit}>
        {fields}
        <div class="form-actions">
          {submit}
          <button
            type="button"
            class="secondary outline"
            onClick={() => (isDirty ? setAsking(true) : onClose())}
          >
            Отмена
          </button>
        </div>
        <ConfirmDialog
          open={asking}
          title="Закрыть без сохранения?"
          message="Введённые данные будут потеряны."
          confirmLabel="Закрыть"
          cancelLabel="Продолжить редактирование"
          onConfirm={onClose}
          onCancel={() => setAsking(false)}
        />
      </form>
    );
  }
  return (
    <FormDialog
      open
      title={textOf(r.text.formTitle, item)}
      dirty={isDirty}
      onClose={onClose}
      testId={spec.testId}
    >
      <form noValidate onSubmit={onSubmit}>
        {fields}
        <footer class="dialog-actions">
          <CancelButton />
          {submit}
        </footer>
      </form>
    </FormDialog>
  );
}
