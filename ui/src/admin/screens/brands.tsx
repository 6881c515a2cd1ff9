import { useCallback, useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { Brand } from "../../api/types";
import { CAR_FORMS, plural } from "../../lib/format";
import { slugify } from "../../lib/slug";
import { BRANDS_URL, brandUrl } from "../api";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { useEditLink } from "../hooks";
import { filterBrands } from "../lists";
import { useAdminMutation, useAdminQuery } from "../query";

type Editing = { brand: Brand | null } | null;

/** Brands: count, search by name or description, cards with the number of
 * cars, add and edit dialogs, delete (refused while the brand has cars);
 * without `catalogueWrite` only the list. */
export default function BrandsScreen() {
  const canWrite = useCan("catalogueWrite");
  const brands = useAdminQuery<Brand[]>(BRANDS_URL);
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Brand | null>(null);
  const shown = useMemo(() => filterBrands(brands.data ?? [], search), [brands.data, search]);

  const remove = useAdminMutation((b: Brand) => apiDelete(brandUrl(b.id)), {
    success: "Марка удалена",
    failure: "Не удалось удалить марку",
    onSuccess: () => setDeleting(null),
  });
  // A self-check's link (?edit=<id>) opens that brand.
  const dropEditLink = useEditLink({
    path: "/brands",
    // Only a role that may change brands opens one from a link.
    items: canWrite ? brands.data : undefined,
    open: useCallback((brand: Brand) => setEditing({ brand }), []),
    missing: "Марка не найдена: возможно, её удалили",
  });

  return (
    <AdminPage
      title="Марки"
      count={brands.data?.length ?? null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing({ brand: null })}>
            Добавить марку
          </button>
        ) : null
      }
    >
      <input
        type="search"
        aria-label="Поиск марок по названию или описанию"
        placeholder="Поиск по названию или описанию"
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      {brands.isError ? (
        <ErrorPanel
          error={brands.error}
          title="Не удалось загрузить марки"
          onRetry={() => void brands.refetch()}
        />
      ) : !brands.data ? (
        <SkeletonCards count={6} />
      ) : shown.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          {search.trim() ? "Марки не найдены" : "Марки не добавлены"}
        </p>
      ) : (
        <ul class="admin-grid" data-testid="brands">
          {shown.map((b) => (
            <li key={b.id}>
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
                {canWrite && (
                  <div class="card-actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Изменить марку ${b.name}`}
                      onClick={() => setEditing({ brand: b })}
                    >
                      Изменить
                    </button>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Удалить марку ${b.name}`}
                      disabled={b.carCount > 0}
                      title={
                        b.carCount > 0
                          ? "Нельзя удалить марку, пока у неё есть автомобили"
                          : undefined
                      }
                      onClick={() => setDeleting(b)}
                    >
                      Удалить
                    </button>
                  </div>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
      {editing && canWrite && (
        <BrandDialog
          brand={editing.brand}
          onClose={() => {
            setEditing(null);
            dropEditLink();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить марку?"
        message={deleting ? `Марка «${deleting.name}» будет удалена.` : null}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

interface BrandValues {
  name: string;
  slug: string;
  logo: string;
  description: string;
}

const BRAND_FIELDS = ["name", "slug", "logo", "description"] as const;

function BrandDialog({ brand, onClose }: { brand: Brand | null; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    getValues,
    getFieldState,
    formState: { errors, isDirty },
  } = useForm<BrandValues>({
    defaultValues: {
      name: brand?.name ?? "",
      slug: brand?.slug ?? "",
      logo: brand?.logo ?? "",
      description: brand?.description ?? "",
    },
  });
  const [uploading, setUploading] = useState(false);
  const save = useAdminMutation(
    (v: BrandValues) => {
      const body = {
        name: v.name.trim(),
        slug: v.slug.trim(),
        logo: v.logo,
        description: v.description.trim(),
      };
      return brand ? apiPut<Brand>(brandUrl(brand.id), body) : apiPost<Brand>("/api/brands", body);
    },
    {
      success: brand ? "Марка обновлена" : "Марка добавлена",
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить марку",
          fields: BRAND_FIELDS,
        }),
      onSuccess: onClose,
    },
  );

  return (
    <FormDialog
      open
      title={brand ? "Изменить марку" : "Добавить марку"}
      dirty={isDirty}
      onClose={onClose}
      testId="brand-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
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
        <Controller
          control={control}
          name="logo"
          render={({ field }) => (
            <ImageUpload
              label="Логотип"
              value={field.value}
              onChange={field.onChange}
              error={errors.logo}
              onBusyChange={setUploading}
            />
          )}
        />
        <Field label="Описание" error={errors.description}>
          {(a) => <textarea {...a} rows={3} {...register("description")} />}
        </Field>
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
