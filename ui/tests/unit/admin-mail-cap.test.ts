/** The caps on mail a stranger can trigger (docs/saved-searches.md, "Mail a
 * stranger can trigger"): the settings' daily total and what the
 * saved-searches screen says about held mails. */
import { describe, expect, it } from "vitest";
import { heldMailsText, mailCapText } from "../../src/admin/lib/savedSearches";
import {
  DEFAULT_MAIL_LIMIT,
  MAIL_LIMIT_MESSAGE,
  mailLimitForm,
  mailLimitRules,
  mailLimitValue,
} from "../../src/admin/lib/settings";

describe("the site's daily total of visitor mails", () => {
  it("a whole number from 1 to 10 000", () => {
    expect(mailLimitValue("300")).toBe(300);
    expect(mailLimitValue(" 1 ")).toBe(1);
    expect(mailLimitValue("10000")).toBe(10_000);
    expect(mailLimitValue("10 000")).toBe(10_000);
    expect(mailLimitValue("0")).toBeNull();
    expect(mailLimitValue("10001")).toBeNull();
    expect(mailLimitValue("2.5")).toBeNull();
    expect(mailLimitValue("-5")).toBeNull();
    expect(mailLimitValue("")).toBeNull();
  });

  it("refuses with the server's words; the form starts from the saved or the default", () => {
    expect(mailLimitRules.validate("0")).toBe(MAIL_LIMIT_MESSAGE);
    expect(mailLimitRules.validate("много")).toBe(MAIL_LIMIT_MESSAGE);
    expect(mailLimitRules.validate("500")).toBe(true);
    expect(MAIL_LIMIT_MESSAGE).toBe("Писем посетителям в сутки — от 1 до 10 000");
    expect(mailLimitForm(50)).toBe("50");
    expect(mailLimitForm(undefined)).toBe(String(DEFAULT_MAIL_LIMIT));
    expect(DEFAULT_MAIL_LIMIT).toBe(300);
  });
});

describe("held mails on the saved-searches screen", () => {
  const figures = { heldLastDay: 37, sentLastDay: 3, dailyLimit: 300, perAddressLimit: 3 };

  it("says how many mails the caps held in the last 24 hours", () => {
    expect(heldMailsText(figures)).toBe(
      "Писем не отправлено из-за ограничения: 37 (за последние 24 часа)",
    );
    expect(heldMailsText({ ...figures, heldLastDay: 0 })).toBe(
      "Писем не отправлено из-за ограничения: 0 (за последние 24 часа)",
    );
  });

  it("and what was sent against the caps", () => {
    expect(mailCapText(figures)).toBe(
      "Отправлено 3 письма из 300 в сутки; на один адрес — не больше 3",
    );
    expect(mailCapText({ ...figures, sentLastDay: 1 })).toContain("Отправлено 1 письмо из 300");
    expect(mailCapText({ ...figures, sentLastDay: 25 })).toContain("Отправлено 25 писем из 300");
  });
});
