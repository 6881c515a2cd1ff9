import { describe, expect, it } from "vitest";
import {
  CAR_FIELDS,
  carDiscountPreview,
  carInput,
  carValues,
  discountRule,
  MESSAGES,
} from "../../src/admin/carForm";
import type { Car } from "../../src/api/types";

const plain = (s: string | null) => s?.replace(/[\u00a0\u202f]/g, " ") ?? null;

const car = {
  id: "c1",
  brandId: "b1",
  brandName: "Haval",
  brandSlug: "haval",
  name: "Jolion",
  slug: "jolion",
  model: "Jolion",
  year: 2026,
  price: "2500000.00",
  monthlyPayment: null,
  dailyPrice: null,
  status: "new",
  bodyType: "crossover",
  transmission: "automatic",
  drivetrain: "front",
  fuelType: "gasoline",
  engine: "1.5 л",
  trim: null,
  generation: null,
  doors: null,
  owners: null,
  accident: null,
  state: null,
  wheel: "left",
  mileage: 0,
  mainImage: "",
  images: [],
  hasImages: false,
  inStock: true,
  featured: false,
  trimLevels: [],
  published: true,
  color: null,
  vin: null,
  externalId: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  creditDiscount: "100000.00",
  tradeinDiscount: "125000.50",
  insuranceDiscount: null,
  maxDiscount: "200000.00",
} as Car;

describe("the car form's discounts", () => {
  it("an existing car's discounts are in the form and go back unchanged", () => {
    const v = carValues(car);
    expect([v.creditDiscount, v.tradeinDiscount, v.insuranceDiscount, v.maxDiscount]).toEqual([
      "100000",
      "125000.50",
      "",
      "200000",
    ]);
    const input = carInput(v);
    expect(input.creditDiscount).toBe("100000");
    expect(input.tradeinDiscount).toBe("125000.50");
    expect(input.insuranceDiscount).toBeNull();
    expect(input.maxDiscount).toBe("200000");
  });

  it("a new car has none", () => {
    const input = carInput({ ...carValues(null), price: "1000000" });
    expect(input.creditDiscount).toBeNull();
    expect(input.maxDiscount).toBeNull();
  });

  it("typed amounts are cleaned as the price is", () => {
    const input = carInput({ ...carValues(car), insuranceDiscount: " 30 000,5 " });
    expect(input.insuranceDiscount).toBe("30000.5");
  });

  it("a discount is empty or money no greater than the price", () => {
    expect(discountRule("", "2500000")).toBe(true);
    expect(discountRule("2500000", "2 500 000")).toBe(true);
    expect(discountRule("2500000,01", "2500000")).toBe(MESSAGES.discount);
    expect(MESSAGES.discount).toBe("Скидка не может быть больше цены автомобиля");
    expect(discountRule("сто", "2500000")).toBe(MESSAGES.money);
    // A price that is not money yet is the price field's own error.
    expect(discountRule("100", "")).toBe(true);
  });

  it("the server's refusals name fields the form has", () => {
    for (const f of ["creditDiscount", "tradeinDiscount", "insuranceDiscount", "maxDiscount"]) {
      expect(CAR_FIELDS).toContain(f);
    }
  });

  it("the form shows the lowest price its discounts give", () => {
    const v = carValues(car);
    expect(plain(carDiscountPreview(v))).toBe("2 300 000 ₽");
    expect(plain(carDiscountPreview({ ...v, maxDiscount: "" }))).toBe("2 274 999 ₽");
    expect(carDiscountPreview({ ...v, creditDiscount: "", tradeinDiscount: "" })).toBeNull();
    expect(carDiscountPreview({ ...v, price: "abc" })).toBeNull();
  });
});
