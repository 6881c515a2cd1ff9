/** Admin body types: the dealership's own list. For each, its labels (list
 * and single) and its catalogue page's banners (desktop and mobile); a type
 * can be added (code, names, banners) and one that is not built in deleted
 * (the server refuses while it has cars). */
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { BodyTypeInfo } from "../../api/types";
import { bodyTypePath } from "../../routes";
import { BODY_TYPES_URL } from "../api";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
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
import "./content.css";

const LIST = BODY_TYPES_URL;
const typeUrl = (code: string) => `${LIST}/${encodeURIComponent(code)}`;

/** Without `catalogueWrite` every type is shown as it is, without fields,
 * uploads, save, add or delete. */
export default function BodyTypesScreen() {
  const canWrite = useCan("catalogueWrite");
  const types = useAdminQuery<BodyTypeInfo[]>(LIST, { refetchOnWindowFocus: false });
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<BodyTypeInfo | null>(null);
  const remove = useAdminMutation((t: BodyTypeInfo) => apiDelete(typeUrl(t.bodyType)), {
    success: (_, t) => `Тип кузова «${t.labelSingle}» удалён`,
    // A refusal (built in, has cars) is told in the server's words.
    failure: "Не удалось удалить тип кузова",
    onSuccess: () => setDeleting(null),
  });
  return (
    <AdminPage
      title="Типы кузова"
      count={types.data?.length ?? null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setAdding(true)} disabled={!types.data}>
            Добавить тип кузова
          </button>
        ) : null
      }
    >
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
          {types.data.map((t) =>
            canWrite ? (
              <BodyTypeForm key={t.bodyType} info={t} onDelete={() => setDeleting(t)} />
            ) : (
              <BodyTypeView key={t.bodyType} info={t} />
            ),
          )}
        </div>
      )}
      {adding && canWrite && types.data && (
        <AddBodyTypeDialog existing={types.data} onClose={() => setAdding(false)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить тип кузова?"
        message={deleting ? deleteMessage(deleting) : null}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
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

/** "Добавить тип кузова": the code (the page's address), the two names and
 * the banners. */
function AddBodyTypeDialog({
  existing,
  onClose,
}: {
  existing: BodyTypeInfo[];
  onClose: () => void;
}) {
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isDirty },
  } = useForm<BodyTypeNewValues>({ defaultValues: EMPTY_BODY_TYPE });
  const [uploads, setUploads] = useState(0);
  const busy = (b: boolean) => setUploads((n) => n + (b ? 1 : -1));
  const create = useAdminMutation(
    (v: BodyTypeNewValues) => apiPost<BodyTypeInfo>(LIST, bodyTypeCreatePayload(v)),
    {
      success: (t) => `Тип кузова «${t.labelSingle}» добавлен`,
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось добавить тип кузова",
          fields: BODY_TYPE_CREATE_FIELDS,
        }),
    },
  );
  return (
    <FormDialog
      open
      title="Добавить тип кузова"
      dirty={isDirty}
      onClose={onClose}
      testId="body-type-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => create.mutate(v))}>
        <Field label="Код" required error={errors.bodyType} hint={BODY_TYPE_CODE_HINT}>
          {(a) => (
            <input
              {...a}
              {...register("bodyType", { validate: bodyTypeCodeRule(existing) })}
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
        <Controller
          control={control}
          name="imageUrl"
          render={({ field }) => (
            <ImageUpload
              label="Баннер для компьютера"
              value={field.value}
              onChange={field.onChange}
              hint={RECOMMENDED_BANNER}
              error={errors.imageUrl}
              onBusyChange={busy}
            />
          )}
        />
        <Controller
          control={control}
          name="imageUrlMobile"
          render={({ field }) => (
            <ImageUpload
              label="Баннер для телефона"
              value={field.value}
              onChange={field.onChange}
              hint={RECOMMENDED_MOBILE_BANNER}
              error={errors.imageUrlMobile}
              onBusyChange={busy}
            />
          )}
        />
        <footer class="dialog-actions">
          <CancelButton />
          <button
            type="submit"
            aria-busy={create.isPending || undefined}
            disabled={create.isPending || uploads > 0}
          >
            Добавить
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
