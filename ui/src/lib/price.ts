/** A car's honest price: the price with no conditions, each conditional
 * discount with its condition, and the lowest reachable price
 * (docs/pricing.md, "Conditional discounts"). Exact, in kopecks. */
import type { CarBrief } from "../api/types";

/** Money from the API ("2500000.00", "1999,5") as whole kopecks, exactly;
 * null when absent or not an amount. */
export function toKopecks(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().replace(",", ".");
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** Kopecks as the API's money text: 250000050 → "2500000.50". */
export function moneyText(kopecks: number): string {
  const k = Math.max(0, Math.round(kopecks));
  return `${Math.floor(k / 100)}.${String(k % 100).padStart(2, "0")}`;
}

export type DiscountKind = "credit" | "tradein" | "insurance";

export interface Discount {
  kind: DiscountKind;
  /** 'Скидка при кредите' */
  label: string;
  amount: number;
}

type Discounted = Pick<
  CarBrief,
  "price" | "creditDiscount" | "tradeinDiscount" | "insuranceDiscount" | "maxDiscount"
>;

const KINDS: [DiscountKind, keyof Discounted, string][] = [
  ["credit", "creditDiscount", "Скидка при кредите"],
  ["tradein", "tradeinDiscount", "Скидка при трейд-ин"],
  ["insurance", "insuranceDiscount", "Скидка при страховании"],
];

/** The car's conditional discounts above zero, in a fixed order. */
export function discounts(car: Discounted): Discount[] {
  return KINDS.flatMap(([kind, field, label]) => {
    const amount = toKopecks(car[field]);
    return amount && amount > 0 ? [{ kind, label, amount }] : [];
  });
}

/** The cap on the discounts together, when set. */
export function discountCap(car: Discounted): number | null {
  return toKopecks(car.maxDiscount);
}

/** What the given discounts take off together: their sum, at most the cap. */
export function totalOff(car: Discounted, list: Discount[] = discounts(car)): number {
  const sum = list.reduce((s, d) => s + d.amount, 0);
  const cap = discountCap(car);
  return cap === null ? sum : Math.min(sum, cap);
}

/** Whether the cap lowers the sum of the discounts. */
export function capApplies(car: Discounted): boolean {
  const cap = discountCap(car);
  const list = discounts(car);
  return cap !== null && list.length > 0 && list.reduce((s, d) => s + d.amount, 0) > cap;
}

/** The lowest reachable price: the price less every discount (capped);
 * null when the car has no discount. */
export function lowestPrice(car: Discounted): number | null {
  const price = toKopecks(car.price) ?? 0;
  const list = discounts(car);
  if (list.length === 0) return null;
  return Math.max(0, price - totalOff(car, list));
}

/** The price with a loan from a partner bank: less the credit discount
 * alone (capped); the plain price when there is none. */
export function creditPrice(car: Discounted): number {
  const price = toKopecks(car.price) ?? 0;
  const credit = discounts(car).filter((d) => d.kind === "credit");
  return Math.max(0, price - totalOff(car, credit));
}
