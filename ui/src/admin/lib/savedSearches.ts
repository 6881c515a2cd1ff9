/** Who follows the catalogue's filters (saved searches with e-mail alerts,
 * docs/saved-searches.md). The addresses are personal data: staff only. */
import type { components } from "../../api/schema";
import { plural } from "../../lib/format";

export const SAVED_SEARCHES_URL = "/api/admin/saved-searches";
/** The caps on mail a stranger can trigger, and what they held. */
export const VISITOR_MAILS_URL = "/api/admin/visitor-mails";

/** The catalogue's API filter (docs/catalogue.md). */
export type SearchFilter = components["schemas"]["SearchFilter"];
/** `confirmedAt` null: the address has not confirmed yet. */
export type Subscriber = components["schemas"]["Subscriber"];
/** A followed filter: `followers` confirmed, `pending` asked and not yet confirmed. */
export type SavedSearch = components["schemas"]["AdminSavedSearch"];
/** Visitor-triggered mails of the last 24 hours: queued, held by the caps. */
export type VisitorMailFigures = components["schemas"]["VisitorMailFigures"];

const FOLLOWER_FORMS: [string, string, string] = ["подписчик", "подписчика", "подписчиков"];

/** "3 подписчика, 1 ждёт подтверждения" */
export function followersText(followers: number, pending: number): string {
  const head = `${followers} ${plural(followers, FOLLOWER_FORMS)}`;
  if (pending === 0) return head;
  return `${head}, ${pending} ${plural(pending, ["ждёт", "ждут", "ждут"])} подтверждения`;
}

/** Totals over every filter: confirmed followers, pending ones. */
export function followerTotals(searches: readonly SavedSearch[]): {
  followers: number;
  pending: number;
} {
  return searches.reduce(
    (t, s) => ({ followers: t.followers + s.followers, pending: t.pending + s.pending }),
    { followers: 0, pending: 0 },
  );
}

/** Confirmed subscribers first (the newest first), then the pending ones. */
export function sortSubscribers(list: readonly Subscriber[]): Subscriber[] {
  return [...list].sort((a, b) => {
    const ac = a.confirmedAt ? 0 : 1;
    const bc = b.confirmedAt ? 0 : 1;
    if (ac !== bc) return ac - bc;
    return b.createdAt.localeCompare(a.createdAt);
  });
}

/** The filter's page on this site as a path (the page URL the visitor sent
 * is absolute); null for anything that is not a web address. */
export function pagePath(pageUrl: string): string | null {
  try {
    const u = new URL(pageUrl, "http://site.invalid");
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

const MAIL_FORMS: [string, string, string] = ["письмо", "письма", "писем"];

/** "Писем не отправлено из-за ограничения: 37 (за последние 24 часа)" */
export function heldMailsText(f: VisitorMailFigures): string {
  return `Писем не отправлено из-за ограничения: ${f.heldLastDay} (за последние 24 часа)`;
}

/** "Отправлено 3 письма из 300 в сутки; на один адрес — не больше 3" */
export function mailCapText(f: VisitorMailFigures): string {
  return `Отправлено ${f.sentLastDay} ${plural(f.sentLastDay, MAIL_FORMS)} из ${f.dailyLimit} в сутки; на один адрес — не больше ${f.perAddressLimit}`;
}
