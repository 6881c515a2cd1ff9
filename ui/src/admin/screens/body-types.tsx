/** Admin body types: for each of the six, its labels (list and single) and
 * its catalogue page's banners (desktop and mobile). */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import type { BodyTypeInfo } from "../../api/types";
import { bodyTypePath } from "../../routes";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { RECOMMENDED_BANNER, RECOMMENDED_MOBILE_BANNER } from "../lib/banners";
import { bodyTypeRules } from "../lib/rules";
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";

const LIST = "/api/body-types";

export default function BodyTypesScreen() {
  const types = useAdminQuery<BodyTypeInfo[]>(LIST, { refetchOnWindowFocus: false });
  return (
    <AdminPage title="Типы кузова">
      {types.isPending ? (
        <SkeletonCards count={6} label="Загрузка типов кузова…" />
      ) : types.isError ? (
        <ErrorPanel
          error={types.error}
          title="Не удалось загрузить типы кузова"
          url={LIST}
          onRetry={() => void types.refetch()}
        />
      ) : (
        <div class="body-type-list">
          {types.data.map((t) => (
            <BodyTypeForm key={t.bodyType} info={t} />
          ))}
        </div>
      )}
    </AdminPage>
  );
}

interface Values {
  labelPlural: string;
  labelSingle: string;
  imageUrl: string;
  imageUrlMobile: string;
}

const FIELDS = ["labelPlural", "labelSingle", "imageUrl", "imageUrlMobile"] as const;

const values = (t: BodyTypeInfo): Values => ({
  labelPlural: t.labelPlural,
  labelSingle: t.labelSingle,
  imageUrl: t.imageUrl,
  imageUrlMobile: t.imageUrlMobile,
});

function BodyTypeForm({ info }: { info: BodyTypeInfo }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    watch,
    formState: { errors, isDirty },
  } = useForm<Values>({ defaultValues: values(info) });
  const [uploads, setUploads] = useState(0);
  const busy = (b: boolean) => setUploads((n) => n + (b ? 1 : -1));
  const save = useAdminMutation(
    (v: Values) =>
      apiPut<BodyTypeInfo>(`/api/body-types/${info.bodyType}`, {
        labelPlural: v.labelPlural.trim(),
        labelSingle: v.labelSingle.trim(),
        imageUrl: v.imageUrl,
        imageUrlMobile: v.imageUrlMobile,
      }),
    {
      success: (t) => `Тип кузова «${t.labelSingle}» сохранён`,
      onSuccess: (t) => reset(values(t)),
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить тип кузова",
          fields: FIELDS,
        }),
    },
  );
  const titleId = `body-type-${info.bodyType}`;
  return (
    <form
      class="admin-card body-type-card"
      noValidate
      aria-labelledby={titleId}
      data-testid={`body-type-${info.bodyType}`}
      onSubmit={handleSubmit((v) => save.mutate(v))}
    >
      <h2 id={titleId} class="admin-card-title">
        {info.labelPlural} <small class="muted">({info.bodyType})</small>
      </h2>
      <p class="muted">
        Опубликовано автомобилей: {info.carCount} ·{" "}
        <a href={bodyTypePath(info.bodyType)} target="_blank" rel="noopener noreferrer">
          Открыть страницу
        </a>
      </p>
      <div class="form-grid">
        <Field label="Название во множественном числе" required error={errors.labelPlural}>
          {(a) => <input {...a} {...register("labelPlural", bodyTypeRules.labelPlural)} />}
        </Field>
        <Field label="Название в единственном числе" required error={errors.labelSingle}>
          {(a) => <input {...a} {...register("labelSingle", bodyTypeRules.labelSingle)} />}
        </Field>
      </div>
      <div class="form-grid">
        <ImageUpload
          label={`${info.labelPlural}: баннер для компьютера`}
          value={watch("imageUrl")}
          onChange={(url) => setValue("imageUrl", url, { shouldDirty: true })}
          hint={RECOMMENDED_BANNER}
          error={errors.imageUrl}
          onBusyChange={busy}
        />
        <ImageUpload
          label={`${info.labelPlural}: баннер для телефона`}
          value={watch("imageUrlMobile")}
          onChange={(url) => setValue("imageUrlMobile", url, { shouldDirty: true })}
          hint={RECOMMENDED_MOBILE_BANNER}
          error={errors.imageUrlMobile}
          onBusyChange={busy}
        />
      </div>
      <div class="form-actions">
        <button
          type="submit"
          aria-busy={save.isPending || undefined}
          disabled={!isDirty || save.isPending || uploads > 0}
        >
          Сохранить
        </button>
        {isDirty && <span class="muted">Есть несохранённые изменения</span>}
      </div>
    </form>
  );
}
