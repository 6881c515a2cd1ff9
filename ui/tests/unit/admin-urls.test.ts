import { describe, expect, it } from "vitest";
import { adminCarsUrl, auditUrl } from "../../src/admin/api";
import { filterBrands, matches } from "../../src/admin/lists";
import type { Brand } from "../../src/api/types";

describe("admin URLs", () => {
  it("asks for a page of cars with only the filters set", () => {
    const base = { q: "", page: 1, perPage: 24, condition: "all", published: "all" } as const;
    expect(adminCarsUrl(base)).toBe("/api/admin/cars?page=1&perPage=24");
    expect(
      adminCarsUrl({ ...base, q: " Лада 2024 ", page: 3, condition: "used", published: "false" }),
    ).toBe(
      "/api/admin/cars?q=%D0%9B%D0%B0%D0%B4%D0%B0+2024&page=3&perPage=24&condition=used&published=false",
    );
    expect(adminCarsUrl({ ...base, page: 0 })).toBe("/api/admin/cars?page=1&perPage=24");
  });

  it("asks for the audit trail, of one object when given", () => {
    expect(auditUrl(10)).toBe("/api/admin/audit?limit=10");
    expect(auditUrl(50, { objectType: "lead", objectId: "7" })).toBe(
      "/api/admin/audit?limit=50&objectType=lead&objectId=7",
    );
  });
});

describe("brand search", () => {
  const brand = (name: string, description: string) => ({ name, description }) as Brand;
  it("finds brands by name or description, case-insensitively", () => {
    const list = [brand("BMW", "Баварские моторы"), brand("Лада", "Отечественные")];
    expect(filterBrands(list, "bmw").map((b) => b.name)).toEqual(["BMW"]);
    expect(filterBrands(list, "ОТЕЧ").map((b) => b.name)).toEqual(["Лада"]);
    expect(filterBrands(list, "  ")).toHaveLength(2);
    expect(matches("лада отеч", "Лада", "Отечественные")).toBe(true);
  });
});
