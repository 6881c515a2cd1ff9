/** A run's lists on the parser screen: the photos' progress after an
 * apply, then new cars, changed cars field by field, cars leaving this
 * feed that stay on the site, cars to unpublish, rows with errors, warnings
 * by car, unchanged cars; a car another feed lists too says which feed's
 * values win. Collapsible, a page at a time: the run's answer carries the
 * first items of each list, the next are asked of the server as they are
 * shown. */
import { type ReactNode, useRef, useState } from "react";
import { apiGet } from "../../api/client";
import { formatPrice } from "../../lib/format";
import {
  CAR_STATUS_LABELS,
  changeValue,
  groupWarnings,
  type ImportRun,
  LIST_PAGE,
  listSize,
  photoText,
  type ReportList,
  type ReportPage,
  reportItemsUrl,
  rowErrorText,
  rowPlace,
  runItems,
} from "../lib/parser";
import { alsoInText, staysInText } from "../lib/parser-feeds";
import type { AlsoIn } from "../lib/parser-types";
import "./parser.css";

/** A list's items: the run's own, then the pages asked for. */
interface Paged<T> {
  items: T[];
  /** Items the list holds in all. */
  total: number;
  /** Asks for the next page; false when it could not be had. */
  load: () => Promise<boolean>;
}

function usePaged<L extends ReportList>(run: ImportRun, list: L): Paged<ReportPage[L][number]> {
  type Item = ReportPage[L][number];
  // A list changes only when the run is applied or compared again with
  // another condition: the pages asked for before are then dropped.
  const key = `${run.status}:${run.condition ?? ""}`;
  const [extra, setExtra] = useState<{ key: string; items: Item[] }>({ key, items: [] });
  const own = runItems(run, list) as Item[];
  const items = extra.key === key && extra.items.length > 0 ? [...own, ...extra.items] : own;
  const load = async () => {
    try {
      const page = await apiGet<ReportPage>(reportItemsUrl(run.id, list, items.length), {
        fresh: true,
      });
      const next = page[list] as Item[];
      setExtra({ key, items: [...items.slice(own.length), ...next] });
      return next.length > 0;
    } catch {
      return false;
    }
  };
  return { items, total: listSize(run, list), load };
}

export function Photos({ run, pending }: { run: ImportRun; pending: boolean }) {
  const { total, done, failed } = run.photos;
  const errors = usePaged(run, "photoErrors");
  return (
    <div class="parser-photos" data-testid="import-photos">
      <p role="status">
        {photoText(run.photos)}
        {pending && " · загрузка продолжается…"}
      </p>
      {total > 0 && <progress max={total} value={done + failed} aria-label="Загрузка фото" />}
      {errors.total > 0 && (
        <details open data-testid="photo-errors">
          <summary>Фото с ошибками ({errors.total})</summary>
          <p class="muted">Эти фото будут загружены снова при следующем импорте.</p>
          <ShowMore
            items={errors.items}
            total={errors.total}
            more={errors.items.length < errors.total ? errors.load : undefined}
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
      {failed > 0 && errors.total === 0 && <p class="muted">Фото с ошибками: {failed}</p>}
    </div>
  );
}

export function RunLists({ run }: { run: ImportRun }) {
  const added = usePaged(run, "new");
  const changed = usePaged(run, "changed");
  const left = usePaged(run, "left");
  const gone = usePaged(run, "gone");
  const errors = usePaged(run, "errors");
  const warnings = usePaged(run, "warnings");
  const unchanged = usePaged(run, "unchanged");
  const warned = groupWarnings(warnings.items);
  return (
    <div class="parser-lists">
      <ListSection id="new" title="Новые автомобили" list={added} open>
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
      <ListSection id="changed" title="Изменятся" list={changed} open>
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
      <ListSection id="left" title="Уйдут из этого фида, но останутся на сайте" list={left} open>
        {(c) => (
          <>
            <strong>{c.title}</strong> — {staysInText(c)}
          </>
        )}
      </ListSection>
      <ListSection id="gone" title="Снимутся с публикации" list={gone} open>
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
      <ListSection id="errors" title="Строки с ошибками" list={errors} open>
        {(e) => rowErrorText(e)}
      </ListSection>
      {/* Cars that load, with fields the feed does not state: one item a car
          (the server pages lines; a car is counted once). */}
      <ListSection
        id="warnings"
        title="Предупреждения"
        list={{
          items: warned,
          total: run.lists ? (run.counts.warnings ?? warned.length) : warned.length,
          load: warnings.items.length < warnings.total ? warnings.load : undefined,
        }}
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
      <ListSection id="unchanged" title="Без изменений" list={unchanged}>
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
 * left out. `load` (when the server holds more than `items`) asks for the
 * next items. */
function ListSection<T>({
  id,
  title,
  list,
  open,
  children,
}: {
  id: string;
  title: string;
  list: { items: readonly T[]; total: number; load?: () => Promise<boolean> };
  open?: boolean;
  children: (item: T) => ReactNode;
}) {
  if (list.total === 0 && list.items.length === 0) return null;
  return (
    <details open={open} class="parser-list" data-testid={`list-${id}`}>
      <summary>
        {title} ({list.total})
      </summary>
      <ShowMore
        items={list.items}
        total={list.total}
        more={list.load}
        label={title.toLowerCase()}
        render={children}
      />
    </details>
  );
}

/** The first LIST_PAGE items and a button for the next ones, asked of the
 * server (`more`) when those shown so far are all it gave. */
function ShowMore<T>({
  items,
  total,
  more,
  label,
  render,
}: {
  items: readonly T[];
  total: number;
  more?: () => Promise<boolean>;
  label: string;
  render: (item: T) => ReactNode;
}) {
  const [shown, setShown] = useState(LIST_PAGE);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const rest = Math.max(total, items.length) - shown;
  const next = async () => {
    const first = shown;
    if (more && first + LIST_PAGE > items.length) {
      setBusy(true);
      const ok = await more();
      setBusy(false);
      setFailed(!ok);
      if (!ok) return;
    }
    setShown(first + LIST_PAGE);
    // Focus goes to the first of the new items.
    setTimeout(() => (list.current?.children[first] as HTMLElement | undefined)?.focus(), 0);
  };
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
      {rest > 0 && (shown < items.length || more) && (
        <button
          type="button"
          class="secondary outline"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => void next()}
        >
          Показать ещё {Math.min(rest, LIST_PAGE)} (осталось {rest}) — {label}
        </button>
      )}
      {failed && (
        <p role="alert" class="result-error">
          Не удалось загрузить следующие строки: попробуйте ещё раз
        </p>
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
