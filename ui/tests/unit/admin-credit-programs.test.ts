import { describe, expect, it } from "vitest";
import {
  type AdminCreditProgram,
  byBank,
  costLines,
  day,
  moscowToday,
  PROGRAM_MESSAGES,
  parsePercent,
  programInput,
  programRules,
  programState,
  programValues,
  validity,
} from "../../src/admin/lib/creditPrograms";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const program = (over: Partial<AdminCreditProgram> = {}): AdminCreditProgram => ({
  id: "p1",
  bankId: "b1",
  bankName: "Сбербанк",
  bankLogo: "",
  bankAd: { erid: "", advertiser: "Сбербанк" },
  name: "Автокредит",
  rateMin: 5.9,
  rateMax: 27.5,
  pskMin: 6.123,
  pskMax: 29.9,
  termMinMonths: 12,
  termMaxMonths: 96,
  minDownPaymentPercent: 10,
  validFrom: "2026-11-01",
  validTo: "2026-12-31",
  conditions: "КАСКО обязательно",
  active: true,
  expired: false,
  createdAt: "2026-11-01T00:00:00Z",
  updatedAt: "2026-11-01T00:00:00Z",
  ...over,
});

describe("credit programme form", () => {
  it("a new programme starts today (Moscow), open-ended and shown", () => {
    // 21:30 UTC is already the next day in Moscow.
    const v = programValues(null, new Date("2026-11-23T21:30:00Z"));
    expect(v.validFrom).toBe("2026-11-24");
    expect(v.validTo).toBe("");
    expect(v.active).toBe(true);
    expect(moscowToday(new Date("2026-11-23T20:59:00Z"))).toBe("2026-11-23");
  });

  it("an existing one round-trips through the form", () => {
    const p = program();
    const v = programValues(p);
    expect(v.rateMin).toBe("5,9");
    expect(v.pskMin).toBe("6,123");
    expect(programInput(v)).toEqual({
      bankId: "b1",
      name: "Автокредит",
      rateMin: 5.9,
      rateMax: 27.5,
      pskMin: 6.123,
      pskMax: 29.9,
      termMinMonths: 12,
      termMaxMonths: 96,
      minDownPaymentPercent: 10,
      validFrom: "2026-11-01",
      validTo: "2026-12-31",
      conditions: "КАСКО обязательно",
      active: true,
    });
    expect(programInput({ ...v, validTo: "" }).validTo).toBeNull();
  });

  it("percents take a comma and up to three decimals", () => {
    expect(parsePercent("5,9")).toBe(5.9);
    expect(parsePercent(" 27.456 % ")).toBe(27.456);
    expect(parsePercent("5,9999")).toBeNull();
    expect(parsePercent("-1")).toBeNull();
    expect(parsePercent("")).toBeNull();
  });

  it("rules say what the server says: ranges in order, terms 1..360, down payment 0..90, dates", () => {
    expect(programRules.rateMin("x")).toBe("Ставка должна быть больше 0 и меньше 100%");
    expect(programRules.rateMin("0")).toBe(PROGRAM_MESSAGES.rate);
    expect(programRules.rateMin("100")).toBe(PROGRAM_MESSAGES.rate);
    expect(programRules.rateMin("99,999")).toBe(true);
    expect(programRules.rateMax("5", "6")).toBe(
      "Максимальная ставка не может быть меньше минимальной",
    );
    expect(programRules.rateMax("6", "6")).toBe(true);
    expect(programRules.pskMin("5,8", "5,9")).toBe("ПСК не может быть меньше минимальной ставки");
    expect(programRules.pskMin("5,9", "5,9")).toBe(true);
    expect(programRules.pskMin("", "5,9")).toBe("ПСК должна быть больше 0 и меньше 100%");
    expect(programRules.pskMax("6", "7")).toBe("Максимальная ПСК не может быть меньше минимальной");
    expect(programRules.term("0")).toBe("Срок кредита: от 1 до 360 месяцев");
    expect(programRules.term("360")).toBe(true);
    expect(programRules.termMax("361", "12")).toBe(PROGRAM_MESSAGES.term);
    expect(programRules.termMax("6", "12")).toBe(
      "Максимальный срок не может быть меньше минимального",
    );
    expect(programRules.down("91")).toBe("Первоначальный взнос: от 0 до 90%");
    expect(programRules.down("0")).toBe(true);
    expect(programRules.validFrom("")).toBe("Укажите дату начала действия программы");
    expect(programRules.validTo("", "2026-11-01")).toBe(true);
    expect(programRules.validTo("2026-10-31", "2026-11-01")).toBe(
      "Дата окончания не может быть раньше даты начала",
    );
    expect(programRules.validTo("2026-11-01", "2026-11-01")).toBe(true);
  });
});

describe("credit programme list", () => {
  it("marks expired, hidden and upcoming programmes", () => {
    expect(programState(program(), "2026-11-23")).toBe("valid");
    expect(programState(program(), "2026-12-31")).toBe("valid");
    expect(programState(program(), "2027-01-01")).toBe("expired");
    expect(programState(program({ expired: true }), "2026-11-23")).toBe("expired");
    expect(programState(program({ active: false }), "2026-11-23")).toBe("hidden");
    expect(programState(program({ validFrom: "2026-12-01" }), "2026-11-23")).toBe("upcoming");
  });

  it("groups by bank and writes dates and costs in Russian", () => {
    const groups = byBank([
      program({ id: "a", bankName: "ВТБ", name: "Б" }),
      program({ id: "b", bankName: "Альфа-Банк" }),
      program({ id: "c", bankName: "ВТБ", name: "А" }),
    ]);
    expect(groups.map(([bank, items]) => [bank, items.map((p) => p.id)])).toEqual([
      ["Альфа-Банк", ["b"]],
      ["ВТБ", ["c", "a"]],
    ]);
    expect(day("2026-11-01")).toBe("1 ноября 2026 г.");
    expect(plain(validity(program()))).toBe("с 1 ноября 2026 г. по 31 декабря 2026 г.");
    expect(plain(validity(program({ validTo: null })))).toBe(
      "с 1 ноября 2026 г., без срока окончания",
    );
    expect(costLines(program())).toEqual({
      psk: "ПСК от 6,123% до 29,9%",
      rate: "ставка от 5,9% до 27,5%",
    });
  });
});
