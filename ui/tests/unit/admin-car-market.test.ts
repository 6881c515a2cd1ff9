import { describe, expect, it } from "vitest";
import { CAR_FIELDS, carInput, carValues } from "../../src/admin/carForm";
import {
  marketInput,
  marketValues,
  OWNERS_RANGE,
  ownersRule,
} from "../../src/admin/carMarketFields";
import type { Car } from "../../src/api/types";

const used = {
  id: "c1",
  brandId: "b1",
  brandName: "Haval",
  brandSlug: "haval",
  name: "F7",
  slug: "haval-f7",
  model: "F7",
  year: 2021,
  price: "1750000.00",
  monthlyPayment: null,
  dailyPrice: null,
  status: "used",
  bodyType: "coupe",
  transmission: "robotic",
  drivetrain: "all",
  fuelType: "gasoline",
  engine: "2.0 л, 190 л.с.",
  trim: null,
  generation: null,
  doors: null,
  mileage: 45000,
  mainImage: "",
  images: [],
  hasImages: false,
  inStock: true,
  featured: false,
  trimLevels: [],
  published: true,
  color: null,
  vin: null,
  externalId: "A-2",
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  creditDiscount: null,
  tradeinDiscount: null,
  insuranceDiscount: null,
  maxDiscount: null,
  owners: 2,
  accident: false,
  state: "good",
  wheel: "right",
} as Car;

describe("the car form's marketplace fields", () => {
  it("reads a car's owners, accident, state and wheel into the inputs", () => {
    expect(marketValues(used)).toEqual({
      owners: "2",
      accident: "no",
      state: "good",
      wheel: "right",
    });
    expect(marketValues({ ...used, owners: 0, accident: true })).toMatchObject({
      owners: "0",
      accident: "yes",
    });
  });

  it("shows unstated values as «Не указано» and a new car's wheel as left", () => {
    expect(marketValues({ ...used, owners: null, accident: null, state: null })).toEqual({
      owners: "",
      accident: "",
      state: "",
      wheel: "right",
    });
    expect(marketValues(null)).toEqual({ owners: "", accident: "", state: "", wheel: "left" });
  });

  it("sends a used car's values, «Не указано» as null", () => {
    expect(marketInput(marketValues(used), "used")).toEqual({
      owners: 2,
      accident: false,
      state: "good",
      wheel: "right",
    });
    expect(
      marketInput({ owners: " 0 ", accident: "yes", state: "", wheel: "left" }, "used"),
    ).toEqual({ owners: 0, accident: true, state: null, wheel: "left" });
    expect(marketInput({ owners: "", accident: "", state: "", wheel: "left" }, "used")).toEqual({
      owners: null,
      accident: null,
      state: null,
      wheel: "left",
    });
  });

  it("sends only the wheel for a new or lease car, so the server keeps the rest", () => {
    for (const status of ["new", "lease"] as const) {
      const input = marketInput(marketValues(used), status);
      expect(input).toEqual({ wheel: "right" });
    }
  });

  it("round-trips through the whole form", () => {
    const input = carInput(carValues(used));
    expect(input).toMatchObject({ owners: 2, accident: false, state: "good", wheel: "right" });
    const asNew = carInput({ ...carValues(used), status: "new" });
    expect(asNew).not.toHaveProperty("owners");
    expect(asNew).not.toHaveProperty("accident");
    expect(asNew).not.toHaveProperty("state");
    expect(asNew.wheel).toBe("right");
    for (const field of ["owners", "accident", "state", "wheel"]) {
      expect(CAR_FIELDS).toContain(field);
    }
  });

  it("checks the owners as the server does", () => {
    expect(ownersRule("")).toBe(true);
    expect(ownersRule(" ")).toBe(true);
    expect(ownersRule("0")).toBe(true);
    expect(ownersRule("99")).toBe(true);
    expect(ownersRule("100")).toBe(OWNERS_RANGE);
    expect(ownersRule("-1")).toBe(OWNERS_RANGE);
    expect(ownersRule("1.5")).toBe(OWNERS_RANGE);
    expect(ownersRule("два")).toBe(OWNERS_RANGE);
    expect(OWNERS_RANGE).toBe("Владельцев по ПТС — от 0 до 99");
  });
});
