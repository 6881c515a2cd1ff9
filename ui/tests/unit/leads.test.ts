import { describe, expect, it } from "vitest";
import type { Car } from "../../src/api/types";
import {
  CONSENT_REQUIRED,
  carFields,
  checkContact,
  contactErrors,
  requiredMessage,
  tradeInProblems,
} from "../../src/lib/leads";
import { PHONE_RULE_MESSAGE } from "../../src/lib/phone";
import { analyticsClientId, captureUtm, parseUtm, storedUtm } from "../../src/lib/utm";

class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

describe("lead checks", () => {
  const ok = { name: "Иван", phone: "+7 921 555 12 34", consent: true };

  it("asks for the required fields with each form's text", () => {
    expect(checkContact("auto_credit", { ...ok, name: " " })).toBe(
      "Пожалуйста, заполните обязательные поля",
    );
    expect(checkContact("lease_booking", { ...ok, phone: "" })).toBe(
      "Пожалуйста, заполните все поля",
    );
    expect(requiredMessage("auto_selection")).toBe("Пожалуйста, заполните все обязательные поля");
  });

  it("applies the phone rule and the consent", () => {
    expect(checkContact("trade_in", { ...ok, phone: "12345" })).toBe(PHONE_RULE_MESSAGE);
    expect(checkContact("contact_form", { ...ok, consent: false })).toBe(CONSENT_REQUIRED);
    expect(checkContact("auto_credit", ok)).toBeNull();
  });

  it("gives each wrong field its own message, for the field's error line", () => {
    expect(contactErrors("auto_credit", { name: "", phone: "", consent: false })).toEqual({
      name: "Пожалуйста, заполните обязательные поля",
      phone: "Пожалуйста, заполните обязательные поля",
      consent: CONSENT_REQUIRED,
    });
    expect(contactErrors("lease_booking", { ...ok, phone: "12345" })).toEqual({
      phone: PHONE_RULE_MESSAGE,
    });
    expect(contactErrors("auto_selection", { ...ok, name: "  " })).toEqual({
      name: "Пожалуйста, заполните все обязательные поля",
    });
    expect(contactErrors("auto_credit", ok)).toEqual({});
  });

  it("describes the car as brand + model with the price in rubles", () => {
    const car = {
      id: "c1",
      brandName: "Haval",
      model: "Jolion",
      price: "2150000.00",
      status: "new",
    };
    const fields = carFields(car as Car);
    expect(fields.carId).toBe("c1");
    expect(fields.carInfo).toBe("Haval Jolion");
    expect(fields.carPrice?.replace(/[\u00a0\u202f]/g, " ")).toBe("2 150 000 ₽");
    expect(fields.carStatus).toBe("new");
  });
});

describe("visit data", () => {
  it("reads UTM parameters and keeps the first touch", () => {
    expect(parseUtm("?utm_source=yandex&utm_medium=cpc&x=1")).toEqual({
      utmSource: "yandex",
      utmMedium: "cpc",
    });
    const storage = new MemoryStorage() as unknown as Storage;
    captureUtm("?utm_source=yandex&utm_campaign=winter", storage);
    captureUtm("?utm_source=google", storage);
    captureUtm("", storage);
    expect(storedUtm(storage)).toEqual({ utmSource: "yandex", utmCampaign: "winter" });
  });

  it("finds the analytics client id in cookies", () => {
    expect(analyticsClientId("a=1; _ym_uid=1700000000123; _ga=GA1.1.5.6")).toBe("1700000000123");
    expect(analyticsClientId("_ga=GA1.1.123456789.1700000000")).toBe("123456789.1700000000");
    expect(analyticsClientId("a=1")).toBeUndefined();
  });
});

describe("the trade-in form's own car", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  it("takes the server's years, 1950 to next year, and leaves empty inputs alone", () => {
    expect(tradeInProblems("", "", now)).toEqual({});
    expect(tradeInProblems("1950", "0", now)).toEqual({});
    expect(tradeInProblems("2027", "10 000 000", now)).toEqual({});
    expect(tradeInProblems("1800", "", now)).toEqual({
      carYear: "Год выпуска должен быть от 1950 до 2027",
    });
    expect(tradeInProblems("1949", "", now).carYear).toBe(
      "Год выпуска должен быть от 1950 до 2027",
    );
    expect(tradeInProblems("2028", "", now).carYear).toBe(
      "Год выпуска должен быть от 1950 до 2027",
    );
    expect(tradeInProblems("20.5", "", now).carYear).toBeDefined();
  });
  it("refuses a mileage below zero or beyond ten million km", () => {
    expect(tradeInProblems("", "-5", now)).toEqual({ carMileage: "Пробег указан неверно" });
    expect(tradeInProblems("", "10000001", now)).toEqual({ carMileage: "Пробег указан неверно" });
  });
});
