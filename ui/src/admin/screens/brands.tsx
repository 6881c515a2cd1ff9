/** Brands: count, search by name or description, cards with the number of
 * cars, add and edit dialogs, delete (refused while the brand has cars);
 * without `catalogueWrite` only the list. */
import type { Brand } from "../../api/types";
import { CAR_FORMS, plural } from "../../lib/format";
import { BRANDS_URL, brandUrl } from "../api";
import { type Resource, ResourceScreen } from "../resource/ResourceScreen";

const BRANDS: Resource<Brand> = {
  title: "Марки",
  listUrl: BRANDS_URL,
  createUrl: "/api/brands",
  itemUrl: (b) => brandUrl(b.id),
  editLink: { path: "/brands", missing: "Марка не найдена: возможно, её удалили" },
  name: (b) => `марку ${b.name}`,
  text: {
    add: "Добавить марку",
    loadFailed: "Не удалось загрузить марки",
    empty: "Марки не добавлены",
    notFound: "Марки не найдены",
    deleteTitle: "Удалить марку?",
    deleteMessage: (b) => `Марка «${b.name}» будет удалена.`,
    deleted: "Марка удалена",
    deleteFailed: "Не удалось удалить марку",
    formTitle: (b) => (b ? "Изменить марку" : "Добавить марку"),
    created: "Марка добавлена",
    updated: "Марка обновлена",
    saveFailed: "Не удалось сохранить марку",
  },
  view: {
    search: {
      text: (b) => [b.name, b.description],
      ariaLabel: "Поиск марок по названию или описанию",
      placeholder: "Поиск по названию или описанию",
    },
  },
  list: { as: "ul", testId: "brands" },
  plainActions: true,
  deleteRefused: (b) =>
    b.carCount > 0 ? "Нельзя удалить марку, пока у неё есть автомобили" : null,
  form: {
    testId: "brand-dialog",
    fields: [
      { name: "name", label: "Название", required: "Название обязательно" },
      { name: "slug", kind: "slug", label: "Slug (адрес страницы)", required: true, from: "name" },
      { name: "logo", kind: "image", label: "Логотип" },
      { name: "description", kind: "textarea", label: "Описание", rows: 3 },
    ],
  },
};

export default function BrandsScreen() {
  return (
    <ResourceScreen
      resource={BRANDS}
      card={(b, { actions }) => (
        <article class="admin-card brand-card" data-testid="brand-card" data-slug={b.slug}>
          <div class="brand-head">
            {b.logo ? (
              <img class="brand-logo" src={b.logo} alt={`Логотип ${b.name}`} />
            ) : (
              <span class="brand-letter" aria-hidden="true">
                {b.name.charAt(0).toUpperCase()}
              </span>
            )}
            <div>
              <h3>{b.name}</h3>
              <span class="stat-note" data-testid="brand-cars">
                {b.carCount} {plural(b.carCount, CAR_FORMS)}
              </span>
            </div>
          </div>
          {b.description && <p>{b.description}</p>}
          {actions}
        </article>
      )}
    />
  );
}
