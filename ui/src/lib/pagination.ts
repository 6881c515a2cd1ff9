/** Numbered pagination: first, last, current ±1, with ellipses between. */
export type PageItem = number | "ellipsis-start" | "ellipsis-end";

export function pageWindow(current: number, total: number): PageItem[] {
  if (total <= 1) return total === 1 ? [1] : [];
  const page = Math.min(Math.max(current, 1), total);
  const items: PageItem[] = [1];
  const from = Math.max(2, page - 1);
  const to = Math.min(total - 1, page + 1);
  if (from > 2) items.push("ellipsis-start");
  for (let p = from; p <= to; p++) items.push(p);
  if (to < total - 1) items.push("ellipsis-end");
  items.push(total);
  return items;
}

export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}
