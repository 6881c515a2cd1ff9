import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { type ReactNode, useId, useRef, useState } from "react";
import type { FieldError } from "react-hook-form";
import { checkMany, DEFAULT_MAX_IMAGES, move } from "../uploads";
import { RequiredMark } from "./Field";
import { UploadBar, useFieldError, useUploads } from "./useUploads";

interface Props {
  label: string;
  /** Picture URLs, the main one first. */
  value: string[];
  onChange: (urls: string[]) => void;
  max?: number;
  hint?: ReactNode;
  required?: boolean;
  error?: FieldError | string | null;
  onBusyChange?: (busy: boolean) => void;
}

type DragId = { id: unknown };

/** What a screen reader hears while a picture is moved, by place number. */
function announcements(ids: string[]) {
  const place = (id: unknown) => ids.indexOf(String(id)) + 1;
  return {
    screenReaderInstructions: {
      draggable:
        "Чтобы переместить фото, нажмите пробел, двигайте стрелками и нажмите пробел ещё раз. Escape отменяет.",
    },
    announcements: {
      onDragStart: ({ active }: { active: DragId }) => `Фото ${place(active.id)} поднято.`,
      onDragOver: ({ active, over }: { active: DragId; over: DragId | null }) =>
        over ? `Фото ${place(active.id)} над местом ${place(over.id)}.` : undefined,
      onDragEnd: ({ active, over }: { active: DragId; over: DragId | null }) =>
        over ? `Фото ${place(active.id)} поставлено на место ${place(over.id)}.` : undefined,
      onDragCancel: ({ active }: { active: DragId }) =>
        `Перемещение фото ${place(active.id)} отменено.`,
    },
  };
}

/** Up to `max` pictures (6 by default), the first is the main one: add
 * several files at once (each checked and uploaded with its own progress
 * bar), drag to reorder (or pick one with Space and move it with the
 * arrows, or use its arrow buttons), remove. */
export function MultiImageUpload({
  label,
  value,
  onChange,
  max = DEFAULT_MAX_IMAGES,
  hint,
  required,
  error,
  onBusyChange,
}: Props) {
  const id = useId();
  const [problems, setProblems] = useState<string[]>([]);
  const { pending, send } = useUploads("image", onBusyChange);
  // Uploads end after the value may have changed: append to the latest.
  const latest = useRef(value);
  latest.current = value;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // Pictures are unique (a repeated upload is not added twice): the URL is the id.
  const ids = value;
  const fieldError = useFieldError(error);
  const messages = [...problems, ...(fieldError.message ? [fieldError.message] : [])];

  const pick = async (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    input.value = "";
    if (files.length === 0) return;
    const { accepted, errors } = checkMany(files, latest.current.length + pending.length, max);
    setProblems(errors);
    if (accepted.length === 0) return;
    const urls = await send(accepted);
    const fresh = urls.filter((u) => !latest.current.includes(u));
    if (urls.length > 0) fieldError.answer();
    if (fresh.length > 0) onChange([...latest.current, ...fresh].slice(0, max));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onChange(move(value, from, to));
  };

  const full = value.length + pending.length >= max;
  return (
    <fieldset class="multi-upload" data-testid="multi-upload" aria-describedby={`${id}-hint`}>
      <legend>
        {label}
        {required && <RequiredMark />}
      </legend>
      {value.length > 0 && (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={announcements(ids)}
        >
          <SortableContext items={ids} strategy={rectSortingStrategy}>
            <ol class="thumbs" data-testid="thumbs">
              {value.map((url, i) => (
                <Thumb
                  key={ids[i]}
                  id={ids[i]}
                  url={url}
                  index={i}
                  count={value.length}
                  onMove={(to) => onChange(move(value, i, to))}
                  onRemove={() => onChange(value.filter((_, j) => j !== i))}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
      {pending.map((p) => (
        <UploadBar key={p.id} item={p} />
      ))}
      <label for={id} class="multi-upload-add">
        Добавить фото ({value.length} из {max})
      </label>
      <input
        id={id}
        type="file"
        accept="image/*"
        multiple
        disabled={full}
        aria-invalid={messages.length > 0 ? true : undefined}
        required={(required && value.length === 0) || undefined}
        aria-describedby={messages.length > 0 ? `${id}-errors` : undefined}
        onChange={(e) => void pick(e.currentTarget)}
      />
      {messages.length > 0 && (
        <ul id={`${id}-errors`} class="field-error upload-errors" role="alert">
          {messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <small id={`${id}-hint`}>
        {hint ??
          `Первое фото главное. До ${max} фото, JPG или PNG до 5 МБ; порядок меняется перетаскиванием.`}
      </small>
    </fieldset>
  );
}

interface ThumbProps {
  id: string;
  url: string;
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function Thumb({ id, url, index, count, onMove, onRemove }: ThumbProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  const n = index + 1;
  return (
    <li
      ref={setNodeRef}
      class={`thumb${isDragging ? " dragging" : ""}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="thumb"
      data-url={url}
    >
      <div
        class="thumb-handle"
        {...attributes}
        role="button"
        tabIndex={0}
        {...listeners}
        aria-label={`Фото ${n}: перетащите, чтобы изменить порядок`}
      >
        <img src={url} alt={`Фото ${n}`} draggable={false} />
        {index === 0 && <span class="thumb-main">Главное</span>}
      </div>
      <div class="thumb-actions">
        <button
          type="button"
          class="secondary outline"
          aria-label={`Фото ${n}: сдвинуть влево`}
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
        >
          ←
        </button>
        <button
          type="button"
          class="secondary outline"
          aria-label={`Фото ${n}: сдвинуть вправо`}
          disabled={index === count - 1}
          onClick={() => onMove(index + 1)}
        >
          →
        </button>
        <button
          type="button"
          class="secondary outline"
          aria-label={`Удалить фото ${n}`}
          onClick={onRemove}
        >
          ×
        </button>
      </div>
    </li>
  );
}
