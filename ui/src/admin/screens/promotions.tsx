/** Admin promotions: a card grid (image, discount, title, description, valid
 * until, active or not, the ad's mark) with edit and delete; the add / edit
 * form takes the list's place while it is open. Without `catalogueWrite`:
 * the list only. */
import type { Promotion } from "../../api/types";
import { formatDate } from "../../lib/format";
import { AdNote } from "../components/AdFieldset";
import { ADVERTISER_HINTS, adValues } from "../lib/ads";
import { moscowToday } from "../lib/creditPrograms";
import { promotionState, promotionStateClass } from "../lib/promotions";
import { promotionRules } from "../lib/rules";
import { type Resource, ResourceScreen } from "../resource/ResourceScreen";
import "./content.css";

const VALID_UNTIL = "Последний день на сайте; после него акция уйдёт сама. Без даты — бессрочно";

const PROMOTIONS: Resource<Promotion> = {
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
    rules: promotionRules,
    fields: [
      { name: "title", label: "Название", required: true },
      { name: "description", kind: "textarea", label: "Описание", required: true, rows: 4 },
      {
        kind: "grid",
        fields: [
          { name: "discount", label: "Скидка", hint: "Например: 10% или 200 000 ₽" },
          { name: "validUntil", kind: "date", label: "Действует до", hint: VALID_UNTIL },
        ],
      },
      { name: "image", kind: "image", label: "Изображение" },
      { name: "isActive", kind: "switch", label: "Активна (показывается на сайте)", initial: true },
      { kind: "ad", advertiserHint: ADVERTISER_HINTS.promotion },
    ],
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
