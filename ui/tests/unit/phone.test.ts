import { describe, expect, it } from "vitest";
import { isValidPhone, PHONE_RULE_MESSAGE } from "../../src/lib/phone";

describe("phone rule", () => {
  it.each([
    "+79215551234",
    "+7 (921) 555-12-34",
    "89215551234",
    "8 921 555 12 34",
    "8-921-555-12-34",
  ])("accepts %s", (phone) => expect(isValidPhone(phone)).toBe(true));

  it.each([
    "",
    "9215551234",
    "79215551234",
    "+7921555123",
    "+792155512345",
    "+8 921 555 12 34",
    "8921555123a",
    "+1 921 555 12 34",
    "7 (921) 555-12-34",
  ])("refuses %s", (phone) => expect(isValidPhone(phone)).toBe(false));

  it("has the phone rule's message (docs/leads.md)", () => {
    expect(PHONE_RULE_MESSAGE).toBe(
      "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр",
    );
  });
});
