/** A yes / no field of a resource's form ("Показывать на сайте"): a
 * checkbox shown as a switch, with its state for screen readers. */
import type { ReactNode } from "react";
import type { FieldValues, Path } from "react-hook-form";
import type { ResourceForm } from "./types";

interface Props<V extends FieldValues> {
  form: ResourceForm<V>;
  name: Path<V>;
  children: ReactNode;
}

export function SwitchField<V extends FieldValues>({ form, name, children }: Props<V>) {
  return (
    <label>
      <input
        type="checkbox"
        role="switch"
        aria-checked={Boolean(form.watch(name))}
        {...form.register(name)}
      />
      {children}
    </label>
  );
}
