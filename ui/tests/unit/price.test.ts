import { describe, expect, it } from "vitest";
import {
  capApplies,
  creditPrice,
  discounts,
  lowestPrice,
  moneyText,
  toKopecks,
  totalOff,
} from "../../src/lib/price";

const car = (over: Record<string, string | null> = {}) => ({
  price: "2500000.00",
  creditDiscount: null,
  tradeinDiscount: null,
  insuranceDiscount: null,
  maxDiscount: null,
  ...over,
});

describe("money in kopecks", () => {
  it("reads the API's amounts exactly", () => {
    expect(toKopecks("2500000.00")).toBe(250_000_000);
    expect(toKopecks("1999.5")).toBe(199_950);
    expect(toKopecks("9999999999.99")).toBe(999_999_999_999);
    expect(toKopecks("0.07")).toBe(7);
    expect(toKopecks(null)).toBeNull();
    expect(toKopecks("abc")).toBeNull();
    expect(moneyText(250_000_050)).toBe("2500000.50");
    expect(moneyText(7)).toBe("0.07");
  });
});

describe("conditional discounts", () => {
  it("a car without discounts has no lowest price of its own", () => {
    expect(discounts(car())).toEqual([]);
    expect(lowestPrice(car())).toBeNull();
    expect(creditPrice(car())).toBe(250_000_000);
    expect(discounts(car({ creditDiscount: "0.00" }))).toEqual([]);
  });

  it("each discount with its condition, in order", () => {
    const c = car({
      insuranceDiscount: "30000.00",
      creditDiscount: "100000.00",
      tradeinDiscount: "150000.00",
    });
    expect(discounts(c).map((d) => [d.label, d.amount])).toEqual([
      ["Скидка при кредите", 10_000_000],
      ["Скидка при трейд-ин", 15_000_000],
      ["Скидка при страховании", 3_000_000],
    ]);
    expect(lowestPrice(c)).toBe(222_000_000);
    expect(capApplies(c)).toBe(false);
  });

  it("the cap limits the sum, not each discount", () => {
    const c = car({
      creditDiscount: "100000.00",
      tradeinDiscount: "125000.00",
      insuranceDiscount: "37500.00",
      maxDiscount: "175000.00",
    });
    expect(totalOff(c)).toBe(17_500_000);
    expect(lowestPrice(c)).toBe(232_500_000);
    expect(capApplies(c)).toBe(true);
    // With a loan alone the credit discount is within the cap.
    expect(creditPrice(c)).toBe(240_000_000);
    expect(creditPrice(car({ creditDiscount: "100000.00", maxDiscount: "50000.00" }))).toBe(
      245_000_000,
    );
  });

  it("a cap above the sum changes nothing", () => {
    const c = car({ tradeinDiscount: "50000.50", maxDiscount: "1000000.00" });
    expect(lowestPrice(c)).toBe(244_999_950);
    expect(capApplies(c)).toBe(false);
    expect(creditPrice(c)).toBe(250_000_000);
  });
});
