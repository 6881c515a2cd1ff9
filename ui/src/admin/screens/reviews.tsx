/** Admin reviews: totals, search, the status filter, review cards with the
 * star rating and the date, approve (pending ones only), add and edit
 * dialogs, delete with confirmation. */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { Review } from "../../api/types";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field, RequiredMark } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { longDateTime } from "../lib/dates";
import {
  filterReviews,
  REVIEW_FILTERS,
  type ReviewFilter,
  reviewTotals,
  stars,
} from "../lib/reviews";
import { reviewRules } from "../lib/rules";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

const LIST = "/api/admin/reviews";

/** Without `catalogueWrite`: the totals and the list only (no add, approve,
 * edit or delete). */
export default function ReviewsScreen() {
  const canWrite = useCan("catalogueWrite");
  const reviews = useAdminQuery<Review[]>(LIST);
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<ReviewFilter>("all");
  const [editing, setEditing] = useState<Review | "new" | null>(null);
  const [deleting, setDeleting] = useState<Review | null>(null);

  const approve = useAdminMutation((r: Review) => apiPut(`/api/reviews/${r.id}/approve`), {
    success: "Отзыв одобрен",
    failure: "Не удалось одобрить отзыв",
  });
  const remove = useAdminMutation((r: Review) => apiDelete(`/api/reviews/${r.id}`), {
    success: "Отзыв удален",
    failure: "Не удалось удалить отзыв",
    onSuccess: () => setDeleting(null),
  });

  const all = reviews.data ?? [];
  const totals = reviewTotals(all);
  const shown = filterReviews(all, query, status);
  const filtered = query.trim() !== "" || status !== "all";

  return (
    <AdminPage
      title="Отзывы"
      count={reviews.data ? totals.all : null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing("new")}>
            Добавить отзыв
          </button>
        ) : null
      }
    >
      <section class="stat-cards" aria-label="Сводка по отзывам">
        <article data-testid="count-all">
          <span class="stat-value">{reviews.data ? totals.all : "—"}</span>
          <span class="stat-note">Всего</span>
        </article>
        <article data-testid="count-approved">
          <span class="stat-value">{reviews.data ? totals.approved : "—"}</span>
          <span class="stat-note">Одобрено</span>
        </article>
        <article data-testid="count-pending">
          <span class="stat-value">{reviews.data ? totals.pending : "—"}</span>
          <span class="stat-note">На модерации</span>
        </article>
      </section>

      <div class="admin-filters" role="search">
        <div>
          <label for="reviews-search">Поиск</label>
          <input
            id="reviews-search"
            type="search"
            placeholder="Имя клиента, текст или модель автомобиля"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="reviews-status-filter">Статус</label>
          <select
            id="reviews-status-filter"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as ReviewFilter)}
          >
            {REVIEW_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {reviews.isPending ? (
        <SkeletonCards count={5} label="Загрузка отзывов…" />
      ) : reviews.isError ? (
        <ErrorPanel
          error={reviews.error}
          title="Не удалось загрузить отзывы"
          url={LIST}
          onRetry={() => void reviews.refetch()}
        />
      ) : shown.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          {filtered ? "Отзывы не найдены" : "Отзывов пока нет"}
        </p>
      ) : (
        <div class="admin-grid review-list">
          {shown.map((r) => (
            <article key={r.id} class="admin-card review-admin-card" data-testid="review-card">
              <header class="review-admin-head">
                <p class="stars" role="img" aria-label={`Оценка ${r.rating} из 5`}>
                  {stars(r.rating)}
                </p>
                <span class={`badge ${r.approved ? "badge-green" : "badge-orange"}`}>
                  {r.approved ? "Одобрен" : "На модерации"}
                </span>
              </header>
              <h2 class="admin-card-title">{r.customerName}</h2>
              {r.carModel && <p class="muted">{r.carModel}</p>}
              {r.photo && (
                <img class="review-photo" src={r.photo} alt={`Фото: ${r.customerName}`} />
              )}
              <p class="review-text">{r.text}</p>
              <p>
                <small class="muted">
                  <time dateTime={r.createdAt}>{longDateTime(r.createdAt)}</time>
                </small>
              </p>
              {canWrite && (
                <footer class="card-actions">
                  {!r.approved && (
                    <button
                      type="button"
                      aria-label={`Одобрить отзыв: ${r.customerName}`}
                      aria-busy={(approve.isPending && approve.variables?.id === r.id) || undefined}
                      disabled={approve.isPending}
                      onClick={() => approve.mutate(r)}
                    >
                      Одобрить
                    </button>
                  )}
                  <button
                    type="button"
                    class="secondary outline"
                    aria-label={`Изменить отзыв: ${r.customerName}`}
                    onClick={() => setEditing(r)}
                  >
                    Изменить
                  </button>
                  <button
                    type="button"
                    class="danger outline"
                    aria-label={`Удалить отзыв: ${r.customerName}`}
                    onClick={() => setDeleting(r)}
                  >
                    Удалить
                  </button>
                </footer>
              )}
            </article>
          ))}
        </div>
      )}

      {editing && canWrite && (
        <ReviewDialog
          key={editing === "new" ? "new" : editing.id}
          review={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить отзыв?"
        message={
          deleting &&
          `Отзыв клиента «${deleting.customerName}» будет удалён без возможности восстановления.`
        }
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

interface ReviewValues {
  customerName: string;
  carModel: string;
  rating: string;
  text: string;
  photo: string;
  approved: boolean;
}

const FIELDS = ["customerName", "carModel", "rating", "text", "photo", "approved"] as const;

/** The add / edit dialog. The approval box is there only when editing. */
function ReviewDialog({ review, onClose }: { review: Review | null; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isDirty },
  } = useForm<ReviewValues>({
    defaultValues: {
      customerName: review?.customerName ?? "",
      carModel: review?.carModel ?? "",
      rating: String(review?.rating ?? 5),
      text: review?.text ?? "",
      photo: review?.photo ?? "",
      approved: review?.approved ?? false,
    },
  });
  const [uploading, setUploading] = useState(false);
  const save = useAdminMutation(
    (v: ReviewValues) => {
      const body = {
        customerName: v.customerName.trim(),
        carModel: v.carModel.trim() || null,
        rating: Number(v.rating),
        text: v.text.trim(),
        photo: v.photo || null,
        ...(review ? { approved: v.approved } : {}),
      };
      return review
        ? apiPut<Review>(`/api/reviews/${review.id}`, body)
        : apiPost<Review>("/api/reviews", body);
    },
    {
      success: review ? "Отзыв обновлен" : "Отзыв добавлен",
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, { fallback: "Не удалось сохранить отзыв", fields: FIELDS }),
    },
  );
  const rating = watch("rating");
  const photo = watch("photo");

  return (
    <FormDialog
      open
      title={review ? "Редактировать отзыв" : "Новый отзыв"}
      dirty={isDirty}
      onClose={onClose}
      testId="review-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <Field label="Имя клиента" required error={errors.customerName}>
          {(a) => <input {...a} {...register("customerName", reviewRules.customerName)} />}
        </Field>
        <Field label="Модель автомобиля" error={errors.carModel}>
          {(a) => <input {...a} {...register("carModel", reviewRules.carModel)} />}
        </Field>
        <fieldset class="star-input" aria-describedby={errors.rating ? "rating-error" : undefined}>
          <legend>
            Оценка
            <RequiredMark />
          </legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} class={Number(rating) >= n ? "on" : undefined}>
              <input
                type="radio"
                value={String(n)}
                class="visually-hidden"
                {...register("rating", reviewRules.rating)}
              />
              <span aria-hidden="true">★</span>
              <span class="visually-hidden">{`${n} из 5`}</span>
            </label>
          ))}
          {errors.rating && (
            <small id="rating-error" class="field-error" role="alert">
              {errors.rating.message}
            </small>
          )}
        </fieldset>
        <Field label="Текст отзыва" required error={errors.text}>
          {(a) => <textarea {...a} rows={5} {...register("text", reviewRules.text)} />}
        </Field>
        <ImageUpload
          label="Фото"
          value={photo}
          onChange={(url) => setValue("photo", url, { shouldDirty: true })}
          error={errors.photo}
          onBusyChange={setUploading}
        />
        {review && (
          <label>
            <input
              type="checkbox"
              role="switch"
              aria-checked={watch("approved")}
              {...register("approved")}
            />
            Одобрен (показывается на сайте)
          </label>
        )}
        <footer class="dialog-actions">
          <CancelButton />
          <button
            type="submit"
            aria-busy={save.isPending || undefined}
            disabled={save.isPending || uploading}
          >
            Сохранить
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
