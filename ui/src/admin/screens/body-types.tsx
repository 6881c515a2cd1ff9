/** Admin body types: the dealership's own list. For each, its labels (list
 * and single) and its catalogue page's banners (desktop and mobile), saved
 * in place on its card; a type can be added (code, names, banners) and one
 * that is not built in deleted (the server refuses while it has cars).
 * Without `catalogueWrite` every type is shown as it is, without fields,
 * uploads, save, add or delete. */
import type { FieldError, FieldValues } from "react-hook-form";
import type { BodyTypeInfo } from "../../api/types";
import { BODY_TYPES_URL as LIST } from "../api";
import { Field } from "../components/Field";
import {
  BODY_TYPE_CODE_HINT,
  type BodyTypeNewValues,
  bodyTypeCodeRule,
  bodyTypeCreatePayload,
  deleteMessage,
} from "../lib/bodyTypes";
import { useAdminQuery } from "../query";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import { BodyTypeForm, BodyTypeView, banners, LABELS, typeUrl } from "./body-types-card";
import "./content.css";

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
    body: bodyTypeCreatePayload,
    fields: [
      { kind: "custom", name: "bodyType", Component: CodeField },
      ...LABELS,
      ...banners("Баннер для компьютера", "Баннер для телефона"),
    ],
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

/** The code of a new type: the page's address, checked against the list. */
function CodeField({ form }: FieldsProps<BodyTypeInfo, FieldValues>) {
  const types = useAdminQuery<BodyTypeInfo[]>(LIST, { refetchOnWindowFocus: false });
  return (
    <Field
      label="Код"
      required
      error={form.formState.errors.bodyType as FieldError | undefined}
      hint={BODY_TYPE_CODE_HINT}
    >
      {(a) => (
        <input
          {...a}
          {...form.register("bodyType", { validate: bodyTypeCodeRule(types.data ?? []) })}
          autoCapitalize="none"
          autoComplete="off"
          spellcheck={false}
          maxLength={50}
        />
      )}
    </Field>
  );
}
