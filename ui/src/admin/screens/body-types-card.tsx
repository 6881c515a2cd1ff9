/** A body type's card on the admin's list: its own form (names and
 * banners) saved in place, or the type as it is for a role that may not
 * change the catalogue. */
import { useCallback, useState } from "react";
import { type FieldValues, useForm } from "react-hook-form";
import { apiPut } from "../../api/client";
import type { BodyTypeInfo } from "../../api/types";
import { bodyTypePath } from "../../routes";
import { BODY_TYPES_URL } from "../api";
import { applyServerError } from "../components/applyServerError";
import { RECOMMENDED_BANNER, RECOMMENDED_MOBILE_BANNER } from "../lib/banners";
import { canDelete } from "../lib/bodyTypes";
import { bodyTypeRules } from "../lib/rules";
import { useAdminMutation } from "../query";
import { fieldNames, formBody, formValues } from "../resource/fields";
import type { FieldSpec } from "../resource/ResourceScreen";
import { SpecFields } from "../resource/SpecFields";

export const typeUrl = (code: string) => `${BODY_TYPES_URL}/${encodeURIComponent(code)}`;

export /** The two names, in the add form and on each card. */
const LABELS: FieldSpec<BodyTypeInfo>[] = [
  {
    name: "labelPlural",
    label: "Название во множественном числе",
    required: true,
    rules: bodyTypeRules.labelPlural,
  },
  {
    name: "labelSingle",
    label: "Название в единственном числе",
    required: true,
    rules: bodyTypeRules.labelSingle,
  },
];

/** The two banners, labelled. */
export const banners = (desktop: string, mobile: string): FieldSpec<BodyTypeInfo>[] => [
  { name: "imageUrl", kind: "image", label: desktop, hint: RECOMMENDED_BANNER },
  { name: "imageUrlMobile", kind: "image", label: mobile, hint: RECOMMENDED_MOBILE_BANNER },
];

/** A card's form: the names, and the banners named with the type. */
const cardFields = (t: BodyTypeInfo): FieldSpec<BodyTypeInfo>[] => [
  { kind: "grid", fields: LABELS },
  {
    kind: "grid",
    fields: banners(
      `${t.labelPlural}: баннер для компьютера`,
      `${t.labelPlural}: баннер для телефона`,
    ),
  },
];

/** The card's title and line of facts, shared by the form and the view. */
function Head({ info, builtIn }: { info: BodyTypeInfo; builtIn: string }) {
  return (
    <>
      <h2 id={`body-type-${info.bodyType}`} class="admin-card-title">
        {info.labelPlural} <small class="muted">({info.bodyType})</small>
      </h2>
      <p class="muted">
        Опубликовано автомобилей: {info.carCount} ·{" "}
        <a href={bodyTypePath(info.bodyType)} target="_blank" rel="noopener noreferrer">
          Открыть страницу
        </a>
        {info.builtIn && builtIn}
      </p>
    </>
  );
}

/** A type as it is, for a role that may not change the catalogue. */
export function BodyTypeView({ info }: { info: BodyTypeInfo }) {
  return (
    <article
      class="admin-card body-type-card"
      aria-labelledby={`body-type-${info.bodyType}`}
      data-testid={`body-type-${info.bodyType}`}
    >
      <Head info={info} builtIn=" · Встроенный тип" />
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
export function BodyTypeForm({ info, onDelete }: { info: BodyTypeInfo; onDelete: () => void }) {
  const specs = cardFields(info);
  const methods = useForm({ defaultValues: formValues(specs, info) });
  const { handleSubmit, reset, setError } = methods;
  const { isDirty } = methods.formState;
  const [uploads, setUploads] = useState(0);
  const busy = useCallback((b: boolean) => setUploads((n) => n + (b ? 1 : -1)), []);
  const save = useAdminMutation(
    (v: FieldValues) => apiPut<BodyTypeInfo>(typeUrl(info.bodyType), formBody(specs, v, info)),
    {
      success: (t) => `Тип кузова «${t.labelSingle}» сохранён`,
      onSuccess: (t) => reset(formValues(specs, t)),
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить тип кузова",
          fields: fieldNames(specs),
        }),
    },
  );
  return (
    <form
      class="admin-card body-type-card"
      noValidate
      aria-labelledby={`body-type-${info.bodyType}`}
      data-testid={`body-type-${info.bodyType}`}
      onSubmit={handleSubmit((v) => save.mutate(v))}
    >
      <Head info={info} builtIn=" · Встроенный тип: удалить нельзя" />
      <SpecFields fields={specs} form={{ ...methods, busy }} item={info} />
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
