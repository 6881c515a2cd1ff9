import { describe, expect, it } from "vitest";
import {
  BANK_MESSAGES,
  BODY_TYPE_LABEL_REQUIRED,
  bankRules,
  bodyTypeRules,
  EMAIL_FORMAT,
  email,
  filled,
  isEmail,
  PROMOTION_MESSAGES,
  promotionRules,
  REVIEW_MESSAGES,
  reviewRules,
  SETTINGS_MESSAGES,
  settingsRules,
  tooLong,
} from "../../src/admin/lib/rules";

describe("admin form rules", () => {
  it("counts blank text as empty", () => {
    const rule = filled("нужно");
    expect(rule("")).toBe("нужно");
    expect(rule("   ")).toBe("нужно");
    expect(rule(" x ")).toBe(true);
    expect(rule(undefined)).toBe("нужно");
  });

  it("checks e-mail as the server does", () => {
    for (const ok of ["a@b.ru", "ivan.petrov@mail.example.com"]) expect(isEmail(ok)).toBe(true);
    for (const bad of ["", "a", "@b.ru", "a@b", "a@.ru", "a@b.", "a@@b.ru", "a b@c.ru"]) {
      expect(isEmail(bad)).toBe(false);
    }
    expect(email(true)("")).toBe(true);
    expect(email(false)("")).toBe(EMAIL_FORMAT);
    expect(email(true)("почта")).toBe(EMAIL_FORMAT);
  });

  it("gives each form its server messages", () => {
    expect(reviewRules.customerName.validate(" ")).toBe(REVIEW_MESSAGES.customerName);
    expect(reviewRules.text.validate("")).toBe(REVIEW_MESSAGES.text);
    expect(reviewRules.rating.validate("0")).toBe("Оценка должна быть от 1 до 5");
    expect(reviewRules.rating.validate(6)).toBe(REVIEW_MESSAGES.rating);
    expect(reviewRules.rating.validate("5")).toBe(true);
    expect(promotionRules.title.validate("")).toBe("Название акции обязательно");
    expect(promotionRules.description.validate("")).toBe(PROMOTION_MESSAGES.description);
    expect(bankRules.name.validate("")).toBe(BANK_MESSAGES.name);
    expect(bankRules.logo.validate("")).toBe("Логотип обязателен");
    expect(bankRules.requirements.validate("")).toBe("Требования обязательны");
    expect(bankRules.advantages.validate("")).toBe("Преимущества обязательны");
    expect(settingsRules.salonName.validate("")).toBe("Название салона обязательно");
    expect(settingsRules.phone.validate("")).toBe(SETTINGS_MESSAGES.phone);
    expect(settingsRules.address.validate("")).toBe("Адрес обязателен");
    expect(settingsRules.email.validate("x")).toBe("Неверный формат email");
    expect(settingsRules.notificationEmail.validate("")).toBe(true);
    expect(settingsRules.fromEmail.validate("robot@site.ru")).toBe(true);
    expect(bodyTypeRules.labelPlural.validate("")).toBe(BODY_TYPE_LABEL_REQUIRED);
    expect(tooLong("Название", 255)).toEqual({
      value: 255,
      message: "Поле «Название» не должно быть длиннее 255 символов",
    });
  });
});
