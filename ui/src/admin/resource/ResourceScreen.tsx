/** The admin's building block for a list of things with a form: one
 * component, one typed description per resource (`Resource`). It holds the
 * list's load (skeletons, the error panel, the empty state), the search and
 * filter, the cards' edit and delete buttons (named for screen readers), the
 * delete confirmation, the ?edit=<id> link of the self-checks, and the add /
 * edit form (a dialog, or in the list's place) with its uploads, its save and
 * the server's refusals under their fields. A role without `catalogueWrite`
 * sees the list only. A screen writes only what differs: its card, its
 * fields, and extra buttons or a summary passed as props. */
import { Fragment, type ReactNode, useCallback, useState } from "react";
import type { FieldValues } from "react-hook-form";
import { apiDelete } from "../../api/client";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import { useEditLink } from "../hooks";
import { useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import { ResourceFilters } from "./ResourceFilters";
import { ResourceFormView } from "./ResourceForm";
import type { CardContext, Resource } from "./types";
import { initialView, isNarrowed, shownItems, textOf, type ViewState } from "./view";

export type { CardContext, FieldSpec, FieldsProps, Resource, ResourceForm } from "./types";

interface Props<T extends object, V extends FieldValues> {
  resource: Resource<T, V>;
  /** One card. */
  card: (item: T, context: CardContext<T>) => ReactNode;
  /** Buttons before "Изменить" (approve, show / hide). */
  extraActions?: (item: T) => ReactNode;
  /** Between the heading and the list (totals, a note). */
  intro?: (items: T[] | undefined) => ReactNode;
  /** Lays the cards out otherwise (grouped by bank, say). */
  layout?: (items: T[], card: (item: T) => ReactNode) => ReactNode;
}

export function ResourceScreen<T extends object, V extends FieldValues>({
  resource: r,
  card,
  extraActions,
  intro,
  layout,
}: Props<T, V>) {
  const canWrite = useCan(r.writeCapability ?? "catalogueWrite");
  const answer = useAdminQuery<unknown>(r.listUrl, {
    refetchOnWindowFocus: r.refetchOnFocus ?? true,
  });
  const items = answer.data === undefined ? undefined : listOf(r, answer.data);
  const view = r.view ?? {};
  const [state, setState] = useState<ViewState>(() => initialView(view));
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const remove = useAdminMutation((item: T) => apiDelete(r.itemUrl(item)), {
    success: (_, item) => textOf(r.text.deleted, item),
    onSuccess: () => setDeleting(null),
    onFailure: (e) => toastError(errorMessage(e, r.text.deleteFailed), r.text.deleteFailedTitle),
  });
  const dropEditLink = useEditLink({
    path: r.editLink?.path ?? "",
    // Only a role that may change the item opens one from a link.
    items: canWrite && r.editLink ? (items as (T & { id: string })[] | undefined) : undefined,
    open: useCallback((item: T) => setEditing(item), []),
    missing: r.editLink?.missing ?? "",
  });
  const close = () => {
    setEditing(null);
    dropEditLink();
  };
  const editedItem = editing === "new" ? null : editing;
  const formKey = editedItem ? keyOf(r, editedItem) : "new";
  const form =
    editing &&
    canWrite &&
    ("Dialog" in r.form ? (
      <r.form.Dialog key={formKey} item={editedItem} onClose={close} />
    ) : (
      <ResourceFormView
        key={formKey}
        resource={r}
        form={r.form}
        item={editedItem}
        onClose={close}
      />
    ));

  if (form && r.form.inline) {
    return <AdminPage title={textOf(r.text.formTitle, editedItem)}>{form}</AdminPage>;
  }

  const shown = items ? shownItems(items, view, state) : [];
  const context = (item: T): CardContext<T> => ({
    canWrite,
    edit: setEditing,
    remove: setDeleting,
    actions: canWrite ? (
      <CardActions
        resource={r}
        item={item}
        extra={extraActions?.(item)}
        onEdit={() => setEditing(item)}
        onDelete={() => setDeleting(item)}
      />
    ) : null,
  });
  const renderCard = (item: T) => card(item, context(item));
  const List = r.list?.as ?? "div";

  return (
    <AdminPage
      title={r.title}
      count={items ? items.length : null}
      actions={
        canWrite ? (
          <button
            type="button"
            aria-haspopup={r.text.addOpensDialog ? "dialog" : undefined}
            onClick={() => setEditing("new")}
            disabled={(r.text.addWaitsForList && !items) || undefined}
          >
            {r.text.add}
          </button>
        ) : null
      }
    >
      {intro?.(items)}
      <ResourceFilters spec={view} state={state} onChange={setState} />
      {answer.isPending ? (
        <SkeletonCards count={r.skeletons ?? 6} label={r.text.loading} />
      ) : answer.isError ? (
        <ErrorPanel
          error={answer.error}
          title={r.text.loadFailed}
          url={r.listUrl}
          onRetry={() => void answer.refetch()}
        />
      ) : shown.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          {isNarrowed(view, state) ? (r.text.notFound ?? r.text.empty) : r.text.empty}
        </p>
      ) : layout ? (
        layout(shown, renderCard)
      ) : (
        <List class={r.list?.class ?? "admin-grid"} data-testid={r.list?.testId}>
          {shown.map((item) =>
            List === "ul" ? (
              <li key={keyOf(r, item)}>{renderCard(item)}</li>
            ) : (
              <Fragment key={keyOf(r, item)}>{renderCard(item)}</Fragment>
            ),
          )}
        </List>
      )}
      {form}
      <ConfirmDialog
        open={deleting !== null}
        title={r.text.deleteTitle}
        message={deleting ? r.text.deleteMessage(deleting) : null}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

function listOf<T extends object, V extends FieldValues>(r: Resource<T, V>, answer: unknown): T[] {
  return r.items ? r.items(answer as never) : (answer as T[]);
}

function keyOf<T extends object, V extends FieldValues>(r: Resource<T, V>, item: T): string {
  return r.key ? r.key(item) : (item as unknown as { id: string }).id;
}

/** "Изменить" and "Удалить" of a card, named with the item. */
function CardActions<T extends object, V extends FieldValues>({
  resource: r,
  item,
  extra,
  onEdit,
  onDelete,
}: {
  resource: Resource<T, V>;
  item: T;
  extra?: ReactNode;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const name = r.name(item);
  const refused = r.deleteRefused?.(item) ?? null;
  const outline = r.plainActions ? "" : " outline";
  const buttons = (
    <>
      {extra}
      <button
        type="button"
        class={`secondary${outline}`}
        aria-label={`Изменить ${name}`}
        onClick={onEdit}
      >
        Изменить
      </button>
      <button
        type="button"
        class={`danger${outline}`}
        aria-label={`Удалить ${name}`}
        disabled={refused !== null}
        title={refused ?? undefined}
        onClick={onDelete}
      >
        Удалить
      </button>
    </>
  );
  return r.plainActions ? (
    <div class="card-actions">{buttons}</div>
  ) : (
    <footer class="card-actions">{buttons}</footer>
  );
}
