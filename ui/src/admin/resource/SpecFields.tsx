/** The fields of a resource's form drawn from its list (`FieldSpec`): a
 * labelled input, textarea or select (`Field`), a picture (`ImageField`), a
 * switch (`SwitchField`), an ad's mark (`AdFieldset`), fields side by side,
 * or a screen's own component. */
import type { FieldError, FieldValues } from "react-hook-form";
import { slugify } from "../../lib/slug";
import { AdFieldset } from "../components/AdFieldset";
import { Field } from "../components/Field";
import { adRules } from "../lib/ads";
import { filled } from "../lib/rules";
import { ImageField } from "./ImageField";
import { SwitchField } from "./SwitchField";
import type { FieldSpec, FieldsProps, InputSpec, ResourceForm, Rules, RulesByName } from "./types";

const SLUG_HINT = "Только латинские буквы, цифры и дефисы";

/** A slug's rule: not blank, Latin letters, digits and hyphens. */
const slugRule = (x: string) =>
  x.trim() === "" ? "Slug обязателен" : /^[a-z0-9-]+$/.test(x.trim()) || SLUG_HINT;

interface Props<T> extends FieldsProps<T, FieldValues> {
  fields: readonly FieldSpec<T>[];
  /** Rules by name, for the fields without their own. */
  rules?: RulesByName;
}

export function SpecFields<T>({ fields, form, item, rules }: Props<T>) {
  return (
    <>
      {fields.map((spec, i) => (
        <SpecField
          key={keyOf(spec, i)}
          spec={spec}
          all={fields}
          form={form}
          item={item}
          rules={rules}
        />
      ))}
    </>
  );
}

function keyOf<T>(spec: FieldSpec<T>, i: number): string {
  return "name" in spec && spec.name ? spec.name : `${spec.kind}-${i}`;
}

function SpecField<T>({
  spec,
  all,
  form,
  item,
  rules: byName,
}: Omit<Props<T>, "fields"> & { spec: FieldSpec<T>; all: readonly FieldSpec<T>[] }) {
  if ("editOnly" in spec && spec.editOnly && !item) return null;
  const { errors } = form.formState;
  switch (spec.kind) {
    case "grid":
      return (
        <div class="form-grid">
          <SpecFields fields={spec.fields} form={form} item={item} rules={byName} />
        </div>
      );
    case "custom":
      return <spec.Component form={form} item={item} />;
    case "ad":
      return (
        <AdFieldset
          advertiser={form.register("adAdvertiser", adRules.adAdvertiser)}
          erid={form.register("adErid", adRules.adErid)}
          errors={errors as { adErid?: FieldError; adAdvertiser?: FieldError }}
          advertiserHint={spec.advertiserHint}
        />
      );
    case "switch":
      return (
        <SwitchField form={form} name={spec.name}>
          {spec.label}
        </SwitchField>
      );
    case "image":
      return (
        <ImageField
          form={form}
          name={spec.name}
          label={spec.label}
          required={spec.required ? true : undefined}
          hint={spec.hint}
          rules={rulesOf(spec, byName)}
        />
      );
    default:
      return (
        <InputField
          spec={spec}
          form={form}
          rules={rulesOf(spec, byName)}
          slug={slugFollowing(all, spec.name, item)}
        />
      );
  }
}

/** A new item's slug that follows this field until typed by hand. */
function slugFollowing<T>(
  all: readonly FieldSpec<T>[],
  name: string,
  item: T | null,
): string | undefined {
  if (item) return undefined;
  const flat = all.flatMap((s) => (s.kind === "grid" ? s.fields : [s]));
  const slug = flat.find((s) => s.kind === "slug" && s.from === name);
  return slug && "name" in slug ? slug.name : undefined;
}

function rulesOf<T>(
  spec: {
    name: string;
    rules?: Rules;
    required?: boolean | string;
    kind?: InputSpec<T>["kind"] | "image";
  },
  byName?: RulesByName,
): Rules | undefined {
  if (spec.rules) return spec.rules;
  const named = byName?.[spec.name];
  if (named) return named as Rules;
  if (spec.kind === "slug") return { validate: slugRule };
  if (typeof spec.required === "string") return { validate: filled(spec.required) };
  return undefined;
}

function InputField<T>({
  spec,
  form,
  rules,
  slug,
}: {
  spec: InputSpec<T>;
  form: ResourceForm<FieldValues>;
  rules?: Rules;
  slug?: string;
}) {
  const { register, getFieldState, getValues, setValue } = form;
  const onBlur = slug
    ? () => {
        if (!getFieldState(slug).isDirty) {
          setValue(slug, slugify(getValues(spec.name)), { shouldValidate: true });
        }
      }
    : undefined;
  const registered = register(spec.name, onBlur ? { ...rules, onBlur } : rules);
  const kind = spec.kind ?? "text";
  const hint = spec.hint ?? (kind === "slug" ? SLUG_HINT : undefined);
  const code = spec.code || kind === "slug";
  const options = spec.options?.();
  return (
    <Field
      label={spec.label}
      required={spec.required ? true : undefined}
      error={form.formState.errors[spec.name] as FieldError | undefined}
      hint={hint}
    >
      {(a) =>
        kind === "textarea" ? (
          <textarea {...a} rows={spec.rows} maxLength={spec.maxLength} {...registered} />
        ) : kind === "select" ? (
          <select {...a} aria-busy={options?.busy || undefined} {...registered}>
            <option value="">{options?.empty}</option>
            {options?.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...a}
            {...((kind === "date" ? { type: "date" } : {}) as object)}
            inputMode={kind === "number" ? "numeric" : kind === "decimal" ? "decimal" : undefined}
            autoComplete={kind === "decimal" ? "off" : spec.autoComplete}
            maxLength={spec.maxLength}
            autoCapitalize={code ? "none" : undefined}
            spellcheck={code ? false : undefined}
            {...registered}
          />
        )
      }
    </Field>
  );
}
