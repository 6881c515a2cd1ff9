/** A lead's comments in its details: what the staff wrote about it, oldest
 * first, each with its author and Moscow time, and the form that adds one
 * (1 to 2000 characters; the server's refusal is shown at the field). */
import { useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import type { LeadComment } from "../../api/types";
import { applyServerError } from "../components/applyServerError";
import { DetailSection } from "../components/DetailSection";
import { Field } from "../components/Field";
import { errorMessage } from "../errors";
import { longDateTime } from "../lib/dates";
import { checkComment, commentInput, commentsUrl, MAX_COMMENT } from "../lib/lead-comments";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";

interface CommentForm {
  body: string;
}

export function LeadComments({ lead }: { lead: string }) {
  const url = commentsUrl(lead);
  const comments = useAdminQuery<LeadComment[]>(url, { retry: false });
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<CommentForm>({ defaultValues: { body: "" } });
  const add = useAdminMutation(
    (v: CommentForm) => apiPost<LeadComment>(url, commentInput(v.body)),
    {
      success: "Комментарий добавлен",
      onSuccess: (comment) => {
        // Shown at once; the refetch after every write confirms it.
        queryClient.setQueryData<LeadComment[]>([url], (old) =>
          old && !old.some((c) => c.id === comment.id) ? [...old, comment] : old,
        );
        reset({ body: "" });
      },
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось добавить комментарий",
          fields: ["body"],
        }),
    },
  );
  const list = comments.data ?? [];
  return (
    <DetailSection
      title="Комментарии"
      class="lead-comments"
      testId="lead-comments"
      busy={comments.isPending}
    >
      {comments.isPending ? (
        <p class="muted">Загрузка…</p>
      ) : comments.isError ? (
        <p class="muted">{errorMessage(comments.error, "Не удалось загрузить комментарии")}</p>
      ) : list.length === 0 ? (
        <p class="muted" data-testid="lead-comments-empty">
          Комментариев пока нет
        </p>
      ) : (
        <ol class="comment-list">
          {list.map((c) => (
            <li key={c.id} data-testid="lead-comment">
              <p class="comment-meta">
                <strong data-testid="lead-comment-author">{c.authorName}</strong>
                <span class="muted">
                  {" · "}
                  <time dateTime={c.createdAt}>{longDateTime(c.createdAt)}</time>
                </span>
              </p>
              <p class="comment-body" data-testid="lead-comment-body">
                {c.body}
              </p>
            </li>
          ))}
        </ol>
      )}
      <form noValidate onSubmit={handleSubmit((v) => add.mutate(v))}>
        <Field
          label="Новый комментарий"
          error={errors.body}
          hint={`Его увидят все, кто работает с заявкой. До ${MAX_COMMENT} символов.`}
        >
          {(a) => (
            <textarea
              {...a}
              rows={3}
              maxLength={MAX_COMMENT}
              {...register("body", { validate: checkComment })}
            />
          )}
        </Field>
        <button
          type="submit"
          class="secondary"
          aria-busy={add.isPending || undefined}
          disabled={add.isPending}
        >
          Добавить комментарий
        </button>
      </form>
    </DetailSection>
  );
}
