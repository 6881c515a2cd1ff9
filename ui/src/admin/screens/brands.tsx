/** Brands: count, search by name or description, cards with the number of
 * cars, add and edit dialogs, delete (refused while the brand has cars);
 * without `catalogueWrite` only the list. */
import type { Brand } from "../../api/types";
import { CAR_FORMS, plural } from "../../lib/format";
import { slugify } from "../../lib/slug";
import { BRANDS_URL, brandUrl } from "../api";
import { Field } from "../components/Field";
import { ImageField } from "../resource/ImageField";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";

interface BrandValues {
  name: string;
  slug: string;
  logo: string;
  description: string;
}

const BRANDS: Resource<Brand, BrandValues> = {
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
    values: (b) => ({
      name: b?.name ?? "",
      slug: b?.slug ?? "",
      logo: b?.logo ?? "",
      description: b?.description ?? "",
    }),
    fields: ["name", "slug", "logo", "description"],
    body: (v) => ({
      name: v.name.trim(),
      slug: v.slug.trim(),
      logo: v.logo,
      description: v.description.trim(),
    }),
    Fields: BrandFields,
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

function BrandFields({ form, item: brand }: FieldsProps<Brand, BrandValues>) {
  const { register, getFieldState, getValues, setValue } = form;
  const { errors } = form.formState;
  return (
    <>
      <Field label="Название" required error={errors.name}>
        {(a) => (
          <input
            {...a}
            {...register("name", {
              validate: (x) => x.trim() !== "" || "Название обязательно",
              onBlur: () => {
                // A new brand's slug follows its name until typed by hand.
                if (!brand && !getFieldState("slug").isDirty) {
                  setValue("slug", slugify(getValues("name")), { shouldValidate: true });
                }
              },
            })}
          />
        )}
      </Field>
      <Field
        label="Slug (адрес страницы)"
        required
        error={errors.slug}
        hint="Только латинские буквы, цифры и дефисы"
      >
        {(a) => (
          <input
            {...a}
            {...register("slug", {
              validate: (x) =>
                x.trim() === ""
                  ? "Slug обязателен"
                  : /^[a-z0-9-]+$/.test(x.trim()) || "Только латинские буквы, цифры и дефисы",
            })}
            autoCapitalize="none"
            spellcheck={false}
          />
        )}
      </Field>
      <ImageField form={form} name="logo" label="Логотип" />
      <Field label="Описание" error={errors.description}>
        {(a) => <textarea {...a} rows={3} {...register("description")} />}
      </Field>
    </>
  );
}
