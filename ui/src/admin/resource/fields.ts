/** A resource's form as a list of fields (`FieldSpec`, in `types.ts`):
 * what the block derives from it without drawing anything — the form's
 * starting values, the body sent and the names a server's refusal may give.
 * `SpecFields` draws the same list. */
import type { FieldValues } from "react-hook-form";
import type { Common, FieldSpec, FormValue, SendSpec } from "./types";

/** One value of the form: its name and how it is read and sent. */
type Leaf<T> = Common<T> & { kind?: string };

export const AD_NAMES = ["adAdvertiser", "adErid"] as const;

/** The fields holding a value, in order (grids opened, an ad's two). */
function leaves<T>(specs: readonly FieldSpec<T>[]): Leaf<T>[] {
  return specs.flatMap((s): Leaf<T>[] => {
    if (s.kind === "grid") return leaves(s.fields);
    if (s.kind === "ad") return AD_NAMES.map((name) => ({ name }));
    if (s.kind === "custom") return s.name ? [{ ...s, name: s.name }] : [];
    return [s];
  });
}

/** The names a server's refusal may give (shown under that field). */
export function fieldNames<T>(specs: readonly FieldSpec<T>[]): string[] {
  return leaves(specs).map((s) => s.name);
}

/** The form's starting values: the item's (numbers as text, null as ""),
 * or each field's `initial` for a new one. */
export function formValues<T>(
  specs: readonly FieldSpec<T>[],
  item: T | null,
): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const s of leaves(specs)) {
    const empty = s.kind === "switch" ? false : "";
    if (!item) {
      out[s.name] = s.initial ?? empty;
      continue;
    }
    const raw = s.value ? s.value(item) : (item as Record<string, unknown>)[s.name];
    out[s.name] = raw == null ? empty : typeof raw === "boolean" ? raw : String(raw);
  }
  return out;
}

/** The body sent: each field as its `send` says (trimmed text by default). */
export function formBody<T>(
  specs: readonly FieldSpec<T>[],
  values: FieldValues,
  item: T | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of leaves(specs)) {
    if (s.editOnly && !item) continue;
    const v = values[s.name] as FormValue;
    out[s.name] = sent(s.send, v);
  }
  return out;
}

function sent(send: SendSpec | undefined, v: FormValue): unknown {
  if (typeof send === "function") return send(v);
  if (typeof v !== "string" || send === "raw") return v;
  const text = v.trim();
  if (send === "number") return Number(text);
  if (send === "nullIfEmpty") return text === "" ? null : text;
  return text;
}
