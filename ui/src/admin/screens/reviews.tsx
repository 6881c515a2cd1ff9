/** Admin reviews: totals, search, the status filter, review cards with the
 * star rating and the date, approve (pending ones only), add and edit
 * dialogs, delete with confirmation. Without `catalogueWrite`: the totals
 * and the list only. */
import { apiPut } from "../../api/client";
import type { Review } from "../../api/types";
import { Field, RequiredMark } from "../components/Field";
import { longDateTime } from "../lib/dates";
import { REVIEW_VIEW, reviewTotals, stars } from "../lib/reviews";
import { reviewRules } from "../lib/rules";
import { useAdminMutation } from "../query";
import { ImageField } from "../resource/ImageField";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import { SwitchField } from "../resource/SwitchField";
import "./content.css";

interface ReviewValues {
  customerName: string;
  carModel: string;
  rating: string;
  text: string;
  photo: string;
  approved: boolean;
}

const REVIEWS: Resource<Review, ReviewValues> = {
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
    values: (r) => ({
      customerName: r?.customerName ?? "",
      carModel: r?.carModel ?? "",
      rating: String(r?.rating ?? 5),
      text: r?.text ?? "",
      photo: r?.photo ?? "",
      approved: r?.approved ?? false,
    }),
    fields: ["customerName", "carModel", "rating", "text", "photo", "approved"],
    body: (v, r) => ({
      customerName: v.customerName.trim(),
      carModel: v.carModel.trim() || null,
      rating: Number(v.rating),
      text: v.text.trim(),
      photo: v.photo || null,
      ...(r ? { approved: v.approved } : {}),
    }),
    Fields: ReviewFields,
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

/** The approval box is there only when editing. */
function ReviewFields({ form, item: review }: FieldsProps<Review, ReviewValues>) {
  const { register, watch } = form;
  const { errors } = form.formState;
  const rating = watch("rating");
  return (
    <>
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
      <ImageField form={form} name="photo" label="Фото" />
      {review && (
        <SwitchField form={form} name="approved">
          Одобрен (показывается на сайте)
        </SwitchField>
      )}
    </>
  );
}
