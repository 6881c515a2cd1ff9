/** Admin reviews: totals, search, the status filter, review cards with the
 * star rating and the date, approve (pending ones only), add and edit
 * dialogs, delete with confirmation. Without `catalogueWrite`: the totals
 * and the list only. */

import type { FieldValues } from "react-hook-form";
import { apiPut } from "../../api/client";
import type { Review } from "../../api/types";
import { RequiredMark } from "../components/Field";
import { longDateTime } from "../lib/dates";
import { REVIEW_VIEW, reviewTotals, stars } from "../lib/reviews";
import { reviewRules } from "../lib/rules";
import { useAdminMutation } from "../query";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import "./content.css";

const APPROVED = "Одобрен (показывается на сайте)";

const REVIEWS: Resource<Review> = {
  title: "Отзывы",
  listUrl: "/api/admin/reviews",
  createUrl: "/api/reviews",
  itemUrl: (r) => `/api/reviews/${r.id}`,
  name: (r) => `отзыв: ${r.customerName}`,
  text: {
    add: "Добавить отзыв",
    loading: "Загрузка отзывов…",
    loadFailed: "Не удалось загрузить отзывы",
    empty: "Отзывов пока нет",
    notFound: "Отзывы не найдены",
    deleteTitle: "Удалить отзыв?",
    deleteMessage: (r) =>
      `Отзыв клиента «${r.customerName}» будет удалён без возможности восстановления.`,
    deleted: "Отзыв удален",
    deleteFailed: "Не удалось удалить отзыв",
    formTitle: (r) => (r ? "Редактировать отзыв" : "Новый отзыв"),
    created: "Отзыв добавлен",
    updated: "Отзыв обновлен",
    saveFailed: "Не удалось сохранить отзыв",
  },
  skeletons: 5,
  view: REVIEW_VIEW,
  list: { class: "admin-grid review-list" },
  form: {
    testId: "review-dialog",
    rules: reviewRules,
    fields: [
      { name: "customerName", label: "Имя клиента", required: true },
      { name: "carModel", label: "Модель автомобиля", send: "nullIfEmpty" },
      { kind: "custom", name: "rating", initial: "5", send: "number", Component: Stars },
      { name: "text", kind: "textarea", label: "Текст отзыва", required: true, rows: 5 },
      { name: "photo", kind: "image", label: "Фото", send: "nullIfEmpty" },
      { name: "approved", kind: "switch", label: APPROVED, editOnly: true },
    ],
  },
};

export default function ReviewsScreen() {
  const approve = useAdminMutation((r: Review) => apiPut(`/api/reviews/${r.id}/approve`), {
    success: "Отзыв одобрен",
    failure: "Не удалось одобрить отзыв",
  });
  return (
    <ResourceScreen
      resource={REVIEWS}
      intro={(all) => <Totals reviews={all} />}
      extraActions={(r) =>
        !r.approved && (
          <button
            type="button"
            aria-label={`Одобрить отзыв: ${r.customerName}`}
            aria-busy={(approve.isPending && approve.variables?.id === r.id) || undefined}
            disabled={approve.isPending}
            onClick={() => approve.mutate(r)}
          >
            Одобрить
          </button>
        )
      }
      card={(r, { actions }) => (
        <article class="admin-card review-admin-card" data-testid="review-card">
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
          {r.photo && <img class="review-photo" src={r.photo} alt={`Фото: ${r.customerName}`} />}
          <p class="review-text">{r.text}</p>
          <p>
            <small class="muted">
              <time dateTime={r.createdAt}>{longDateTime(r.createdAt)}</time>
            </small>
          </p>
          {actions}
        </article>
      )}
    />
  );
}

function Totals({ reviews }: { reviews: Review[] | undefined }) {
  const totals = reviewTotals(reviews ?? []);
  const figure = (n: number) => (reviews ? n : "—");
  return (
    <section class="stat-cards" aria-label="Сводка по отзывам">
      <article data-testid="count-all">
        <span class="stat-value">{figure(totals.all)}</span>
        <span class="stat-note">Всего</span>
      </article>
      <article data-testid="count-approved">
        <span class="stat-value">{figure(totals.approved)}</span>
        <span class="stat-note">Одобрено</span>
      </article>
      <article data-testid="count-pending">
        <span class="stat-value">{figure(totals.pending)}</span>
        <span class="stat-note">На модерации</span>
      </article>
    </section>
  );
}

/** The rating: five stars, each a radio button. */
function Stars({ form }: FieldsProps<Review, FieldValues>) {
  const { errors } = form.formState;
  const rating = form.watch("rating");
  return (
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
            {...form.register("rating", reviewRules.rating)}
          />
          <span aria-hidden="true">★</span>
          <span class="visually-hidden">{`${n} из 5`}</span>
        </label>
      ))}
      {errors.rating && (
        <small id="rating-error" class="field-error" role="alert">
          {String(errors.rating.message)}
        </small>
      )}
    </fieldset>
  );
}
