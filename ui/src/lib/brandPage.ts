/** A brand page's URL (docs/catalogue.md, "A brand's page"): `model` (its
 * model filter) and a page number per section, `new`, `used` and `lease`
 * (1 when missing). Turning a section's page keeps the model and starts the
 * other sections over, so the links crawlers follow stay few. The server
 * reads the same parameters (src/http/pages/data/catalogue.rs). */
import type { CarStatus } from "../api/types";
import { formEncode, PAGE_MAX } from "./filters";

/** Cars a page of a section on every screen (two rows of four, four of
 * two, eight of one), read as one batch: `limit=8&offset=8·(N−1)`. */
export const SECTION_SIZE = 8;

/** The sections in their order, with their headings. */
export const BRAND_SECTIONS: readonly (readonly [CarStatus, string])[] = [
  ["new", "Новые автомобили"],
  ["used", "Автомобили с пробегом"],
  ["lease", "Аренда с выкупом"],
];

export interface BrandView {
  model: string | null;
  pages: Record<CarStatus, number>;
}

function pageNumber(text: string | null): number {
  const n = text && /^\d+$/.test(text) ? Number(text) : 1;
  return n >= 1 && n <= PAGE_MAX ? n : 1;
}

export function parseBrandView(search: string): BrandView {
  const q = new URLSearchParams(search);
  return {
    model: q.get("model") || null,
    pages: {
      new: pageNumber(q.get("new")),
      used: pageNumber(q.get("used")),
      lease: pageNumber(q.get("lease")),
    },
  };
}

/** The page's address showing `model`'s cars and page `page` of `status`'s
 * section (the first page of the others). */
export function brandHref(
  path: string,
  model: string | null,
  status?: CarStatus,
  page = 1,
): string {
  const q: string[] = [];
  if (model) q.push(`model=${formEncode(model)}`);
  if (status && page > 1) q.push(`${status}=${page}`);
  return q.length > 0 ? `${path}?${q.join("&")}` : path;
}

/** The model filter's choices: the brand's models in Russian order. */
export function sortedModels(models: readonly string[]): string[] {
  return [...models].sort((x, y) => x.localeCompare(y, "ru"));
}
