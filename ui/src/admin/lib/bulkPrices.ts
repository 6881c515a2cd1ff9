/** The bulk price change: what it will touch, said before it runs, and what
 * its undo did (docs/admin.md, bulk price change). */
import type { components } from "../../api/schema";
import { CAR_FORMS, plural } from "../../lib/format";
import type { ConditionFilter, PublishedFilter } from "../api";

export type BulkPriceAnswer = components["schemas"]["BulkPriceAnswer"];
export type PriceChange = components["schemas"]["PriceChange"];
export type Undone = components["schemas"]["Undone"];

export const PRICE_CHANGES_URL = "/api/admin/price-changes";
export const undoUrl = (id: number) => `/api/cars/prices/bulk/${id}/undo`;

export interface BulkFilter {
  q: string;
  condition: ConditionFilter;
  published: PublishedFilter;
}

const CONDITIONS: Record<Exclude<ConditionFilter, "all">, string> = {
  new: "новые",
  used: "с пробегом",
  lease: "аренда с выкупом",
};

/** The list's search and filters, said as the server's audit summary says
 * them: "поиск «lada», с пробегом, черновики"; "" for all cars. */
export function bulkScope(filter: BulkFilter): string {
  const parts: string[] = [];
  const q = filter.q.trim();
  if (q) parts.push(`поиск «${q}»`);
  if (filter.condition !== "all") parts.push(CONDITIONS[filter.condition]);
  if (filter.published === "true") parts.push("опубликованные");
  if (filter.published === "false") parts.push("черновики");
  return parts.join(", ");
}

/** The body of `PUT /api/cars/prices/bulk`: the factor and the filters. */
export function bulkBody(priceMultiplier: string, filter: BulkFilter) {
  return {
    priceMultiplier,
    ...(filter.q.trim() ? { q: filter.q.trim() } : {}),
    ...(filter.condition !== "all" ? { condition: filter.condition } : {}),
    ...(filter.published !== "all" ? { published: filter.published } : {}),
  };
}

/** The confirmation: which way, by how much, how many cars and which. */
export function bulkQuestion(
  direction: "raise" | "lower",
  percent: string,
  count: number,
  scope: string,
): { title: string; message: string; confirmLabel: string } {
  const p = percent.trim().replace(".", ",");
  const verb = direction === "raise" ? "Повысить" : "Понизить";
  const cars = `${count} ${plural(count, CAR_FORMS)}`;
  const which = scope
    ? `Изменятся цены ${cars}, которые найдены в списке: ${scope}.`
    : `Изменятся цены всех автомобилей: ${cars}.`;
  return {
    title: `${verb} цены на ${p}%?`,
    message: `${which} Изменение можно будет отменить одной кнопкой.`,
    confirmLabel: `${verb} цены`,
  };
}

/** The toast after an undo. */
export function undoneText(undone: Undone): string {
  const { restoredCount: back, skippedCount: skipped } = undone;
  const text = `Цены возвращены: ${back} ${plural(back, CAR_FORMS)}`;
  if (skipped === 0) return text;
  return `${text}. Не тронуты (цена менялась с тех пор): ${skipped} ${plural(skipped, CAR_FORMS)}`;
}
