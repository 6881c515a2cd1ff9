import { describe, expect, it } from "vitest";
import { brandHref, parseBrandView, sortedModels } from "../../src/lib/brandPage";

describe("a brand page's address", () => {
  it("reads the model and each section's page", () => {
    expect(parseBrandView("model=Ceed+SW&used=3&lease=2")).toEqual({
      model: "Ceed SW",
      pages: { new: 1, used: 3, lease: 2 },
    });
  });

  it("reads a page number as the catalogues do: digits, 1 to 10,000", () => {
    for (const bad of ["0", "-2", "2.5", "12e5", "", "10001", "x"]) {
      expect(parseBrandView(`new=${bad}`).pages.new, bad).toBe(1);
    }
    expect(parseBrandView("new=10000").pages.new).toBe(10_000);
    expect(parseBrandView("model=").model).toBeNull();
  });

  it("links a section's page with the model, starting the others over", () => {
    const path = "/brand/kia";
    expect(brandHref(path, null)).toBe("/brand/kia");
    expect(brandHref(path, null, "used", 1)).toBe("/brand/kia");
    expect(brandHref(path, null, "used", 4)).toBe("/brand/kia?used=4");
    expect(brandHref(path, "Ceed SW", "lease", 2)).toBe("/brand/kia?model=Ceed+SW&lease=2");
    expect(brandHref(path, "Land Cruiser (J250)")).toBe("/brand/kia?model=Land+Cruiser+%28J250%29");
    // What the link writes, the page reads back.
    const href = brandHref(path, "Ceed SW", "new", 7);
    expect(parseBrandView(href.split("?")[1])).toEqual({
      model: "Ceed SW",
      pages: { new: 7, used: 1, lease: 1 },
    });
  });

  it("offers the models in Russian order: Cyrillic first, case aside", () => {
    expect(sortedModels(["Rio", "Ceed", "Лада", "ceed SW"])).toEqual([
      "Лада",
      "Ceed",
      "ceed SW",
      "Rio",
    ]);
  });
});
