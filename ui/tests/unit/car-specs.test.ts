// A car page's specs: what the dealer did not state is left out (a drive of
// null, no complectation, generation or doors), what it did is shown; body
// types are named by the table the page passes.
import { describe, expect, it } from "vitest";
import type { Car } from "../../src/api/types";
import { carSpecs } from "../../src/lib/carSpecs";
import { bodyTypeName } from "../../src/lib/labels";

const car = (over: Partial<Car> = {}): Car =>
  ({
    id: "c1",
    slug: "haval-jolion",
    brandId: "b",
    brandName: "Haval",
    brandSlug: "haval",
    name: "Jolion",
    model: "Jolion",
    year: 2024,
    price: "2500000.00",
    status: "new",
    bodyType: "crossover",
    transmission: "automatic",
    drivetrain: "all",
    fuelType: "gasoline",
    engine: "1.5 л, 150 л.с.",
    mileage: 0,
    mainImage: "",
    images: [],
    hasImages: false,
    inStock: true,
    featured: false,
    published: true,
    trimLevels: [],
    trim: null,
    generation: null,
    doors: null,
    createdAt: "",
    updatedAt: "",
    ...over,
  }) as Car;

const labels = (rows: [string, string][]) => rows.map(([label]) => label);
const value = (rows: [string, string][], label: string) => rows.find(([l]) => l === label)?.[1];
const defaults = (code: string) => bodyTypeName(code, undefined);

describe("a car page's specs", () => {
  it("shows a stated drive in the tile (new cars) and the technical list", () => {
    const s = carSpecs(car(), defaults);
    expect(value(s.tiles, "Привод")).toBe("Полный");
    expect(value(s.tech, "Привод")).toBe("Полный");
  });

  it("hides a drive that is not stated, tile and row", () => {
    const s = carSpecs(car({ drivetrain: null }), defaults);
    expect(labels(s.tiles)).toEqual(["Год", "Топливо", "КПП"]);
    expect(labels(s.tech)).toEqual(["Двигатель", "Тип топлива", "Коробка передач"]);
  });

  it("shows the complectation, generation and doors when set, in the main list", () => {
    const s = carSpecs(car({ trim: "Executive", generation: "III", doors: 5 }), defaults);
    expect(s.main).toEqual([
      ["Марка", "Haval"],
      ["Модель", "Jolion"],
      ["Поколение", "III"],
      ["Комплектация", "Executive"],
      ["Год выпуска", "2024"],
      ["Тип кузова", "Кроссовер"],
      ["Двери", "5"],
    ]);
    const bare = carSpecs(car({ trim: null, generation: null, doors: null }), defaults);
    expect(labels(bare.main)).toEqual(["Марка", "Модель", "Год выпуска", "Тип кузова"]);
  });

  it("names a body type of the dealership's own by the table, and waits for it", () => {
    const table = [{ bodyType: "minivan", labelPlural: "Минивэны", labelSingle: "Минивэн" }];
    const minivan = car({ bodyType: "minivan" });
    expect(value(carSpecs(minivan, (c) => bodyTypeName(c, table)).main, "Тип кузова")).toBe(
      "Минивэн",
    );
    // Still loading: no row rather than a code.
    expect(value(carSpecs(minivan, defaults).main, "Тип кузова")).toBeUndefined();
  });
});
