/** The reviews screen: totals, search and the status filter. */
import type { Review } from "../../api/types";
import { matches } from "../lists";

export type ReviewFilter = "all" | "approved" | "pending";

export const REVIEW_FILTERS: { value: ReviewFilter; label: string }[] = [
  { value: "all", label: "Все" },
  { value: "approved", label: "Одобренные" },
  { value: "pending", label: "На модерации" },
];

export interface ReviewTotals {
  all: number;
  approved: number;
  pending: number;
}

export function reviewTotals(reviews: Pick<Review, "approved">[]): ReviewTotals {
  const approved = reviews.filter((r) => r.approved).length;
  return { all: reviews.length, approved, pending: reviews.length - approved };
}

/** Reviews whose customer name, text or car model contains the query, of
 * the chosen status. */
export function filterReviews<
  T extends Pick<Review, "approved" | "customerName" | "text" | "carModel">,
>(reviews: T[], query: string, status: ReviewFilter): T[] {
  return reviews.filter(
    (r) =>
      (status === "all" || r.approved === (status === "approved")) &&
      matches(query, r.customerName, r.text, r.carModel),
  );
}

/** "★★★★☆" for 4 of 5. */
export function stars(rating: number): string {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(n) + "☆".repeat(5 - n);
}
