/** A promotion's state in the admin list: its switch and its last day
 * (a Moscow date; the site stops showing it the day after). */
import type { Promotion } from "../../api/types";

type Dated = Pick<Promotion, "isActive" | "validUntil">;

/** "Активна", "Неактивна", or "Закончилась" for an active promotion past its
 * last day (the site no longer shows it). `today` is "YYYY-MM-DD", Moscow. */
export function promotionState(p: Dated, today: string): string {
  if (!p.isActive) return "Неактивна";
  return isOver(p, today) ? "Закончилась" : "Активна";
}

export function promotionStateClass(p: Dated, today: string): string {
  if (!p.isActive) return "badge-gray";
  return isOver(p, today) ? "badge-red" : "badge-green";
}

function isOver(p: Dated, today: string): boolean {
  return p.validUntil !== "" && p.validUntil < today;
}
