import { describe, expect, it } from "vitest";
import {
  bulkMultiplier,
  CAR_FIELDS,
  carInput,
  carSlug,
  carValues,
  doorsRule,
  generationRule,
  isMoney,
  MESSAGES,
  maxYear,
  mileageRule,
  normalizeMoney,
  optionalMoneyRule,
  priceRule,
  slugRule,
  trimRule,
  yearMax,
  yearMin,
  yearRule,
} from "../../src/admin/carForm";
import type { Car } from "../../src/api/types";

const NOW = new Date("2026-11-23T12:00:00Z");

const car: Car = {
  id: "c1",
  brandId: "b1",
  brandName: "BMW",
  brandSlug: "bmw",
  name: "X5",
  slug: "x5-xdrive40i",
  model: "xDrive40i",
  year: 2024,
  price: "7500000.00",
  monthlyPayment: "95000.50",
  dailyPrice: null,
  status: "used",
  bodyType: "crossover",
  transmission: "automatic",
  drivetrain: "all",
  fuelType: "gasoline",
  engine: "3.0 л",
  trim: null,
  generation: null,
  doors: null,
  owners: null,
  accident: null,
  state: null,
  wheel: "left",
  mileage: 12000,
  mainImage: "/m/a.webp",
  images: ["/m/a.webp", "/m/b.webp"],
  hasImages: true,
  inStock: true,
  featured: false,
  trimLevels: [{ name: "M Sport", description: "Пакет", link: "" }],
  published: false,
  color: null,
  vin: null,
  externalId: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
};

describe("car form values", () => {
  it("starts a new car empty, new, published and in stock, this year", () => {
    const v = carValues(null, NOW);
    expect(v.year).toBe("2026");
    expect(v.status).toBe("new");
    expect(v.published).toBe(true);
    expect(v.inStock).toBe(true);
    expect(v.featured).toBe(false);
    expect(v.images).toEqual([]);
  });

  it("round-trips an existing car", () => {
    const v = carValues(car, NOW);
    expect(v.price).toBe("7500000");
    expect(v.monthlyPayment).toBe("95000.50");
    expect(v.mileage).toBe("12000");
    const input = carInput(v);
    expect(input.price).toBe("7500000");
    // A used car's monthly figure comes from the credit programmes.
    expect(input).not.toHaveProperty("monthlyPayment");
    expect(carInput({ ...v, status: "lease" }).monthlyPayment).toBe("95000.50");
    expect(input.mileage).toBe(12000);
    expect(input.images).toEqual(["/m/a.webp", "/m/b.webp"]);
    expect(input.mainImage).toBe("/m/a.webp");
    expect(input.published).toBe(false);
    expect(input.trimLevels).toEqual([{ name: "M Sport", description: "Пакет", link: "" }]);
  });

  it("sends mileage only for a used car, the monthly and daily price only for a lease", () => {
    const v = { ...carValues(car, NOW), status: "new" as const, dailyPrice: "5000" };
    expect(carInput(v)).not.toHaveProperty("mileage");
    expect(carInput(v)).not.toHaveProperty("dailyPrice");
    expect(carInput(v)).not.toHaveProperty("monthlyPayment");
    expect(carInput({ ...v, status: "used" })).not.toHaveProperty("monthlyPayment");
    expect(carInput({ ...v, status: "lease", monthlyPayment: "" }).monthlyPayment).toBeNull();
    expect(carInput({ ...v, status: "lease" }).dailyPrice).toBe("5000");
    expect(carInput({ ...v, status: "lease", dailyPrice: "" }).dailyPrice).toBeNull();
    expect(carInput({ ...v, status: "used" }).mileage).toBe(12000);
  });

  it("never sends back what it does not show: an imported car keeps its feed id", () => {
    const imported: Car = { ...car, externalId: "4741654998", vin: "WBAJU81090B123456" };
    const body = carInput({ ...carValues(imported, NOW), price: "7 400 000" });
    expect(body).not.toHaveProperty("externalId");
    expect(body.price).toBe("7400000");
    // The VIN is a field of the form: sent as shown.
    expect(body.vin).toBe("WBAJU81090B123456");
    const shown = new Set([...CAR_FIELDS, "mainImage", "published", "inStock", "featured"]);
    expect(Object.keys(body).filter((k) => !shown.has(k as never))).toEqual([]);
  });

  it("strips spaces from prices and takes a comma as the decimal point", () => {
    expect(normalizeMoney("2 500 000")).toBe("2500000");
    expect(normalizeMoney("2\u00a0500\u00a0000,50")).toBe("2500000.50");
    const v = { ...carValues(null, NOW), price: " 1 990 000 " };
    expect(carInput(v).price).toBe("1990000");
  });

  it("drops empty trim levels and keeps at most six pictures", () => {
    const v = {
      ...carValues(null, NOW),
      images: ["1", "2", "3", "4", "5", "6", "7"],
      trimLevels: [
        { name: " ", description: "", link: "" },
        { name: "Base ", description: "", link: "" },
      ],
    };
    const input = carInput(v);
    expect(input.images).toHaveLength(6);
    expect(input.trimLevels).toEqual([{ name: "Base", description: "", link: "" }]);
  });
});

describe("drive, complectation, generation and doors", () => {
  it("sends an empty drive as not stated, and shows a car's unstated drive as empty", () => {
    const v = carValues(null, NOW);
    expect(v.drivetrain).toBe("");
    expect(carInput(v).drivetrain).toBeNull();
    expect(carInput({ ...v, drivetrain: "rear" }).drivetrain).toBe("rear");
    const unstated = carValues({ ...car, drivetrain: null }, NOW);
    expect(unstated.drivetrain).toBe("");
    expect(carInput(unstated).drivetrain).toBeNull();
    expect(carInput(carValues(car, NOW)).drivetrain).toBe("all");
  });

  it("round-trips the complectation, generation and doors, empty as null", () => {
    const full = carValues({ ...car, trim: "Executive", generation: "III", doors: 5 }, NOW);
    expect([full.trim, full.generation, full.doors]).toEqual(["Executive", "III", "5"]);
    const input = carInput({ ...full, trim: " Executive ", generation: " III" });
    expect([input.trim, input.generation, input.doors]).toEqual(["Executive", "III", 5]);
    const empty = carValues(car, NOW);
    expect([empty.trim, empty.generation, empty.doors]).toEqual(["", "", ""]);
    const none = carInput({ ...empty, trim: "  ", doors: " " });
    expect([none.trim, none.generation, none.doors]).toEqual([null, null, null]);
  });

  it("checks them with the server's messages", () => {
    expect(trimRule("")).toBe(true);
    expect(trimRule("x".repeat(100))).toBe(true);
    expect(trimRule("x".repeat(101))).toBe("Комплектация — до 100 символов");
    expect(generationRule("x".repeat(50))).toBe(true);
    expect(generationRule("x".repeat(51))).toBe("Поколение — до 50 символов");
    expect(doorsRule("")).toBe(true);
    expect(doorsRule("2")).toBe(true);
    expect(doorsRule(" 5 ")).toBe(true);
    for (const bad of ["1", "6", "3.5", "-3", "три"]) {
      expect(doorsRule(bad), bad).toBe("Число дверей — от 2 до 5");
    }
  });
});

describe("car form rules", () => {
  it("requires a price and takes money with up to two decimals", () => {
    expect(priceRule("")).toBe(MESSAGES.price);
    expect(priceRule("  ")).toBe(MESSAGES.price);
    expect(priceRule("2 500 000")).toBe(true);
    expect(priceRule("2500000,5")).toBe(true);
    expect(priceRule("abc")).toBe(MESSAGES.money);
    expect(priceRule("1.234")).toBe(MESSAGES.money);
    expect(isMoney("12345678901")).toBe(false);
    expect(optionalMoneyRule("")).toBe(true);
    expect(optionalMoneyRule("-5")).toBe(MESSAGES.money);
  });

  it("refuses 0 ₽ for a published car only, as the server does", () => {
    expect(priceRule("0", { published: true })).toBe(
      "Укажите цену: автомобиль за 0 ₽ не публикуется",
    );
    expect(priceRule("0,00", { published: true })).toBe(MESSAGES.priceZero);
    expect(priceRule("0", { published: false })).toBe(true);
    expect(priceRule("1", { published: true })).toBe(true);
  });

  it("limits the year to 1990 .. next year", () => {
    expect(maxYear(NOW)).toBe(2027);
    expect(yearRule("1990", NOW)).toBe(true);
    expect(yearRule("2027", NOW)).toBe(true);
    expect(yearRule("1989", NOW)).toBe(yearMin);
    expect(yearRule("2028", NOW)).toBe(yearMax(NOW));
    expect(yearRule("20x4", NOW)).toBe(MESSAGES.year);
  });

  it("takes mileage as whole kilometres", () => {
    expect(mileageRule("")).toBe(true);
    expect(mileageRule("120 000")).toBe(true);
    expect(mileageRule("12.5")).toBe(MESSAGES.mileage);
  });

  it("generates the slug from name and model, Cyrillic transliterated", () => {
    expect(carSlug("Лада Веста", "Кросс 1.6")).toBe("lada-vesta-kross-1-6");
    expect(carSlug("  X5 ", "xDrive40i!")).toBe("x5-xdrive40i");
    expect(slugRule("")).toBe(MESSAGES.slug);
    expect(slugRule("Bad Slug")).toBe(MESSAGES.slugChars);
    expect(slugRule("good-slug-2")).toBe(true);
  });
});

describe("bulk price multiplier", () => {
  it("raises and lowers by exact decimals", () => {
    expect(bulkMultiplier("5", "raise")).toBe("1.05");
    expect(bulkMultiplier("5", "lower")).toBe("0.95");
    expect(bulkMultiplier("2,5", "raise")).toBe("1.025");
    expect(bulkMultiplier("0.01", "lower")).toBe("0.9999");
    expect(bulkMultiplier("100", "raise")).toBe("2");
  });

  it("refuses what is not a percentage above zero", () => {
    for (const bad of ["", "0", "-5", "abc", "5%", "0.001"]) {
      expect(bulkMultiplier(bad, "raise")).toBeNull();
    }
    expect(bulkMultiplier("100", "lower")).toBeNull();
  });
});
