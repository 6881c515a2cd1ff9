import { describe, expect, it } from "vitest";
import { LEAD_TYPES } from "../../src/admin/lib/leads";
import {
  checkEmail,
  checkEmails,
  checkLatitude,
  checkLongitude,
  checkName,
  checkPhoneClass,
  deleteQuestion,
  firstProblem,
  parseCoordinate,
  SALON_FIELDS,
  SALON_MESSAGES,
  salonInput,
  salonValues,
  withinLimit,
} from "../../src/admin/lib/salon-form";
import {
  carSalonUrl,
  movedText,
  type SalonRecord,
  salonIdsChange,
  salonIdsOf,
  salonIdsValues,
  salonName,
  salonsNote,
  salonUrl,
  several,
  withSalon,
} from "../../src/admin/lib/salons";
import {
  editUserValues,
  NEW_USER_VALUES,
  newUserInput,
  staffChange,
} from "../../src/admin/lib/team";
import type { StaffUser } from "../../src/api/types";

const days = Array.from({ length: 7 }, (_, i) =>
  i === 6 ? null : { open: "10:00", close: "20:00" },
);

const salon = (over: Partial<SalonRecord> = {}): SalonRecord => ({
  id: 2,
  name: "Салон на Выборгской",
  address: "Выборгское ш., 1",
  fullAddress: "194000, Санкт-Петербург, Выборгское ш., 1",
  latitude: 60.05,
  longitude: 30.33,
  phone: "+7 812 000-00-02",
  phoneSecondary: "",
  phoneClass: "phone-vyb",
  email: "vyb@example.ru",
  workSchedule: { days },
  workingHours: "Пн–Сб: 10:00–20:00",
  notificationEmail: "",
  telegramChatId: "",
  leadRecipients: { trade_in: { email: "tradein@example.ru", telegramChatId: "" } },
  operatorName: "",
  operatorInn: "",
  operatorOgrn: "",
  operatorAddress: "",
  main: false,
  cars: 0,
  ...over,
});

const MAIN = salon({ id: 1, name: "Невский Автоцентр", main: true, phoneClass: "ct-phone" });

describe("the salons' addresses and names", () => {
  it("the API's paths", () => {
    expect(salonUrl(3)).toBe("/api/admin/salons/3");
    expect(carSalonUrl("a b")).toBe("/api/admin/cars/a%20b/salon");
  });

  it("several only from two salons", () => {
    expect(several(undefined)).toBe(false);
    expect(several([MAIN])).toBe(false);
    expect(several([MAIN, salon()])).toBe(true);
  });

  it("a salon's name by id, absent being the main", () => {
    const list = [MAIN, salon()];
    expect(salonName(list, 2)).toBe("Салон на Выборгской");
    expect(salonName(list, null)).toBe("Невский Автоцентр");
    expect(salonName(list, undefined)).toBe("Невский Автоцентр");
    expect(salonName(list, 9)).toBeUndefined();
    expect(salonName(undefined, 1)).toBeUndefined();
  });

  it("the move's toast and the delete's question", () => {
    expect(movedText("Салон на Выборгской")).toBe(
      "Автомобиль переведён в салон «Салон на Выборгской»",
    );
    expect(deleteQuestion(salon())).toMatch(/^Салон «Салон на Выборгской» будет удалён/);
    expect(deleteQuestion(salon({ cars: 3 }))).toMatch(/автомобилей: 3/);
  });
});

describe("the salon form", () => {
  it("a new salon starts empty, with the default hours and a row per lead type", () => {
    const v = salonValues(null, LEAD_TYPES);
    expect(v.name).toBe("");
    expect(v.latitude).toBe("");
    expect(v.workSchedule).toHaveLength(7);
    expect(v.workSchedule[0]).toEqual({ closed: false, open: "09:00", close: "21:00" });
    expect(Object.keys(v.leadRecipients)).toEqual(LEAD_TYPES);
    expect(v.leadRecipients.trade_in).toEqual({ email: "", telegramChatId: "" });
  });

  it("a salon's values and what is sent back: trimmed, numbers, recipients given", () => {
    const v = salonValues(salon(), LEAD_TYPES);
    expect(v.latitude).toBe("60.05");
    expect(v.workSchedule[6]).toEqual({ closed: true, open: "", close: "" });
    expect(v.leadRecipients.trade_in.email).toBe("tradein@example.ru");
    const sent = salonInput(
      {
        ...v,
        name: "  Салон на Выборгской ",
        latitude: " 60,1 ",
        leadRecipients: {
          ...v.leadRecipients,
          test_drive: { email: " ", telegramChatId: " -100200 " },
        },
      },
      false,
    );
    expect(sent.name).toBe("Салон на Выборгской");
    expect(sent.latitude).toBe(60.1);
    expect(sent.longitude).toBe(30.33);
    expect(sent.phoneClass).toBe("phone-vyb");
    expect(sent.workSchedule?.days[0]).toEqual({ open: "10:00", close: "20:00" });
    expect(sent.workSchedule?.days[6]).toBeNull();
    expect(sent.leadRecipients).toEqual({
      trade_in: { email: "tradein@example.ru", telegramChatId: "" },
      test_drive: { email: "", telegramChatId: "-100200" },
    });
  });

  it("empty coordinates are null; the main salon's call-tracking class is never sent", () => {
    const v = { ...salonValues(MAIN, LEAD_TYPES), latitude: "", longitude: "" };
    const sent = salonInput(v, true);
    expect(sent.latitude).toBeNull();
    expect(sent.longitude).toBeNull();
    expect("phoneClass" in sent).toBe(false);
  });

  it("every field the server may name is in the form", () => {
    const values = salonValues(null, LEAD_TYPES);
    for (const f of SALON_FIELDS) expect(f in values).toBe(true);
  });
});

describe("the salon form's checks, in the server's words", () => {
  it("a name", () => {
    expect(checkName("  ")).toBe(SALON_MESSAGES.name);
    expect(checkName("Салон")).toBe(true);
    expect(checkName("я".repeat(256))).toBe(
      "Поле «Название салона» не должно быть длиннее 255 символов",
    );
  });

  it("coordinates: numbers within range, both or neither", () => {
    expect(parseCoordinate("")).toBeNull();
    expect(parseCoordinate("59,93")).toBe(59.93);
    expect(parseCoordinate("-0.5")).toBe(-0.5);
    expect(parseCoordinate("север")).toBeNaN();
    expect(checkLatitude("59.9", "30.3")).toBe(true);
    expect(checkLatitude("", "")).toBe(true);
    expect(checkLatitude("91", "30")).toBe(SALON_MESSAGES.latitude);
    expect(checkLatitude("abc", "30")).toBe(SALON_MESSAGES.latitude);
    expect(checkLatitude("", "30")).toBe(SALON_MESSAGES.pair);
    expect(checkLongitude("181", "59")).toBe(SALON_MESSAGES.longitude);
    expect(checkLongitude("", "59")).toBe(SALON_MESSAGES.pair);
    expect(checkLongitude("-180", "59")).toBe(true);
  });

  it("e-mails: one, or several by commas", () => {
    expect(checkEmail("")).toBe(true);
    expect(checkEmail("a@b.ru")).toBe(true);
    expect(checkEmail("a@b.ru, c@d.ru")).toBe(SALON_MESSAGES.email);
    expect(checkEmails("a@b.ru, c@d.ru; e@f.ru")).toBe(true);
    expect(checkEmails(" , ")).toBe(true);
    expect(checkEmails("a@b.ru, нет")).toBe(SALON_MESSAGES.email);
  });

  it("the call-tracking class and the lengths", () => {
    expect(checkPhoneClass("ct-phone_2")).toBe(true);
    expect(checkPhoneClass("ct phone")).toBe(SALON_MESSAGES.phoneClass);
    expect(withinLimit("phone", "1".repeat(50))).toBe(true);
    expect(withinLimit("phone", "1".repeat(51))).toBe(
      "Поле «Телефон» не должно быть длиннее 50 символов",
    );
    expect(firstProblem(true, "б", "в")).toBe("б");
    expect(firstProblem(true, true)).toBe(true);
  });
});

const user = (over: Partial<StaffUser> = {}): StaffUser => ({
  id: "u1",
  username: "anna",
  name: "Анна",
  role: "manager",
  blockedAt: null,
  mustChangePassword: false,
  invitationExpiresAt: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  email: "",
  workSchedule: null,
  pbxNumber: "",
  openLeads: 0,
  ...over,
});

describe("a staff member's salons", () => {
  it("the boxes checked and the ids sent", () => {
    expect(salonIdsValues(user())).toEqual([]);
    expect(salonIdsValues(user({ salonIds: [2, 1] }))).toEqual(["2", "1"]);
    expect(salonIdsOf(["3", "1", "3", "x"])).toEqual([1, 3]);
    expect(salonIdsOf(undefined)).toEqual([]);
  });

  it("a change only when the set differs; none checked is every salon", () => {
    expect(salonIdsChange(user({ salonIds: [1, 2] }), ["2", "1"])).toBeUndefined();
    expect(salonIdsChange(user(), [])).toBeUndefined();
    expect(salonIdsChange(user({ salonIds: [2] }), [])).toEqual([]);
    expect(salonIdsChange(user(), ["2"])).toEqual([2]);
  });

  it("the team's forms send them", () => {
    expect(
      newUserInput({ ...NEW_USER_VALUES, username: "ivan", role: "manager", salonIds: ["2"] }),
    ).toEqual({ username: "ivan", name: "", role: "manager", salonIds: [2] });
    expect(newUserInput({ ...NEW_USER_VALUES, username: "ivan", role: "manager" })).toEqual({
      username: "ivan",
      name: "",
      role: "manager",
    });
    const u = user({ salonIds: [2] });
    const same = editUserValues(u);
    expect(same.salonIds).toEqual(["2"]);
    expect(staffChange(u, same)).toBeNull();
    expect(staffChange(u, { ...same, salonIds: [] })).toEqual({ salonIds: [] });
    expect(staffChange(u, { ...same, salonIds: ["1", "2"] })).toEqual({ salonIds: [1, 2] });
  });

  it("the team table's note", () => {
    const list = [MAIN, salon()];
    expect(salonsNote(user(), list)).toBe("все салоны");
    expect(salonsNote(user({ salonIds: [1, 2] }), list)).toBe(
      "Невский Автоцентр, Салон на Выборгской",
    );
    expect(salonsNote(user({ salonIds: [7] }), list)).toBe("№7");
  });
});

describe("a dashboard figures' salon", () => {
  it("asks one salon's figures, or every salon's", () => {
    expect(withSalon("/api/admin/dashboard", "")).toBe("/api/admin/dashboard");
    expect(withSalon("/api/admin/dashboard", undefined)).toBe("/api/admin/dashboard");
    expect(withSalon("/api/admin/response-times", "2")).toBe("/api/admin/response-times?salon=2");
  });
});
