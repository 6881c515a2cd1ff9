/** The reviews screen: totals, search and the status filter. */
import type { Review } from "../../api/types";
import { shownItems, type ViewSpec } from "../resource/view";

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

type Reviewed = Pick<Review, "approved" | "customerName" | "text" | "carModel">;

/** The list's search (customer name, text, car model) and status filter. */
export const REVIEW_VIEW: ViewSpec<Reviewed> = {
  search: {
    label: "Поиск",
    id: "reviews-search",
    placeholder: "Имя клиента, текст или модель автомобиля",
    text: (r) => [r.customerName, r.text, r.carModel],
  },
  filter: {
    id: "reviews-status-filter",
    label: "Статус",
    options: REVIEW_FILTERS,
    test: (r, status) => r.approved === (status === "approved"),
  },
};

/** Reviews whose customer name, text or car model contains the query, of
 * the chosen status. */
export function filterReviews<T extends Reviewed>(
  reviews: T[],
  query: string,
  status: ReviewFilter,
): T[] {
  return shownItems(reviews, REVIEW_VIEW, { query, filter: status });
}

/** "★★★★☆" for 4 of 5. */
export function stars(rating: number): string {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(n) + "☆".repeat(5 - n);
}
