import { describe, expect, it } from "vitest";
import { type Lead, leadDetails } from "../../src/admin/lib/leads";
import { creditFields, creditSummary } from "../../src/lib/credit";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("the calculator's credit request", () => {
  const credit = { amount: 180_000_000, downPayment: 70_000_050, termMonths: 60 };

  it("sends the loan as desired amount, down payment and term", () => {
    expect(creditFields(credit)).toEqual({
      desiredAmount: "1800000.00",
      downPayment: "700000.50",
      termMonths: 60,
    });
  });

  it("shows it above the form", () => {
    expect(plain(creditSummary(credit))).toBe(
      "Сумма кредита 1 800 000 ₽ · первоначальный взнос 700 000 ₽ · срок 60 мес.",
    );
  });

  it("the admin sees the down payment and the term in the credit block", () => {
    const lead = {
      id: "l1",
      type: "auto_credit",
      status: "new",
      name: "Иван",
      phone: "+79211234567",
      consentVersion: 2,
      consentAt: "2026-11-22T10:05:00Z",
      consentIp: "10.0.0.1",
      advertisingConsent: false,
      createdAt: "2026-11-22T10:05:00Z",
      updatedAt: "2026-11-22T10:05:00Z",
      desiredAmount: "1800000.00",
      downPayment: "700000.00",
      termMonths: 60,
    } as Lead;
    const [block] = leadDetails(lead);
    expect(block.rows.map((r) => [r.label, plain(r.value)])).toEqual([
      ["Желаемая сумма", "1 800 000 ₽"],
      ["Срок", "60 мес."],
      ["Первоначальный взнос", "700 000 ₽"],
    ]);
  });
});
