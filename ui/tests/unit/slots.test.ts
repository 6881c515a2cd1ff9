import { describe, expect, it } from "vitest";
import { scheduleError, scheduleForm, schedulePatch } from "../../src/admin/lib/schedule";
import {
  DEFAULT_SCHEDULE,
  daySlots,
  longDate,
  minutes,
  moscowNow,
  noTimeMessage,
  openDays,
  visitText,
  type WorkSchedule,
} from "../../src/lib/slots";

describe("time slots", () => {
  it("starts one every 30 minutes, the last at least 30 minutes before closing", () => {
    const slots = daySlots({ open: "09:00", close: "21:00" });
    expect(slots[0]).toBe("09:00");
    expect(slots[1]).toBe("09:30");
    expect(slots.at(-1)).toBe("20:30");
    expect(slots).toHaveLength(24);
    expect(daySlots({ open: "10:15", close: "11:30" })).toEqual(["10:15", "10:45"]);
    expect(daySlots({ open: "10:00", close: "10:20" })).toEqual([]);
    expect(daySlots(null)).toEqual([]);
    expect(daySlots({ open: "9", close: "18:00" })).toEqual([]);
  });

  it("reads times of day", () => {
    expect(minutes("00:00")).toBe(0);
    expect(minutes("23:59")).toBe(23 * 60 + 59);
    expect(minutes("24:00")).toBeNull();
    expect(minutes("9:00")).toBeNull();
  });

  it("counts in Moscow time, whatever the visitor's clock says", () => {
    // 22:30 UTC is 01:30 the next day in Moscow.
    expect(moscowNow(new Date("2026-11-23T22:30:00Z"))).toEqual({ date: "2026-11-24", minute: 90 });
  });
});

describe("the days offered", () => {
  // Closed on Sundays, short Saturday.
  const schedule: WorkSchedule = {
    days: [
      { open: "09:00", close: "21:00" },
      { open: "09:00", close: "21:00" },
      { open: "09:00", close: "21:00" },
      { open: "09:00", close: "21:00" },
      { open: "09:00", close: "21:00" },
      { open: "10:00", close: "16:00" },
      null,
    ],
  };

  it("are the next 14 open days, closed days left out", () => {
    // Monday 23 November 2026, 08:00 in Moscow.
    const days = openDays(schedule, new Date("2026-11-23T05:00:00Z"));
    expect(days).toHaveLength(14);
    expect(days[0]).toMatchObject({ date: "2026-11-23", weekday: "Сегодня" });
    expect(days[1]).toMatchObject({ date: "2026-11-24", weekday: "Завтра" });
    expect(days[2].weekday).toBe("Ср");
    expect(days.some((d) => d.date === "2026-11-29")).toBe(false); // Sunday
    const saturday = days.find((d) => d.date === "2026-11-28");
    expect(saturday?.slots.at(-1)).toBe("15:30");
    expect(saturday && noTimeMessage(saturday)).toBe("Выберите время с 10:00 до 15:30");
    // 14 open days of 6 a week: a little over two weeks.
    expect(days.at(-1)?.date).toBe("2026-12-08");
    expect(days[0].label).toMatch(/23 нояб/);
  });

  it("hide today's slots that have begun, and today when none is left", () => {
    // Monday, 10:20 in Moscow: 10:30 is the first slot left.
    const days = openDays(schedule, new Date("2026-11-23T07:20:00Z"));
    expect(days[0].slots[0]).toBe("10:30");
    expect(days[0].slots).not.toContain("10:00");
    // The message for a missing time names the day's whole hours, as the server does.
    expect(noTimeMessage(days[0])).toBe("Выберите время с 09:00 до 20:30");
    // Exactly at a slot's start it is gone too.
    expect(openDays(schedule, new Date("2026-11-23T07:30:00Z"))[0].slots[0]).toBe("11:00");
    // Monday 20:45: nothing left today, tomorrow comes first.
    const late = openDays(schedule, new Date("2026-11-23T17:45:00Z"));
    expect(late[0]).toMatchObject({ date: "2026-11-24", weekday: "Завтра" });
  });

  it("offer nothing when the salon never opens", () => {
    expect(openDays({ days: [null, null, null, null, null, null, null] }, new Date())).toEqual([]);
    expect(openDays(DEFAULT_SCHEDULE, new Date("2026-11-23T05:00:00Z"))).toHaveLength(14);
  });

  it("name a date in words", () => {
    expect(longDate("2026-11-24")).toBe("вторник, 24 ноября");
    expect(longDate("bad")).toBe("bad");
  });
});

describe("the schedule in the settings form", () => {
  it("turns days off into a box and back into null", () => {
    const form = scheduleForm({
      days: [{ open: "09:00", close: "18:00" }, null, ...Array(5).fill(null)],
    });
    expect(form[0]).toEqual({ closed: false, open: "09:00", close: "18:00" });
    expect(form[1]).toEqual({ closed: true, open: "", close: "" });
    const patch = schedulePatch(form);
    expect(patch.days[0]).toEqual({ open: "09:00", close: "18:00" });
    expect(patch.days[1]).toBeNull();
    expect(scheduleForm(undefined)).toHaveLength(7);
  });

  it("says which day is wrong", () => {
    const form = scheduleForm(DEFAULT_SCHEDULE);
    expect(scheduleError(form)).toBeNull();
    form[2] = { closed: false, open: "18:00", close: "09:00" };
    expect(scheduleError(form)).toBe("Среда: время открытия должно быть раньше времени закрытия");
    form[2] = { closed: false, open: "", close: "09:00" };
    expect(scheduleError(form)).toBe("Среда: время указывается как ЧЧ:ММ, например 09:00");
    form[2] = { closed: true, open: "", close: "" };
    expect(scheduleError(form)).toBeNull();
  });
});

describe("the test drive's toast", () => {
  it("says the day after «в», with its commas", () => {
    // 6 December 2026 is a Sunday.
    expect(visitText("2026-12-06", "20:30")).toBe("Ждём вас в воскресенье, 6 декабря, в 20:30.");
    expect(visitText("2026-12-01", "10:00")).toBe("Ждём вас во вторник, 1 декабря, в 10:00.");
    expect(visitText("2026-12-02", "10:00")).toContain("в среду, 2 декабря,");
  });
});
