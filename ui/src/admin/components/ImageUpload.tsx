import { type ReactNode, useId, useState } from "react";
import type { FieldError } from "react-hook-form";
import { checkSingle, type SingleRules } from "../uploads";
import { RequiredMark } from "./Field";
import { UploadBar, useFieldError, useUploads } from "./useUploads";

interface Props {
  label: string;
  /** The picture's URL; empty when none. */
  value: string;
  onChange: (url: string) => void;
  /** `favicon` keeps the file as sent (ico, svg); pictures get their sizes. */
  kind?: "image" | "favicon";
  /** The file picker's filter. */
  accept?: string;
  /** Size limit and messages (5 MB images by default). */
  rules?: SingleRules;
  hint?: ReactNode;
  required?: boolean;
  error?: FieldError | string | null;
  previewAlt?: string;
  /** True while the file is on its way (a form waits before saving). */
  onBusyChange?: (busy: boolean) => void;
}

/** One picture: choose a file (checked for type and size), watch it upload,
 * see its preview, remove it. */
export function ImageUpload({
  label,
  value,
  onChange,
  kind = "image",
  accept = "image/*",
  rules,
  hint,
  required,
  error,
  previewAlt,
  onBusyChange,
}: Props) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const { pending, send } = useUploads(kind, onBusyChange);
  const fieldError = useFieldError(error);
  const message = problem ?? fieldError.message;
  const describedBy = [message ? `${id}-error` : "", hint ? `${id}-hint` : ""]
    .filter(Boolean)
    .join(" ");

  const pick = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const refusal = checkSingle(file, rules);
    setProblem(refusal);
    if (refusal) return;
    const [url] = await send([file]);
    if (url) {
      fieldError.answer();
      onChange(url);
    }
  };

  return (
    <div class="field image-upload" data-testid="image-upload">
      <label for={id}>
        {label}
        {required && <RequiredMark />}
      </label>
      {value && (
        <figure class="image-preview">
          <img src={value} alt={previewAlt ?? `${label}: текущее изображение`} />
        </figure>
      )}
      {pending.map((p) => (
        <UploadBar key={p.id} item={p} />
      ))}
      <div class="image-upload-actions">
        <input
          id={id}
          type="file"
          accept={accept}
          aria-invalid={message ? true : undefined}
          required={(required && !value) || undefined}
          aria-describedby={describedBy || undefined}
          disabled={pending.length > 0}
          onChange={(e) => void pick(e.currentTarget)}
        />
        {value && (
          <button
            type="button"
            class="secondary outline"
            aria-label={`Удалить изображение: ${label}`}
            onClick={() => {
              setProblem(null);
              onChange("");
            }}
          >
            Удалить изображение
          </button>
        )}
      </div>
      {message && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {message}
        </small>
      )}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}
