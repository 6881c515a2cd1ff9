import { describe, expect, it } from "vitest";
import { adminCarsUrl, auditUrl } from "../../src/admin/api";
import { matches } from "../../src/admin/lists";

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

describe("list search", () => {
  it("finds every word of the query in the texts, case-insensitively", () => {
    expect(matches("bmw", "BMW", "Баварские моторы")).toBe(true);
    expect(matches("ОТЕЧ", "Лада", "Отечественные")).toBe(true);
    expect(matches("  ", "Лада", null)).toBe(true);
    expect(matches("лада отеч", "Лада", "Отечественные")).toBe(true);
    expect(matches("лада bmw", "Лада", "Отечественные")).toBe(false);
  });
});
