// The shared examples (tests/fixtures/catalogue-urls.json): for each page URL,
// the API URLs the UI reads for its first screen, at 20 and at 10 cars a page,
// are exactly the ones the server embeds in that page (tests/pages.rs checks
// the server's side).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BodyTypeCode, BrandBrief } from "../../src/api/types";
import * as urls from "../../src/api/urls";
import { BRAND_SECTIONS, parseBrandView, SECTION_SIZE } from "../../src/lib/brandPage";
import {
  type CatalogueScope,
  catalogueUrls,
  PAGE_SIZE_DESKTOP,
  PAGE_SIZE_PHONE,
  pageBatch,
} from "../../src/lib/catalogue";
import { parseFilters } from "../../src/lib/filters";
import { isBodyTypeCode } from "../../src/lib/labels";

interface Fixture {
  brands: { id: string; slug: string; name: string }[];
  cars: { slug: string; brand: string; model: string; bodyType: BodyTypeCode; status: string }[];
  pages: { page: string; api: string[] }[];
}

const fixture = JSON.parse(
  readFileSync(new URL("../../../tests/fixtures/catalogue-urls.json", import.meta.url), "utf8"),
) as Fixture;

const brands: BrandBrief[] = fixture.brands.map((b) => ({ ...b, logo: "", carCount: 0 }));

/** The body-type table of the server the examples run on: the six seeded types. */
const bodyTypes = ["sedan", "hatchback", "crossover", "wagon", "coupe", "pickup"].map(
  (bodyType) => ({ bodyType }),
);

/** What the page at `url` reads besides the settings and the credit
 * programmes (the header and footer read those on every page), at one page
 * size. */
function pageReads(url: string, pageSize: number): string[] {
  const { pathname, search } = new URL(url, "http://localhost");
  const [, first, second] = pathname.split("/");
  const catalogue = (scope: CatalogueScope) =>
    catalogueUrls(scope, parseFilters(search), brands, bodyTypes, pageSize);
  switch (`/${first}`) {
    case "/":
      return [
        urls.BRANDS,
        urls.BODY_TYPES,
        urls.HOME_FEATURED,
        urls.HOME_CATALOGUE,
        urls.PROMOTIONS,
        urls.REVIEWS,
      ];
    case "/new-cars":
      return catalogue({ kind: "new" });
    case "/used-cars":
      return catalogue({ kind: "used" });
    case "/body-type":
      // A code-shaped type is asked for; one the table lacks is a 404 (its
      // null answer embedded), and nothing else is read.
      if (!isBodyTypeCode(second)) return [];
      return bodyTypes.some((t) => t.bodyType === second)
        ? catalogue({ kind: "body", code: second })
        : [urls.bodyType(second)];
    case "/lease-cars": {
      const page = parseFilters(search).page;
      return [pageBatch(urls.LEASE_CARS, page, pageSize).url, urls.carsCount(urls.LEASE_CARS)];
    }
    case "/brand": {
      const brand = brands.find((b) => b.slug === second);
      const reads = [urls.brandBySlug(second)];
      if (!brand) return reads;
      const view = parseBrandView(search);
      const models = fixture.cars.filter((c) => c.brand === second).map((c) => c.model);
      const model = view.model && models.includes(view.model) ? view.model : null;
      reads.push(urls.brandModels(brand.id));
      for (const [status] of BRAND_SECTIONS) {
        const section = urls.brandCars(brand.id, status, model);
        reads.push(
          urls.carsCount(urls.brandCars(brand.id, status, null, null)),
          urls.carsList(section, (view.pages[status] - 1) * SECTION_SIZE, SECTION_SIZE),
          urls.carsCount(section),
        );
      }
      return reads;
    }
    case "/car": {
      const car = fixture.cars.find((c) => c.slug === second);
      const reads = [urls.carBySlug(second)];
      if (car) reads.push(urls.similarCars(car.bodyType), urls.PROMOTIONS);
      return reads;
    }
    case "/auto-credit":
      return [urls.PARTNER_BANKS];
    case "/auto-selection":
      return [urls.BODY_TYPES];
    case "/consent":
      return [urls.legal("consent")];
    case "/privacy":
      return [urls.legal("privacy")];
    default:
      return [];
  }
}

describe("the shared examples of embedded data", () => {
  it("has examples", () => {
    expect(fixture.pages.length).toBeGreaterThanOrEqual(20);
  });

  for (const example of fixture.pages) {
    it(example.page, () => {
      const desktop = pageReads(example.page, PAGE_SIZE_DESKTOP);
      const phone = pageReads(example.page, PAGE_SIZE_PHONE);
      const reads = new Set([urls.SETTINGS, urls.CREDIT_PROGRAMS, ...desktop, ...phone]);
      expect([...reads].sort()).toEqual([...example.api].sort());
    });
  }
});
