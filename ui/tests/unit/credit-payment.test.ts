// One monthly figure (docs/credit.md, "One monthly figure"): the shared table
// tests/fixtures/credit_payment.json, which tests/credit_payment.rs checks
// against the server's rule. The calculator's first input (down payment,
// term) and its first figure, the annuity payments, must give every line, so
// the car's «от … ₽/мес» (the server's) and the calculator cannot drift.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  annuityPayment,
  firstPayment,
  offers,
  type ProgramTerms,
  paymentRange,
  startInput,
} from "../../src/lib/credit";
import { monthlyPrice } from "../../src/lib/format";
import { creditPrice, moneyText, toKopecks } from "../../src/lib/price";

interface Line {
  name: string;
  price: string;
  creditDiscount: string | null;
  maxDiscount: string | null;
  programs: Pick<
    ProgramTerms,
    "rateMin" | "rateMax" | "termMinMonths" | "termMaxMonths" | "minDownPaymentPercent"
  >[];
  downPayment: string | null;
  termMonths: number | null;
  monthly: string | null;
}

const table: {
  annuity: { principal: number; rate: number; months: number; payment: number }[];
  cars: Line[];
} = JSON.parse(
  readFileSync(new URL("../../../tests/fixtures/credit_payment.json", import.meta.url), "utf8"),
);

const programs = (line: Line): ProgramTerms[] =>
  line.programs.map((p, i) => ({
    ...p,
    id: String(i),
    bankName: "Банк",
    name: "Программа",
    pskMin: p.rateMin,
    pskMax: p.rateMax,
    conditions: "",
  }));

describe("the shared table of the monthly figure", () => {
  it.each(table.annuity)("annuity of $principal kopecks at $rate % for $months months", (line) => {
    expect(annuityPayment(line.principal, line.rate, line.months)).toBe(line.payment);
  });

  it.each(table.cars)("$name", (line) => {
    const car = {
      price: line.price,
      creditDiscount: line.creditDiscount,
      tradeinDiscount: null,
      insuranceDiscount: null,
      maxDiscount: line.maxDiscount,
    };
    const price = creditPrice(car);
    const list = programs(line);
    if (list.length === 0) {
      // The calculator says there is no programme; no figure anywhere.
      expect(line.monthly).toBeNull();
      expect(firstPayment(price, list)).toBeNull();
      return;
    }
    const start = startInput(price, list);
    expect(moneyText(start.downPayment)).toBe(line.downPayment);
    expect(start.termMonths).toBe(line.termMonths);
    const range = paymentRange(offers(list, start));
    const first = range === null ? null : moneyText(Math.floor(range.min / 100) * 100);
    expect(first).toBe(line.monthly);
    // As the card prints it and as the calculator's first figure reads.
    if (line.monthly !== null && range !== null) {
      expect(monthlyPrice(line.monthly)).toBe(
        `от ${new Intl.NumberFormat("ru-RU").format(Math.floor(range.min / 100))} ₽/мес`,
      );
      expect(toKopecks(line.monthly)).toBe(
        Math.floor((firstPayment(price, list) ?? 0) / 100) * 100,
      );
    }
  });
});
