/** A run's lists on the parser screen: the photos' progress after an
 * apply, then new cars, changed cars field by field, cars leaving this
 * feed that stay on the site, cars to unpublish, rows with errors, warnings
 * by car, unchanged cars; a car another feed lists too says which feed's
 * values win. Collapsible, a page at a time. */
import { type ReactNode, useRef, useState } from "react";
import { formatPrice } from "../../lib/format";
import {
  CAR_STATUS_LABELS,
  changeValue,
  groupWarnings,
  type ImportRun,
  LIST_PAGE,
  photoText,
  rowErrorText,
  rowPlace,
} from "../lib/parser";
import { alsoInText, staysInText } from "../lib/parser-feeds";
import type { AlsoIn } from "../lib/parser-types";
import "./parser.css";

export function Photos({ run, pending }: { run: ImportRun; pending: boolean }) {
  const { total, done, failed } = run.photos;
  return (
    <div class="parser-photos" data-testid="import-photos">
      <p role="status">
        {photoText(run.photos)}
        {pending && " · загрузка продолжается…"}
      </p>
      {total > 0 && <progress max={total} value={done + failed} aria-label="Загрузка фото" />}
      {run.photoErrors.length > 0 && (
        <details open data-testid="photo-errors">
          <summary>Фото с ошибками ({run.photoErrors.length})</summary>
          <p class="muted">Эти фото будут загружены снова при следующем импорте.</p>
          <ShowMore
            items={run.photoErrors}
            label="фото с ошибками"
            render={(p) => (
              <>
                <strong>{p.carTitle}</strong>: {p.error}
                <br />
                <small class="muted parser-url">{p.url}</small>
              </>
            )}
          />
        </details>
      )}
      {failed > 0 && run.photoErrors.length === 0 && <p class="muted">Фото с ошибками: {failed}</p>}
    </div>
  );
}

export function RunLists({ run }: { run: ImportRun }) {
  return (
    <div class="parser-lists">
      <ListSection id="new" title="Новые автомобили" items={run.new} open>
        {(c) => (
          <>
            <strong>{c.title}</strong> · {formatPrice(c.price)} ·{" "}
            {CAR_STATUS_LABELS[c.status] ?? c.status}
            <br />
            <small class="muted">
              {c.externalId ? `ID в фиде: ${c.externalId}` : ""}
              {c.externalId && c.vin ? " · " : ""}
              {c.vin ? `VIN: ${c.vin}` : ""}
            </small>
          </>
        )}
      </ListSection>
      <ListSection id="changed" title="Изменятся" items={run.changed} open>
        {(c) => (
          <>
            <strong>{c.title}</strong>
            <AlsoInNote others={c.alsoIn} />
            <ul class="parser-changes">
              {c.changes.map((ch) => (
                <li key={ch.field} data-testid="change">
                  {ch.label}: <del>{changeValue(ch.field, ch.old)}</del>{" "}
                  <span aria-hidden="true">→</span>
                  <span class="visually-hidden">, станет</span>{" "}
                  <ins>{changeValue(ch.field, ch.new)}</ins>
                </li>
              ))}
            </ul>
          </>
        )}
      </ListSection>
      <ListSection
        id="left"
        title="Уйдут из этого фида, но останутся на сайте"
        items={run.left ?? []}
        open
      >
        {(c) => (
          <>
            <strong>{c.title}</strong> — {staysInText(c)}
          </>
        )}
      </ListSection>
      <ListSection id="gone" title="Снимутся с публикации" items={run.gone} open>
        {(c) => (
          <>
            <strong>{c.title}</strong>
            {(c.externalId || c.vin) && (
              <small class="muted">
                {" "}
                · {c.externalId ? `ID в фиде: ${c.externalId}` : `VIN: ${c.vin}`}
              </small>
            )}
          </>
        )}
      </ListSection>
      <ListSection id="errors" title="Строки с ошибками" items={run.errors} open>
        {(e) => rowErrorText(e)}
      </ListSection>
      {/* Cars that load, with fields the feed does not state: one item a car. */}
      <ListSection
        id="warnings"
        title="Предупреждения"
        items={groupWarnings(run.warnings ?? [])}
        open
      >
        {(c) => (
          <>
            <strong>{c.title}</strong> <small class="muted">· {rowPlace(c.row, c.line)}</small>
            <ul class="parser-changes">
              {c.warnings.map((w) => (
                <li key={`${w.field}:${w.message}`} data-testid="warning">
                  {w.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </ListSection>
      <ListSection id="unchanged" title="Без изменений" items={run.unchanged}>
        {(c) => (
          <>
            {c.title}
            <AlsoInNote others={c.alsoIn} />
          </>
        )}
      </ListSection>
    </div>
  );
}

/** One list of the report, collapsible, a page at a time. Empty lists are
 * left out. */
function ListSection<T>({
  id,
  title,
  items,
  open,
  children,
}: {
  id: string;
  title: string;
  items: readonly T[];
  open?: boolean;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <details open={open} class="parser-list" data-testid={`list-${id}`}>
      <summary>
        {title} ({items.length})
      </summary>
      <ShowMore items={items} label={title.toLowerCase()} render={children} />
    </details>
  );
}

/** The first LIST_PAGE items and a button for the next ones. */
function ShowMore<T>({
  items,
  label,
  render,
}: {
  items: readonly T[];
  label: string;
  render: (item: T) => ReactNode;
}) {
  const [shown, setShown] = useState(LIST_PAGE);
  const list = useRef<HTMLUListElement>(null);
  const rest = items.length - shown;
  return (
    <>
      <ul class="parser-items" ref={list}>
        {items.slice(0, shown).map((item, i) => (
          // The lists are read-only and never reordered: the index is a key.
          <li key={i} tabIndex={i >= LIST_PAGE ? -1 : undefined}>
            {render(item)}
          </li>
        ))}
      </ul>
      {rest > 0 && (
        <button
          type="button"
          class="secondary outline"
          onClick={() => {
            const first = shown;
            setShown(shown + LIST_PAGE);
            // Focus goes to the first of the new items.
            setTimeout(
              () => (list.current?.children[first] as HTMLElement | undefined)?.focus(),
              0,
            );
          }}
        >
          Показать ещё {Math.min(rest, LIST_PAGE)} (осталось {rest}) — {label}
        </button>
      )}
    </>
  );
}

/** «Также в фиде «X»: его значения главнее», one line per other feed. */
function AlsoInNote({ others }: { others: readonly AlsoIn[] | undefined }) {
  if (!others || others.length === 0) return null;
  return (
    <>
      {others.map((o) => (
        <small key={o.feedId} class="parser-also-in" data-testid="also-in">
          {alsoInText(o)}
        </small>
      ))}
    </>
  );
}
