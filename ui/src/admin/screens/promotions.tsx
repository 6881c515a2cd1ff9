/** Admin promotions: a card grid (image, discount, title, description, valid
 * until, active or not, the ad's mark) with edit and delete; the add / edit
 * form takes the list's place while it is open. */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { Promotion } from "../../api/types";
import { formatDate } from "../../lib/format";
import { useCan } from "../auth";
import { AdFieldset, AdNote } from "../components/AdFieldset";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { useEditLink } from "../hooks";
import { ADVERTISER_HINTS, type AdValues, adPayload, adRules, adValues } from "../lib/ads";
import { moscowToday } from "../lib/creditPrograms";
import { promotionState, promotionStateClass } from "../lib/promotions";
import { promotionRules } from "../lib/rules";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

const LIST = "/api/admin/promotions";

/** Without `catalogueWrite`: the list only (no add, edit or delete). */
export default function PromotionsScreen() {
  const canWrite = useCan("catalogueWrite");
  const promotions = useAdminQuery<Promotion[]>(LIST);
  const today = moscowToday();
  const [editing, setEditing] = useState<Promotion | "new" | null>(null);
  const [deleting, setDeleting] = useState<Promotion | null>(null);
  const remove = useAdminMutation((p: Promotion) => apiDelete(`/api/promotions/${p.id}`), {
    success: "Акция удалена",
    failure: "Не удалось удалить акцию",
    onSuccess: () => setDeleting(null),
  });
  // A self-check's link (?edit=<id>) opens that promotion.
  const dropEditLink = useEditLink({
    path: "/promotions",
    // Only a role that may change promotions opens one from a link.
    items: canWrite ? promotions.data : undefined,
    open: setEditing,
    missing: "Акция не найдена: возможно, её удалили",
  });

  if (editing && canWrite) {
    return (
      <AdminPage title={editing === "new" ? "Новая акция" : "Редактировать акцию"}>
        <PromotionForm
          promotion={editing === "new" ? null : editing}
          onDone={() => {
            setEditing(null);
            dropEditLink();
          }}
        />
      </AdminPage>
    );
  }

  const list = promotions.data ?? [];
  return (
    <AdminPage
      title="Акции"
      count={promotions.data ? list.length : null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing("new")}>
            Добавить акцию
          </button>
        ) : null
      }
    >
      {promotions.isPending ? (
        <SkeletonCards count={6} label="Загрузка акций…" />
      ) : promotions.isError ? (
        <ErrorPanel
          error={promotions.error}
          title="Не удалось загрузить акции"
          url={LIST}
          onRetry={() => void promotions.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          Акции не найдены
        </p>
      ) : (
        <div class="admin-grid">
          {list.map((p) => (
            <article key={p.id} class="admin-card promo-admin-card" data-testid="promotion-card">
              <div class="admin-card-media">
                {p.image ? (
                  <img src={p.image} alt={p.title} loading="lazy" />
                ) : (
                  <span class="admin-placeholder" aria-hidden="true">
                    🎁
                  </span>
                )}
                {p.discount && <span class="badge badge-red media-badge">{p.discount}</span>}
              </div>
              <div class="admin-card-body">
                <h2 class="admin-card-title">{p.title}</h2>
                <span class={`badge ${promotionStateClass(p, today)}`}>
                  {promotionState(p, today)}
                </span>
                <p class="admin-card-text">{p.description}</p>
                {p.validUntil && <p class="muted">Действует до: {formatDate(p.validUntil)}</p>}
                <AdNote {...adValues(p)} />
              </div>
              {canWrite && (
                <footer class="card-actions">
                  <button
                    type="button"
                    class="secondary outline"
                    aria-label={`Изменить акцию: ${p.title}`}
                    onClick={() => setEditing(p)}
                  >
                    Изменить
                  </button>
                  <button
                    type="button"
                    class="danger outline"
                    aria-label={`Удалить акцию: ${p.title}`}
                    onClick={() => setDeleting(p)}
                  >
                    Удалить
                  </button>
                </footer>
              )}
            </article>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить акцию?"
        message={
          deleting && `Акция «${deleting.title}» будет удалена без возможности восстановления.`
        }
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

interface PromotionValues extends AdValues {
  title: string;
  description: string;
  discount: string;
  validUntil: string;
  image: string;
  isActive: boolean;
}

const FIELDS = [
  "title",
  "description",
  "discount",
  "validUntil",
  "image",
  "isActive",
  "adErid",
  "adAdvertiser",
] as const;

function PromotionForm({ promotion, onDone }: { promotion: Promotion | null; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isDirty },
  } = useForm<PromotionValues>({
    defaultValues: {
      title: promotion?.title ?? "",
      description: promotion?.description ?? "",
      discount: promotion?.discount ?? "",
      validUntil: promotion?.validUntil ?? "",
      image: promotion?.image ?? "",
      isActive: promotion?.isActive ?? true,
      ...adValues(promotion),
    },
  });
  const [uploading, setUploading] = useState(false);
  const [asking, setAsking] = useState(false);
  const failure = promotion ? "Не удалось обновить акцию" : "Не удалось создать акцию";
  const save = useAdminMutation(
    (v: PromotionValues) => {
      const body = {
        title: v.title.trim(),
        description: v.description.trim(),
        discount: v.discount.trim(),
        validUntil: v.validUntil.trim(),
        image: v.image,
        isActive: v.isActive,
        ...adPayload(v),
      };
      return promotion
        ? apiPut<Promotion>(`/api/promotions/${promotion.id}`, body)
        : apiPost<Promotion>("/api/promotions", body);
    },
    {
      success: promotion ? "Акция обновлена" : "Акция добавлена",
      onSuccess: onDone,
      onFailure: (e) => applyServerError(setError, e, { fallback: failure, fields: FIELDS }),
    },
  );
  const image = watch("image");

  return (
    <form
      class="admin-form"
      noValidate
      data-testid="promotion-form"
      onSubmit={handleSubmit((v) => save.mutate(v))}
    >
      <Field label="Название" required error={errors.title}>
        {(a) => <input {...a} {...register("title", promotionRules.title)} />}
      </Field>
      <Field label="Описание" required error={errors.description}>
        {(a) => (
          <textarea {...a} rows={4} {...register("description", promotionRules.description)} />
        )}
      </Field>
      <div class="form-grid">
        <Field label="Скидка" error={errors.discount} hint="Например: 10% или 200 000 ₽">
          {(a) => <input {...a} {...register("discount", promotionRules.discount)} />}
        </Field>
        <Field
          label="Действует до"
          error={errors.validUntil}
          hint="Последний день на сайте; после него акция уйдёт сама. Без даты — бессрочно"
        >
          {(a) => (
            <input {...a} type="date" {...register("validUntil", promotionRules.validUntil)} />
          )}
        </Field>
      </div>
      <ImageUpload
        label="Изображение"
        value={image}
        onChange={(url) => setValue("image", url, { shouldDirty: true })}
        error={errors.image}
        onBusyChange={setUploading}
      />
      <label>
        <input
          type="checkbox"
          role="switch"
          aria-checked={watch("isActive")}
          {...register("isActive")}
        />
        Активна (показывается на сайте)
      </label>
      <AdFieldset
        advertiser={register("adAdvertiser", adRules.adAdvertiser)}
        erid={register("adErid", adRules.adErid)}
        errors={errors}
        advertiserHint={ADVERTISER_HINTS.promotion}
      />
      <div class="form-actions">
        <button
          type="submit"
          aria-busy={save.isPending || undefined}
          disabled={save.isPending || uploading}
        >
          Сохранить
        </button>
        <button
          type="button"
          class="secondary outline"
          onClick={() => (isDirty ? setAsking(true) : onDone())}
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
        onConfirm={onDone}
        onCancel={() => setAsking(false)}
      />
    </form>
  );
}
