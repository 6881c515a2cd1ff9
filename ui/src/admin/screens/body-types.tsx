/** Admin body types: the dealership's own list. For each, its labels (list
 * and single) and its catalogue page's banners (desktop and mobile), saved
 * in place on its card; a type can be added (code, names, banners) and one
 * that is not built in deleted (the server refuses while it has cars).
 * Without `catalogueWrite` every type is shown as it is, without fields,
 * uploads, save, add or delete. */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import type { BodyTypeInfo } from "../../api/types";
import { bodyTypePath } from "../../routes";
import { BODY_TYPES_URL } from "../api";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { ImageUpload } from "../components/ImageUpload";
import { RECOMMENDED_BANNER, RECOMMENDED_MOBILE_BANNER } from "../lib/banners";
import {
  BODY_TYPE_CODE_HINT,
  BODY_TYPE_CREATE_FIELDS,
  type BodyTypeNewValues,
  bodyTypeCodeRule,
  bodyTypeCreatePayload,
  canDelete,
  deleteMessage,
  EMPTY_BODY_TYPE,
} from "../lib/bodyTypes";
import { bodyTypeRules } from "../lib/rules";
import { useAdminMutation, useAdminQuery } from "../query";
import { ImageField } from "../resource/ImageField";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import "./content.css";

const LIST = BODY_TYPES_URL;
const typeUrl = (code: string) => `${LIST}/${encodeURIComponent(code)}`;

const BODY_TYPES: Resource<BodyTypeInfo, BodyTypeNewValues> = {
  title: "Типы кузова",
  listUrl: LIST,
  createUrl: LIST,
  itemUrl: (t) => typeUrl(t.bodyType),
  key: (t) => t.bodyType,
  // Each card holds a form: a refetch on focus would not reset it anyway.
  refetchOnFocus: false,
  name: (t) => `тип кузова ${t.labelPlural}`,
  text: {
    add: "Добавить тип кузова",
    addWaitsForList: true,
    loading: "Загрузка типов кузова…",
    loadFailed: "Не удалось загрузить типы кузова",
    empty: "Типы кузова не добавлены",
    deleteTitle: "Удалить тип кузова?",
    deleteMessage,
    deleted: (t) => `Тип кузова «${t.labelSingle}» удалён`,
    // A refusal (built in, has cars) is told in the server's words.
    deleteFailed: "Не удалось удалить тип кузова",
    formTitle: "Добавить тип кузова",
    created: (t) => `Тип кузова «${t.labelSingle}» добавлен`,
    updated: (t) => `Тип кузова «${t.labelSingle}» сохранён`,
    saveFailed: "Не удалось добавить тип кузова",
  },
  list: { class: "body-type-list" },
  form: {
    testId: "body-type-dialog",
    submit: "Добавить",
    values: () => EMPTY_BODY_TYPE,
    fields: BODY_TYPE_CREATE_FIELDS,
    body: bodyTypeCreatePayload,
    Fields: NewBodyTypeFields,
  },
};

export default function BodyTypesScreen() {
  return (
    <ResourceScreen
      resource={BODY_TYPES}
      card={(t, { canWrite, remove }) =>
        canWrite ? <BodyTypeForm info={t} onDelete={() => remove(t)} /> : <BodyTypeView info={t} />
      }
    />
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

/** A type as it is, for a role that may not change the catalogue. */
function BodyTypeView({ info }: { info: BodyTypeInfo }) {
  const titleId = `body-type-${info.bodyType}`;
  return (
    <article
      class="admin-card body-type-card"
      aria-labelledby={titleId}
      data-testid={`body-type-${info.bodyType}`}
    >
      <h2 id={titleId} class="admin-card-title">
        {info.labelPlural} <small class="muted">({info.bodyType})</small>
      </h2>
      <p class="muted">
        Опубликовано автомобилей: {info.carCount} ·{" "}
        <a href={bodyTypePath(info.bodyType)} target="_blank" rel="noopener noreferrer">
          Открыть страницу
        </a>
        {info.builtIn && " · Встроенный тип"}
      </p>
      <dl class="detail-list">
        <dt>Название во множественном числе</dt>
        <dd>{info.labelPlural}</dd>
        <dt>Название в единственном числе</dt>
        <dd>{info.labelSingle}</dd>
      </dl>
      <div class="form-grid">
        <BannerView label={`${info.labelPlural}: баннер для компьютера`} url={info.imageUrl} />
        <BannerView label={`${info.labelPlural}: баннер для телефона`} url={info.imageUrlMobile} />
      </div>
    </article>
  );
}

function BannerView({ label, url }: { label: string; url: string }) {
  return (
    <figure class="image-preview">
      {/* The caption names the picture. */}
      {url ? <img src={url} alt="" /> : <p class="muted">Не задан</p>}
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** A type's own form (its names and banners), saved in place. */
function BodyTypeForm({ info, onDelete }: { info: BodyTypeInfo; onDelete: () => void }) {
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
      apiPut<BodyTypeInfo>(typeUrl(info.bodyType), {
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
        {info.builtIn && " · Встроенный тип: удалить нельзя"}
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
        {canDelete(info) && (
          <button
            type="button"
            class="danger"
            aria-label={`Удалить тип кузова ${info.labelPlural}`}
            onClick={onDelete}
          >
            Удалить
          </button>
        )}
        {isDirty && <span class="muted">Есть несохранённые изменения</span>}
      </div>
    </form>
  );
}

/** "Добавить тип кузова": the code (the page's address, checked against
 * the list), the two names and the banners. */
function NewBodyTypeFields({ form }: FieldsProps<BodyTypeInfo, BodyTypeNewValues>) {
  const types = useAdminQuery<BodyTypeInfo[]>(LIST, { refetchOnWindowFocus: false });
  const { register } = form;
  const { errors } = form.formState;
  return (
    <>
      <Field label="Код" required error={errors.bodyType} hint={BODY_TYPE_CODE_HINT}>
        {(a) => (
          <input
            {...a}
            {...register("bodyType", { validate: bodyTypeCodeRule(types.data ?? []) })}
            autoCapitalize="none"
            autoComplete="off"
            spellcheck={false}
            maxLength={50}
          />
        )}
      </Field>
      <Field label="Название во множественном числе" required error={errors.labelPlural}>
        {(a) => <input {...a} {...register("labelPlural", bodyTypeRules.labelPlural)} />}
      </Field>
      <Field label="Название в единственном числе" required error={errors.labelSingle}>
        {(a) => <input {...a} {...register("labelSingle", bodyTypeRules.labelSingle)} />}
      </Field>
      <ImageField
        form={form}
        name="imageUrl"
        label="Баннер для компьютера"
        hint={RECOMMENDED_BANNER}
      />
      <ImageField
        form={form}
        name="imageUrlMobile"
        label="Баннер для телефона"
        hint={RECOMMENDED_MOBILE_BANNER}
      />
    </>
  );
}
