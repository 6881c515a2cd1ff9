import { describe, expect, it } from "vitest";
import {
  BAD_PBX_NUMBER,
  checkName,
  checkPassword,
  checkPbxNumber,
  checkRepeat,
  checkRole,
  checkUsername,
  confirmText,
  displayName,
  editUserValues,
  fullName,
  greeting,
  INVITATION_TERMS,
  invitationApiUrl,
  NEW_USER_VALUES,
  newUserInput,
  RESET_VALUES,
  ROLES,
  resetInput,
  staffChange,
  TEAM_MESSAGES,
  userPasswordUrl,
  userState,
  userUrl,
} from "../../src/admin/lib/team";
import { ROLE_LABELS } from "../../src/admin/roles";
import type { StaffUser } from "../../src/api/types";

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

describe("a staff account's state", () => {
  const before = new Date("2026-11-20T00:00:00Z");

  it("active by default", () => {
    expect(userState(user())).toEqual({ kind: "active", label: "доступ открыт" });
  });

  it("an unused invitation with its expiry in Moscow time", () => {
    expect(userState(user({ invitationExpiresAt: "2026-11-21T10:05:00.000Z" }), before)).toEqual({
      kind: "invited",
      label: "приглашение до 21.11.2026, 13:05",
    });
  });

  it("an invitation that ran out unused", () => {
    const after = new Date("2026-11-21T10:05:00.000Z");
    expect(userState(user({ invitationExpiresAt: "2026-11-21T10:05:00.000Z" }), after)).toEqual({
      kind: "expired",
      label: "приглашение истекло",
    });
  });

  it("a one-time password not yet changed", () => {
    expect(userState(user({ mustChangePassword: true }))).toEqual({
      kind: "temporary",
      label: "временный пароль",
    });
  });

  it("blocked above everything else", () => {
    const blocked = user({
      blockedAt: "2026-11-22T09:00:00.000Z",
      mustChangePassword: true,
      invitationExpiresAt: "2026-11-23T09:00:00.000Z",
    });
    expect(userState(blocked)).toEqual({ kind: "blocked", label: "доступ закрыт" });
  });

  it("an invitation before a one-time password", () => {
    const both = user({ mustChangePassword: true, invitationExpiresAt: "2026-11-23T09:00:00Z" });
    expect(userState(both, before).kind).toBe("invited");
  });
});

describe("names on screen", () => {
  it("the name, or the login without one", () => {
    expect(displayName(user())).toBe("Анна Петрова");
    expect(displayName(user({ name: "  " }))).toBe("anna");
    expect(fullName(user())).toBe("Анна Петрова (anna)");
    expect(fullName(user({ name: "" }))).toBe("anna");
    expect(fullName(user({ name: "anna" }))).toBe("anna");
  });

  it("the invitation page greets by name, or by login", () => {
    expect(greeting({ name: "Анна", username: "anna" })).toBe("Здравствуйте, Анна!");
    expect(greeting({ name: "", username: "anna" })).toBe("Здравствуйте, anna!");
  });
});

describe("the checks of the team's forms (the server's words)", () => {
  it("a login: 1 to 50 characters, no spaces or colons, trimmed", () => {
    expect(checkUsername("anna")).toBe(true);
    expect(checkUsername("  anna  ")).toBe(true);
    expect(checkUsername("")).toBe(TEAM_MESSAGES.username);
    expect(checkUsername("   ")).toBe("Введите логин");
    expect(checkUsername("a".repeat(50))).toBe(true);
    expect(checkUsername("a".repeat(51))).toBe("Имя пользователя: от 1 до 50 символов");
    expect(checkUsername("anna petrova")).toBe(
      "Имя пользователя не должно содержать пробелов и двоеточий",
    );
    expect(checkUsername("anna:1")).toBe(TEAM_MESSAGES.usernameChars);
    expect(checkUsername("anna\tp")).toBe(TEAM_MESSAGES.usernameChars);
    expect(checkUsername("анна")).toBe(true);
  });

  it("a name up to 100 characters, optional", () => {
    expect(checkName("")).toBe(true);
    expect(checkName("я".repeat(100))).toBe(true);
    expect(checkName("я".repeat(101))).toBe("Имя: не длиннее 100 символов");
    expect(checkName(` ${"я".repeat(100)} `)).toBe(true);
  });

  it("a role must be chosen", () => {
    expect(checkRole("")).toBe("Выберите роль");
    expect(checkRole("auditor")).toBe(TEAM_MESSAGES.role);
    for (const r of ROLES) expect(checkRole(r)).toBe(true);
  });

  it("a password of at least 8 characters, counted as the server counts them", () => {
    expect(checkPassword("1234567")).toBe("Пароль должен быть не короче 8 символов");
    expect(checkPassword("12345678")).toBe(true);
    expect(checkPassword("")).toBe(TEAM_MESSAGES.password);
    // Seven emoji are 14 UTF-16 units but 7 characters.
    expect(checkPassword("😀".repeat(7))).toBe(TEAM_MESSAGES.password);
    expect(checkPassword("😀".repeat(8))).toBe(true);
  });

  it("the repeated password must match", () => {
    expect(checkRepeat("secret-pass", "secret-pass")).toBe(true);
    expect(checkRepeat("secret-pas", "secret-pass")).toBe("Пароли не совпадают");
    expect(checkRepeat("", "secret-pass")).toBe("Пароли не совпадают");
  });
});

describe("what the team's forms send", () => {
  it("an invitation by default: no password", () => {
    expect(NEW_USER_VALUES.method).toBe("invite");
    expect(
      newUserInput({
        ...NEW_USER_VALUES,
        name: " Анна ",
        username: " anna ",
        role: "editor",
        password: "typed-then-switched",
      }),
    ).toEqual({ username: "anna", name: "Анна", role: "editor" });
  });

  it("a one-time password as typed", () => {
    expect(
      newUserInput({
        ...NEW_USER_VALUES,
        name: "",
        username: "ivan",
        role: "viewer",
        method: "password",
        password: " temp pass ",
      }),
    ).toEqual({ username: "ivan", name: "", role: "viewer", password: " temp pass " });
  });

  it("a reset: a link without a password, or the one-time password", () => {
    expect(RESET_VALUES.method).toBe("invite");
    expect(resetInput({ method: "invite", password: "ignored1" })).toEqual({});
    expect(resetInput({ method: "password", password: "temp-1234" })).toEqual({
      password: "temp-1234",
    });
  });

  it("a change: only what changed, nothing when nothing did", () => {
    const u = user();
    expect(staffChange(u, editUserValues(u))).toBeNull();
    const same = editUserValues(u);
    expect(staffChange(u, { ...same, name: " Анна Петрова ", role: "manager" })).toBeNull();
    expect(staffChange(u, { ...same, name: "Анна", role: "manager" })).toEqual({ name: "Анна" });
    expect(staffChange(u, { ...same, name: "Анна Петрова", role: "owner" })).toEqual({
      role: "owner",
    });
    expect(staffChange(u, { ...same, name: "", role: "viewer" })).toEqual({
      name: "",
      role: "viewer",
    });
  });

  it("the PBX number: checked as the server does, sent when it changed", () => {
    expect(checkPbxNumber("")).toBe(true);
    expect(checkPbxNumber(" 101 ")).toBe(true);
    expect(checkPbxNumber("+7 (921) 555-01-02")).toBe(true);
    for (const bad of ["10a", "+", "sip:101", "12345678901234567890", "1+2"])
      expect(checkPbxNumber(bad)).toBe(BAD_PBX_NUMBER);
    const u = user({ pbxNumber: "101" });
    const same = editUserValues(u);
    expect(same.pbxNumber).toBe("101");
    expect(staffChange(u, { ...same, pbxNumber: " 101 " })).toBeNull();
    expect(staffChange(u, { ...same, pbxNumber: "102" })).toEqual({ pbxNumber: "102" });
    expect(staffChange(u, { ...same, pbxNumber: "" })).toEqual({ pbxNumber: "" });
    expect(
      newUserInput({
        ...NEW_USER_VALUES,
        username: "ivan",
        role: "manager",
        pbxNumber: " 103 ",
      }).pbxNumber,
    ).toBe("103");
    expect(
      newUserInput({ ...NEW_USER_VALUES, username: "ivan", role: "manager" }),
    ).not.toHaveProperty("pbxNumber");
  });
});

describe("asking before blocking or deleting", () => {
  it("deleting says the audit trail keeps the login", () => {
    const text = confirmText("delete", user(), false);
    expect(text.title).toBe("Удалить пользователя?");
    expect(text.confirmLabel).toBe("Удалить");
    expect(text.message).toBe(
      "Учётная запись Анна Петрова (anna) будет удалена: войти с ней больше не получится. Её действия останутся в журнале изменений под логином anna.",
    );
  });

  it("blocking says the sessions end and it can be undone", () => {
    const text = confirmText("block", user({ name: "" }), false);
    expect(text.title).toBe("Заблокировать пользователя?");
    expect(text.confirmLabel).toBe("Заблокировать");
    expect(text.message).toBe(
      "anna не сможет войти в панель, открытые сеансы завершатся. Разблокировать можно в любой момент.",
    );
  });

  it("warns when it is one's own account", () => {
    for (const kind of ["block", "delete"] as const) {
      expect(confirmText(kind, user(), true).message).toMatch(/Это ваша учётная запись/);
      expect(confirmText(kind, user(), false).message).not.toMatch(/Это ваша учётная запись/);
    }
  });
});

describe("the team's addresses and words", () => {
  it("escapes ids and tokens", () => {
    expect(userUrl("a/b")).toBe("/api/admin/users/a%2Fb");
    expect(userPasswordUrl("u1")).toBe("/api/admin/users/u1/password");
    expect(invitationApiUrl("abc-_1")).toBe("/api/invitations/abc-_1");
    expect(invitationApiUrl("a?b")).toBe("/api/invitations/a%3Fb");
  });

  it("offers the four roles with their Russian names", () => {
    expect(ROLES.map((r) => ROLE_LABELS[r])).toEqual([
      "Владелец",
      "Менеджер по продажам",
      "Контент-менеджер",
      "Наблюдатель",
    ]);
  });

  it("says the link works once for 24 hours", () => {
    expect(INVITATION_TERMS).toBe("Ссылка работает один раз в течение 24 часов.");
  });
});
