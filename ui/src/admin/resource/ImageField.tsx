/** A picture field of a resource's form: ImageUpload bound to the form's
 * value, its error and the save's wait for the upload. */
import type { FieldError, FieldValues, Path, PathValue, RegisterOptions } from "react-hook-form";
import { ImageUpload } from "../components/ImageUpload";
import type { ResourceForm } from "./types";

interface Props<V extends FieldValues> {
  form: ResourceForm<V>;
  name: Path<V>;
  label: string;
  required?: boolean;
  hint?: string;
  /** A rule of its own (it is then checked as soon as a picture changes). */
  rules?: RegisterOptions<V, Path<V>>;
}

export function ImageField<V extends FieldValues>({
  form,
  name,
  label,
  required,
  hint,
  rules,
}: Props<V>) {
  // The picture is no text input: a rule is registered by hand.
  if (rules) form.register(name, rules);
  return (
    <ImageUpload
      label={label}
      required={required}
      hint={hint}
      value={form.watch(name) as string}
      onChange={(url) =>
        form.setValue(name, url as PathValue<V, Path<V>>, {
          shouldDirty: true,
          shouldValidate: rules !== undefined,
        })
      }
      error={form.formState.errors[name] as FieldError | undefined}
      onBusyChange={form.busy}
    />
  );
}
