import { describe, expect, it } from "vitest";
import {
  annuityPayment,
  defaultTerm,
  footerCreditText,
  minDownPercent,
  monthsRange,
  offers,
  type ProgramTerms,
  paymentRange,
  paymentText,
  percentRange,
  pskText,
  rateText,
  shareOf,
  statesRate,
  termChoices,
} from "../../src/lib/credit";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const rub = (n: number) => Math.round(n * 100);

describe("annuity payment", () => {
  // Worked examples of published loan tables: the monthly payment of an
  // annuity loan, rounded to the kopeck as banks' schedules print it.
  it.each([
    // 1,000,000 ₽ at 12 % for 5 years.
    [1_000_000, 12, 60, 22_244.45],
    // 100,000 ₽ at 12 % for a year: the textbook schedule (first month:
    // interest 1,000.00, principal 7,884.88).
    [100_000, 12, 12, 8_884.88],
    // 200,000 at 6 % for 30 years: the classic mortgage table.
    [200_000, 6, 360, 1_199.1],
    [500_000, 15, 36, 17_332.66],
    [300_000, 10, 24, 13_843.48],
    [1_500_000, 5.9, 84, 21_840.99],
    [2_000_000, 27.5, 96, 51_706.63],
  ])("%d ₽ at %d %% for %d months: %d ₽", (principal, rate, months, payment) => {
    expect(annuityPayment(rub(principal), rate, months)).toBe(rub(payment));
  });

  it("first month of the textbook schedule splits as printed", () => {
    const payment = annuityPayment(rub(100_000), 12, 12);
    const interest = Math.round(rub(100_000) * 0.01);
    expect(interest).toBe(rub(1_000));
    expect(payment - interest).toBe(rub(7_884.88));
  });

  it("0 % is the loan divided by the months", () => {
    expect(annuityPayment(rub(999_999), 0, 7)).toBe(rub(142_857));
    expect(annuityPayment(rub(100), 0, 3)).toBe(3333);
  });

  it("one month is the loan and a month's interest", () => {
    expect(annuityPayment(rub(1_000_000), 12, 1)).toBe(rub(1_010_000));
    expect(annuityPayment(rub(1_000_000), 0, 1)).toBe(rub(1_000_000));
  });

  it("nothing to pay without a loan or a term", () => {
    expect(annuityPayment(0, 12, 60)).toBe(0);
    expect(annuityPayment(rub(1000), 12, 0)).toBe(0);
  });
});

const program = (over: Partial<ProgramTerms> = {}): ProgramTerms => ({
  id: "p",
  bankName: "Банк",
  name: "Программа",
  rateMin: 12,
  rateMax: 12,
  pskMin: 12.5,
  pskMax: 13,
  termMinMonths: 12,
  termMaxMonths: 84,
  minDownPaymentPercent: 10,
  conditions: "",
  ...over,
});

describe("programmes against the input", () => {
  const input = { price: rub(1_200_000), downPayment: rub(200_000), termMonths: 60 };

  it("a fitting programme pays from its lowest to its highest rate", () => {
    const [o] = offers([program({ rateMin: 0, rateMax: 12 })], input);
    expect(o.reason).toBeNull();
    expect(o.payment).toEqual({ min: rub(16_666.67), max: rub(22_244.45) });
  });

  it("the range spans every programme that fits, and only those", () => {
    const list = offers(
      [
        program({ id: "a", rateMin: 12, rateMax: 12 }),
        program({ id: "b", rateMin: 6, rateMax: 15 }),
        program({ id: "c", rateMin: 1, rateMax: 1, termMaxMonths: 36 }),
        program({ id: "d", rateMin: 1, rateMax: 1, minDownPaymentPercent: 20 }),
      ],
      input,
    );
    expect(list.map((o) => o.reason)).toEqual([
      null,
      null,
      "Срок по программе: от 12 до 36 мес.",
      "Первоначальный взнос по программе: от 20%",
    ]);
    expect(paymentRange(list)).toEqual({
      min: annuityPayment(rub(1_000_000), 6, 60),
      max: annuityPayment(rub(1_000_000), 15, 60),
    });
  });

  it("the minimum down payment is reached exactly at its share", () => {
    const at = offers([program({ minDownPaymentPercent: 20 })], {
      price: rub(1_000_000),
      downPayment: rub(200_000),
      termMonths: 60,
    });
    expect(at[0].reason).toBeNull();
    const below = offers([program({ minDownPaymentPercent: 20 })], {
      price: rub(1_000_000),
      downPayment: rub(199_999.99),
      termMonths: 60,
    });
    expect(below[0].reason).toMatch(/от 20%/);
  });

  it("no programme, or none fitting: no range", () => {
    expect(paymentRange(offers([], input))).toBeNull();
    expect(paymentRange(offers([program({ termMinMonths: 72 })], input))).toBeNull();
    const paid = offers([program()], { ...input, downPayment: input.price });
    expect(paid[0].reason).toBe("Первоначальный взнос покрывает всю стоимость");
  });

  it("terms are whole years within the range and its ends", () => {
    expect(termChoices([program({ termMinMonths: 3, termMaxMonths: 30 })])).toEqual([
      3, 12, 24, 30,
    ]);
    expect(
      termChoices([
        program({ termMinMonths: 12, termMaxMonths: 36 }),
        program({ termMaxMonths: 96 }),
      ]),
    ).toEqual([12, 24, 36, 48, 60, 72, 84, 96]);
    expect(termChoices([])).toEqual([]);
    expect(defaultTerm([12, 24, 36, 48, 60, 72])).toBe(60);
    expect(defaultTerm([3, 12, 24, 30])).toBe(30);
  });

  it("the lowest down payment share and a share of the price", () => {
    expect(minDownPercent([program({ minDownPaymentPercent: 20 }), program()])).toBe(10);
    expect(shareOf(rub(1_234_567), 15, 10_000)).toBe(rub(190_000));
    expect(shareOf(rub(1_000_000), 20, 10_000)).toBe(rub(200_000));
  });
});

describe("texts", () => {
  it("payments in whole rubles, the range holding every payment", () => {
    expect(plain(paymentText({ min: 2_224_445, max: 2_224_445 }))).toBe("22 244 ₽");
    expect(plain(paymentText({ min: 2_184_099, max: 5_170_663 }))).toBe("от 21 840 до 51 707 ₽");
    expect(plain(paymentText({ min: 100_000_000, max: 100_000_000 }))).toBe("1 000 000 ₽");
    // Two payments within one ruble: one figure.
    expect(plain(paymentText({ min: 2_224_400, max: 2_224_400 }))).toBe("22 244 ₽");
    expect(plain(paymentText({ min: 2_224_401, max: 2_224_500 }))).toBe("от 22 244 до 22 245 ₽");
  });

  it("rates and terms in Russian", () => {
    expect(plain(percentRange(5.9, 27.456))).toBe("от 5,9% до 27,456%");
    expect(percentRange(12, 12)).toBe("12%");
    expect(monthsRange(12, 96)).toBe("от 12 до 96 мес.");
    expect(pskText(6.1, 29.9)).toBe("ПСК от 6,1% до 29,9% годовых");
    expect(rateText(5.9, 27.5)).toBe("ставка от 5,9% до 27,5% годовых");
  });

  it("the footer names the banks and puts the full cost before the rate", () => {
    const text = footerCreditText({
      rateMin: 5.9,
      rateMax: 27.5,
      pskMin: 6.1,
      pskMax: 29.9,
      termMinMonths: 12,
      termMaxMonths: 96,
      banks: ["Сбербанк", "ВТБ"],
    });
    expect(text).toBe(
      "Автокредит предоставляется банками-партнёрами: Сбербанк, ВТБ. " +
        "Полная стоимость кредита (ПСК) — от 6,1% до 29,9% годовых, " +
        "ставка от 5,9% до 27,5% годовых, срок кредита — от 12 до 96 мес. " +
        "Условия и решение о выдаче кредита определяет банк.",
    );
    expect(text.indexOf("ПСК")).toBeLessThan(text.indexOf("ставка"));
  });

  it("no programmes: no figures at all", () => {
    const text = footerCreditText(null);
    expect(text).not.toMatch(/\d/);
    expect(text).not.toMatch(/ставк/i);
  });

  it("a bank's advantage that states a rate is recognised", () => {
    expect(statesRate("Ставка от 5,6%")).toBe(true);
    expect(statesRate("ПСК от 7%")).toBe(true);
    expect(statesRate("9,9% годовых")).toBe(true);
    expect(statesRate("Первый взнос от 0%")).toBe(false);
    expect(statesRate("Решение за 30 минут")).toBe(false);
    expect(statesRate("Низкая ставка")).toBe(false);
  });
});
