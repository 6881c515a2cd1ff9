/** Admin promotions: a card grid (image, discount, title, description, valid
 * until, active or not, the ad's mark) with edit and delete; the add / edit
 * form takes the list's place while it is open. Without `catalogueWrite`:
 * the list only. */
import type { Promotion } from "../../api/types";
import { formatDate } from "../../lib/format";
import { AdFieldset, AdNote } from "../components/AdFieldset";
import { Field } from "../components/Field";
import { ADVERTISER_HINTS, type AdValues, adPayload, adRules, adValues } from "../lib/ads";
import { moscowToday } from "../lib/creditPrograms";
import { promotionState, promotionStateClass } from "../lib/promotions";
import { promotionRules } from "../lib/rules";
import { ImageField } from "../resource/ImageField";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import { SwitchField } from "../resource/SwitchField";
import "./content.css";

interface PromotionValues extends AdValues {
  title: string;
  description: string;
  discount: string;
  validUntil: string;
  image: string;
  isActive: boolean;
}

const PROMOTIONS: Resource<Promotion, PromotionValues> = {
  title: "Акции",
  listUrl: "/api/admin/promotions",
  createUrl: "/api/promotions",
  itemUrl: (p) => `/api/promotions/${p.id}`,
  editLink: { path: "/promotions", missing: "Акция не найдена: возможно, её удалили" },
  name: (p) => `акцию: ${p.title}`,
  text: {
    add: "Добавить акцию",
    loading: "Загрузка акций…",
    loadFailed: "Не удалось загрузить акции",
    empty: "Акции не найдены",
    deleteTitle: "Удалить акцию?",
    deleteMessage: (p) => `Акция «${p.title}» будет удалена без возможности восстановления.`,
    deleted: "Акция удалена",
    deleteFailed: "Не удалось удалить акцию",
    formTitle: (p) => (p ? "Редактировать акцию" : "Новая акция"),
    created: "Акция добавлена",
    updated: "Акция обновлена",
    saveFailed: (p) => (p ? "Не удалось обновить акцию" : "Не удалось создать акцию"),
  },
  form: {
    testId: "promotion-form",
    inline: true,
    values: (p) => ({
      title: p?.title ?? "",
      description: p?.description ?? "",
      discount: p?.discount ?? "",
      validUntil: p?.validUntil ?? "",
      image: p?.image ?? "",
      isActive: p?.isActive ?? true,
      ...adValues(p),
    }),
    fields: [
      "title",
      "description",
      "discount",
      "validUntil",
      "image",
      "isActive",
      "adErid",
      "adAdvertiser",
    ],
    body: (v) => ({
      title: v.title.trim(),
      description: v.description.trim(),
      discount: v.discount.trim(),
      validUntil: v.validUntil.trim(),
      image: v.image,
      isActive: v.isActive,
      ...adPayload(v),
    }),
    Fields: PromotionFields,
  },
};

export default function PromotionsScreen() {
  const today = moscowToday();
  return (
    <ResourceScreen
      resource={PROMOTIONS}
      card={(p, { actions }) => (
        <article class="admin-card promo-admin-card" data-testid="promotion-card">
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
            <span class={`badge ${promotionStateClass(p, today)}`}>{promotionState(p, today)}</span>
            <p class="admin-card-text">{p.description}</p>
            {p.validUntil && <p class="muted">Действует до: {formatDate(p.validUntil)}</p>}
            <AdNote {...adValues(p)} />
          </div>
          {actions}
        </article>
      )}
    />
  );
}

function PromotionFields({ form }: FieldsProps<Promotion, PromotionValues>) {
  const { register } = form;
  const { errors } = form.formState;
  return (
    <>
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
      <ImageField form={form} name="image" label="Изображение" />
      <SwitchField form={form} name="isActive">
        Активна (показывается на сайте)
      </SwitchField>
      <AdFieldset
        advertiser={register("adAdvertiser", adRules.adAdvertiser)}
        erid={register("adErid", adRules.adErid)}
        errors={errors}
        advertiserHint={ADVERTISER_HINTS.promotion}
      />
    </>
  );
}
