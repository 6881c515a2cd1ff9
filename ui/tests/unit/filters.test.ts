import { describe, expect, it } from "vitest";
import type { BrandBrief } from "../../src/api/types";
import { ALL_CARS, carsCount, carsList } from "../../src/api/urls";
import { batchUrls, catalogueQuery, knownBodyType, pageBatch } from "../../src/lib/catalogue";
import {
  changeFilters,
  DEFAULT_FILTERS,
  filtersToSearch,
  formEncode,
  hasActiveFilters,
  PRICE_MAX,
  parseFilters,
} from "../../src/lib/filters";
import { bodyTypeName } from "../../src/lib/labels";
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
      salon: null,
      page: 3,
    });
    expect(parseFilters(filtersToSearch(filters))).toEqual(filters);
    expect(hasActiveFilters(filters)).toBe(true);
  });

  it("writes values as URLSearchParams does", () => {
    const values = [
      "haval",
      "Jolion",
      "Tiggo 7 Pro Max",
      "CX-5",
      "X5 M50d (G05)",
      "Škoda Octavia A7",
      "Лада Веста SW Cross",
      "a+b&c=d?e#f/g%h",
      "it's ~ok! *_.-",
      "tab\tnew\nline",
      "emoji 🚗",
      "",
    ];
    for (const value of values) {
      expect(formEncode(value)).toBe(new URLSearchParams({ v: value }).toString().slice(2));
    }
    const filters = {
      brand: "mercedes-benz",
      body: "crossover" as const,
      condition: "used" as const,
      model: "GLE Coupé 53 (C167)",
      price: 4_500_000,
      salon: 3,
      page: 12,
    };
    const q = new URLSearchParams();
    q.set("brand", filters.brand);
    q.set("body", filters.body);
    q.set("condition", filters.condition);
    q.set("model", filters.model);
    q.set("price", String(filters.price));
    q.set("salon", String(filters.salon));
    q.set("page", String(filters.page));
    expect(filtersToSearch(filters)).toBe(q.toString());
    expect(parseFilters(filtersToSearch(filters))).toEqual(filters);
  });

  it("leaves defaults out of the URL", () => {
    expect(filtersToSearch(DEFAULT_FILTERS)).toBe("");
    expect(filtersToSearch({ ...DEFAULT_FILTERS, page: 2 })).toBe("page=2");
  });

  it("ignores junk and clamps the price to the slider", () => {
    const f = parseFilters("brand=<x>&body=Tank!&condition=old&price=99&page=-4");
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

  it("reads only whole numbers for the price and the page", () => {
    expect(parseFilters("price=12e5&page=2.5")).toEqual(DEFAULT_FILTERS);
    expect(parseFilters("price=&page=").price).toBe(PRICE_MAX);
    expect(parseFilters("page=10000").page).toBe(10_000);
    expect(parseFilters("page=10001").page).toBe(1);
    expect(parseFilters("price=1&price=2000000").price).toBe(500_000);
  });

  // The server filters now (tests/pages.rs checks what it lists); here, what
  // the browser asks it for.
  it("turns filters into the server's query, and a page into its batch", () => {
    const brands = [{ id: "b-haval", slug: "haval" }] as BrandBrief[];
    const bodyTypes = [{ bodyType: "sedan" }, { bodyType: "crossover" }];
    const body = { kind: "body", code: "sedan" } as const;
    const q = (search: string, scope: Parameters<typeof catalogueQuery>[0] = body) =>
      catalogueQuery(scope, parseFilters(search), brands, bodyTypes);
    expect(q("")).toEqual({ ...ALL_CARS, bodyType: "sedan" });
    expect(q("brand=haval").brandId).toBe("b-haval");
    expect(q("brand=lada").brandId).toBeNull();
    expect(q("condition=used").status).toEqual(["used"]);
    expect(q("price=1200000").maxPrice).toBe(1_200_000);
    expect(q("body=crossover", { kind: "new" })).toEqual({
      ...ALL_CARS,
      status: ["new"],
      bodyType: "crossover",
    });
    expect(q("body=crossover&condition=new", { kind: "used" }).status).toEqual(["used"]);
    const used = q("", { kind: "used" });
    expect(pageBatch(used, 1, 20)).toEqual({ url: carsList(used, 0), skip: 0 });
    expect(pageBatch(used, 2, 10)).toEqual({ url: carsList(used, 0), skip: 10 });
    expect(pageBatch(used, 3, 10)).toEqual({ url: carsList(used, 20), skip: 0 });
    expect(pageBatch(used, 2, 20)).toEqual({ url: carsList(used, 20), skip: 0 });
    expect(batchUrls(used, 10, 20)).toEqual([carsList(used, 0), carsList(used, 20)]);
    expect(batchUrls(used, 40, 20)).toEqual([carsList(used, 40)]);
  });

  it("builds the API URLs the server embeds", () => {
    const q = {
      ...ALL_CARS,
      status: ["new" as const],
      brandId: "b1",
      bodyType: "sedan" as const,
      maxPrice: 3_000_000,
    };
    expect(carsList(q, 0)).toBe(
      "/api/cars/fast?status=new&brandId=b1&bodyType=sedan&maxPrice=3000000&limit=20&offset=0",
    );
    expect(carsCount({ ...ALL_CARS, status: ["new"] })).toBe("/api/cars/count?status=new");
    expect(carsCount(ALL_CARS)).toBe("/api/cars/count");
    expect(carsList({ ...ALL_CARS, brandId: "b1", sort: "price_asc" }, 0, 100)).toBe(
      "/api/cars/fast?brandId=b1&sort=price_asc&limit=100&offset=0",
    );
  });
});

describe("body types from the dealership's table", () => {
  const table = [
    { bodyType: "sedan", labelPlural: "Седаны", labelSingle: "Седан" },
    { bodyType: "minivan", labelPlural: "Минивэны", labelSingle: "Минивэн" },
    { bodyType: "kupe", labelPlural: "Купе", labelSingle: "Купе" },
  ];
  const newCars = (search: string, types = table) =>
    catalogueQuery({ kind: "new" }, parseFilters(search), [], types);

  it("keeps a body type of the table's own in the URL and filters by it", () => {
    const f = parseFilters("body=minivan&page=2");
    expect(f.body).toBe("minivan");
    expect(parseFilters(filtersToSearch(f))).toEqual(f);
    expect(knownBodyType(f, table)).toBe("minivan");
    expect(newCars("body=minivan").bodyType).toBe("minivan");
    expect(carsCount(newCars("body=minivan"))).toBe("/api/cars/count?status=new&bodyType=minivan");
    expect(newCars("body=kupe").bodyType).toBe("kupe");
  });

  it("filters nothing by a code the table lacks, or by what is not a code", () => {
    expect(newCars("body=tank").bodyType).toBeNull();
    expect(knownBodyType(parseFilters("body=tank"), table)).toBeNull();
    // The same code once the table has it.
    expect(newCars("body=tank", [...table, { ...table[0], bodyType: "tank" }]).bodyType).toBe(
      "tank",
    );
    for (const junk of ["Minivan", "mini_van", "-van", "van-", "mini--van", "a".repeat(51)]) {
      expect(parseFilters(`body=${junk}`).body, junk).toBeNull();
    }
    expect(parseFilters(`body=${"a".repeat(50)}`).body).toBe("a".repeat(50));
  });

  it("names a type by the table, the six by default while it is not at hand", () => {
    expect(bodyTypeName("minivan", table)).toBe("Минивэн");
    expect(bodyTypeName("minivan", table, "plural")).toBe("Минивэны");
    expect(bodyTypeName("minivan", undefined)).toBeUndefined();
    expect(bodyTypeName("coupe", undefined)).toBe("Внедорожник");
    expect(bodyTypeName("coupe", undefined, "plural")).toBe("Внедорожники");
    // A renamed built-in type: the table's name wins.
    expect(bodyTypeName("sedan", [{ ...table[0], labelSingle: "Седан бизнес" }])).toBe(
      "Седан бизнес",
    );
    expect(bodyTypeName("constructor", undefined)).toBeUndefined();
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
