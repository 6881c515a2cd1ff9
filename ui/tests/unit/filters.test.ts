import { describe, expect, it } from "vitest";
import { newCarsCount, newCarsPage } from "../../src/api/urls";
import {
  changeFilters,
  DEFAULT_FILTERS,
  filterCars,
  filtersToSearch,
  hasActiveFilters,
  PRICE_MAX,
  pageOf,
  parseFilters,
} from "../../src/lib/filters";
import { slugFromPath, slugify } from "../../src/lib/slug";

describe("filter state ↔ URL", () => {
  it("reads defaults from an empty query", () => {
    expect(parseFilters("")).toEqual(DEFAULT_FILTERS);
    expect(hasActiveFilters(parseFilters(""))).toBe(false);
  });

  it("round-trips every filter", () => {
    const search = "brand=haval&body=crossover&condition=used&model=Jolion&price=3000000&page=3";
    const filters = parseFilters(search);
    expect(filters).toEqual({
      brand: "haval",
      body: "crossover",
      condition: "used",
      model: "Jolion",
      price: 3_000_000,
      page: 3,
    });
    expect(parseFilters(filtersToSearch(filters))).toEqual(filters);
    expect(hasActiveFilters(filters)).toBe(true);
  });

  it("leaves defaults out of the URL", () => {
    expect(filtersToSearch(DEFAULT_FILTERS)).toBe("");
    expect(filtersToSearch({ ...DEFAULT_FILTERS, page: 2 })).toBe("page=2");
  });

  it("ignores junk and clamps the price to the slider", () => {
    const f = parseFilters("brand=<x>&body=tank&condition=old&price=99&page=-4");
    expect(f.brand).toBeNull();
    expect(f.body).toBeNull();
    expect(f.condition).toBe("all");
    expect(f.price).toBe(500_000);
    expect(f.page).toBe(1);
    expect(parseFilters("price=123456789").price).toBe(PRICE_MAX);
    expect(parseFilters("price=2550000").price).toBe(2_600_000);
  });

  it("goes back to page 1 on any filter change, not on a page change", () => {
    const on3 = { ...DEFAULT_FILTERS, page: 3 };
    expect(changeFilters(on3, { brand: "lada" }).page).toBe(1);
    expect(changeFilters(on3, { price: 2_000_000 }).page).toBe(1);
    expect(changeFilters(on3, { page: 4 }).page).toBe(4);
  });

  it("filters and pages a whole list", () => {
    const car = (brandSlug: string, status: string, price: string, bodyType = "sedan") => ({
      brandSlug,
      status,
      price,
      bodyType,
      model: "X",
    });
    const cars = [
      car("haval", "new", "2000000.00", "crossover"),
      car("haval", "used", "900000.00"),
      car("lada", "new", "1200000.00"),
      car("lada", "lease", "1900000.00"),
    ];
    expect(filterCars(cars, DEFAULT_FILTERS)).toHaveLength(4);
    expect(filterCars(cars, { ...DEFAULT_FILTERS, brand: "haval" })).toHaveLength(2);
    expect(filterCars(cars, { ...DEFAULT_FILTERS, condition: "used" })).toHaveLength(1);
    expect(filterCars(cars, { ...DEFAULT_FILTERS, price: 1_200_000 })).toHaveLength(2);
    expect(filterCars(cars, { ...DEFAULT_FILTERS, body: "crossover" })).toHaveLength(1);
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
  });

  it("builds the API URLs the server embeds", () => {
    const q = { brandId: "b1", bodyType: "sedan" as const, maxPrice: 3_000_000 };
    expect(newCarsPage(q, 0)).toBe(
      "/api/cars/fast?status=new&brandId=b1&bodyType=sedan&maxPrice=3000000&limit=20&offset=0",
    );
    expect(newCarsCount({ brandId: null, bodyType: null, maxPrice: null })).toBe(
      "/api/cars/count?status=new",
    );
  });
});

describe("slugs", () => {
  it("transliterates Cyrillic and collapses other characters", () => {
    expect(slugify("Лада Веста SW")).toBe("lada-vesta-sw");
    expect(slugify("  Haval  Jolion (2025) ")).toBe("haval-jolion-2025");
    expect(slugify("Жигули — «Копейка»")).toBe("zhiguli-kopeyka");
    expect(slugify("---")).toBe("");
  });

  it("accepts only slug-shaped path segments", () => {
    expect(slugFromPath("haval-jolion-0")).toBe("haval-jolion-0");
    expect(slugFromPath("a%20b")).toBeNull();
    expect(slugFromPath(undefined)).toBeNull();
  });
});
