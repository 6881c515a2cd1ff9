import { describe, expect, it } from "vitest";
import { changeLine, fieldLabel, valueLabel } from "../../src/admin/lib/audit";
import {
  COMMENT_MESSAGES,
  checkComment,
  commentInput,
  commentsUrl,
  MAX_COMMENT,
} from "../../src/admin/lib/lead-comments";
import { DELIVERY_KIND_LABELS } from "../../src/admin/lib/notifications";
import { scheduleForm } from "../../src/admin/lib/schedule";
import {
  ASSIGNMENT_HINT,
  ASSIGNMENT_LABELS,
  ASSIGNMENT_RULES,
  assignmentForm,
} from "../../src/admin/lib/settings";
import {
  HOURS_LABELS,
  hoursChange,
  hoursError,
  hoursNote,
  hoursSchedule,
  hoursValues,
} from "../../src/admin/lib/staff-hours";
import {
  checkEmail,
  EDIT_USER_FIELDS,
  editUserValues,
  NEW_USER_FIELDS,
  NEW_USER_VALUES,
  newUserInput,
  newUserValues,
  staffChange,
} from "../../src/admin/lib/team";
import type { StaffUser, WorkSchedule } from "../../src/api/types";

const ALL_DAY: WorkSchedule = {
  days: Array.from({ length: 7 }, () => ({ open: "00:00", close: "23:59" })),
};
const WEEKDAYS: WorkSchedule = {
  days: [...Array.from({ length: 5 }, () => ({ open: "10:00", close: "19:00" })), null, null],
};

const user = (over: Partial<StaffUser> = {}): StaffUser => ({
  id: "u1",
  username: "anna",
  name: "Анна Петрова",
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

describe("a staff member's working hours in the forms", () => {
  it("the radio labels", () => {
    expect(HOURS_LABELS).toEqual({ salon: "Как у салона", own: "Свои часы" });
  });

  it("from an account: the salon's without own hours, the editor from the salon's schedule", () => {
    expect(hoursValues(null)).toEqual({ hours: "salon", workSchedule: scheduleForm(null) });
    expect(hoursValues(undefined, WEEKDAYS)).toEqual({
      hours: "salon",
      workSchedule: scheduleForm(WEEKDAYS),
    });
  });

  it("from an account with own hours: those, whatever the salon's", () => {
    const values = hoursValues(WEEKDAYS, ALL_DAY);
    expect(values.hours).toBe("own");
    expect(values.workSchedule[0]).toEqual({ closed: false, open: "10:00", close: "19:00" });
    expect(values.workSchedule[5]).toEqual({ closed: true, open: "", close: "" });
  });

  it("to the API: null for the salon's, the seven days for one's own", () => {
    expect(hoursSchedule({ hours: "salon", workSchedule: scheduleForm(WEEKDAYS) })).toBeNull();
    expect(hoursSchedule({ hours: "own", workSchedule: scheduleForm(WEEKDAYS) })).toEqual(WEEKDAYS);
    expect(hoursSchedule(hoursValues(ALL_DAY))).toEqual(ALL_DAY);
  });

  it("one's own hours are checked in the server's words; the salon's are not", () => {
    const days = scheduleForm(ALL_DAY);
    days[2] = { closed: false, open: "18:00", close: "10:00" };
    expect(hoursError({ hours: "own", workSchedule: days })).toBe(
      "Среда: время открытия должно быть раньше времени закрытия",
    );
    expect(hoursError({ hours: "salon", workSchedule: days })).toBeNull();
    expect(hoursError(hoursValues(ALL_DAY))).toBeNull();
  });

  it("a change: absent when the hours stay, null back to the salon's, else the schedule", () => {
    const own = user({ workSchedule: WEEKDAYS });
    expect(hoursChange(own, hoursValues(WEEKDAYS))).toBeUndefined();
    expect(hoursChange(own, { hours: "salon", workSchedule: scheduleForm(WEEKDAYS) })).toBeNull();
    expect(hoursChange(own, hoursValues(ALL_DAY))).toEqual(ALL_DAY);
    const salon = user();
    expect(hoursChange(salon, hoursValues(null, ALL_DAY))).toBeUndefined();
    expect(hoursChange(salon, { hours: "own", workSchedule: scheduleForm(ALL_DAY) })).toEqual(
      ALL_DAY,
    );
  });

  it("the order of a day's keys from the server does not count as a change", () => {
    const stored = {
      days: WEEKDAYS.days.map((d) => (d ? { close: d.close, open: d.open } : null)),
    };
    expect(hoursChange(user({ workSchedule: stored }), hoursValues(stored))).toBeUndefined();
  });

  it("the team table's note", () => {
    expect(hoursNote(user({ workSchedule: WEEKDAYS }))).toBe("свои часы");
    expect(hoursNote(user())).toBeNull();
  });
});

describe("a staff member's e-mail and hours in the add and edit forms", () => {
  it("the e-mail may be empty, otherwise an address", () => {
    expect(checkEmail("")).toBe(true);
    expect(checkEmail("  ")).toBe(true);
    expect(checkEmail(" anna@example.ru ")).toBe(true);
    expect(checkEmail("anna@")).toBe("Неверный формат email");
  });

  it("a refusal of the e-mail or the hours is shown at its field", () => {
    expect(NEW_USER_FIELDS).toContain("email");
    expect(NEW_USER_FIELDS).toContain("workSchedule");
    expect(EDIT_USER_FIELDS).toEqual([
      "name",
      "role",
      "email",
      "pbxNumber",
      "salonIds",
      "workSchedule",
    ]);
  });

  it("a new member: the salon's hours by default, the editor from the salon's schedule", () => {
    expect(NEW_USER_VALUES.email).toBe("");
    expect(NEW_USER_VALUES.hours).toBe("salon");
    expect(newUserValues(WEEKDAYS).workSchedule).toEqual(scheduleForm(WEEKDAYS));
  });

  it("adding sends the e-mail when given and the hours only when one's own", () => {
    const base = { ...NEW_USER_VALUES, username: "ivan", role: "manager" as const };
    expect(newUserInput(base)).toEqual({ username: "ivan", name: "", role: "manager" });
    expect(
      newUserInput({
        ...base,
        email: " ivan@example.ru ",
        hours: "own",
        workSchedule: scheduleForm(ALL_DAY),
      }),
    ).toEqual({
      username: "ivan",
      name: "",
      role: "manager",
      email: "ivan@example.ru",
      workSchedule: ALL_DAY,
    });
  });

  it("the edit form starts from the account", () => {
    const values = editUserValues(user({ email: "anna@example.ru", workSchedule: WEEKDAYS }));
    expect(values.email).toBe("anna@example.ru");
    expect(values.hours).toBe("own");
    expect(values.workSchedule).toEqual(scheduleForm(WEEKDAYS));
  });

  it("a change sends a new or emptied e-mail and changed hours only", () => {
    const u = user({ email: "anna@example.ru" });
    const same = editUserValues(u);
    expect(staffChange(u, { ...same, email: " anna@example.ru " })).toBeNull();
    expect(staffChange(u, { ...same, email: "" })).toEqual({ email: "" });
    expect(staffChange(u, { ...same, email: "a.petrova@example.ru" })).toEqual({
      email: "a.petrova@example.ru",
    });
    expect(staffChange(u, { ...same, hours: "own", workSchedule: scheduleForm(ALL_DAY) })).toEqual({
      workSchedule: ALL_DAY,
    });
    const own = user({ workSchedule: ALL_DAY });
    expect(staffChange(own, { ...editUserValues(own), hours: "salon" })).toEqual({
      workSchedule: null,
    });
  });
});

describe("how new leads find their assignee (settings)", () => {
  it("three rules, by hand first, in the panel's words", () => {
    expect(ASSIGNMENT_RULES).toEqual(["none", "round_robin", "least_loaded"]);
    expect(ASSIGNMENT_LABELS).toEqual({
      none: "Вручную: менеджеры берут заявки сами, владелец передаёт",
      round_robin: "По очереди между менеджерами на смене",
      least_loaded: "Наименее загруженному менеджеру на смене",
    });
    expect(ASSIGNMENT_HINT).toMatch(/рабочие часы/);
    expect(ASSIGNMENT_HINT).toMatch(/без ответственного/);
  });

  it("the saved rule, or by hand", () => {
    expect(assignmentForm("least_loaded")).toBe("least_loaded");
    expect(assignmentForm(undefined)).toBe("none");
    expect(assignmentForm(null)).toBe("none");
  });

  it("the audit trail names the field and the rules", () => {
    expect(fieldLabel("settings", "leadAssignment")).toBe("Распределение новых заявок");
    expect(valueLabel("settings", "leadAssignment", "round_robin")).toBe(
      "По очереди между менеджерами на смене",
    );
    expect(
      changeLine("settings", { field: "leadAssignment", from: "none", to: "least_loaded" }),
    ).toBe(
      "Распределение новых заявок: Вручную: менеджеры берут заявки сами, владелец передаёт → Наименее загруженному менеджеру на смене",
    );
    expect(fieldLabel("user", "workSchedule")).toBe("Рабочие часы");
    expect(fieldLabel("user", "email")).toBe("E-mail");
  });

  it("the e-mail to the assignee is named among a lead's deliveries", () => {
    expect(DELIVERY_KIND_LABELS.assigned).toBe("Письмо ответственному");
  });
});

describe("a lead's comments", () => {
  it("the address", () => {
    expect(commentsUrl("a b")).toBe("/api/leads/a%20b/comments");
  });

  it("something besides spaces, at most 2000 characters, in the server's words", () => {
    expect(checkComment("")).toBe(COMMENT_MESSAGES.empty);
    expect(checkComment(" \n ")).toBe("Напишите комментарий");
    expect(checkComment("Перезвонил")).toBe(true);
    expect(checkComment(` ${"я".repeat(MAX_COMMENT)} `)).toBe(true);
    expect(checkComment("я".repeat(MAX_COMMENT + 1))).toBe("Комментарий: не длиннее 2000 символов");
    // Characters, not UTF-16 units: 2000 emoji are 4000 units.
    expect(checkComment("🚗".repeat(MAX_COMMENT))).toBe(true);
  });

  it("sends the text trimmed, line breaks kept", () => {
    expect(commentInput("  Перезвонил,\nдоговорились о визите \n")).toEqual({
      body: "Перезвонил,\nдоговорились о визите",
    });
  });
});
