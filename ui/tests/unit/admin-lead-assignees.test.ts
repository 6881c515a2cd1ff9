import { describe, expect, it } from "vitest";
import {
  assignedToast,
  assigneeAction,
  assigneeFilterOptions,
  assigneeInput,
  assigneeLabel,
  assigneeUrl,
  assignOptions,
  knownFilter,
  leadTakers,
  NO_ASSIGNEE,
  PASSED,
  RELEASED,
  seesEveryLead,
  TAKEN,
  takeRequest,
} from "../../src/admin/lib/lead-assignees";
import { leadsUrl } from "../../src/admin/lib/leads";
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

const staff: StaffUser[] = [
  user({ id: "m2", username: "boris", name: "Борис", role: "manager" }),
  user({ id: "o1", username: "owner", name: "", role: "owner" }),
  user({ id: "m1", username: "anna", name: "Анна", role: "manager" }),
  user({ id: "e1", username: "edit", name: "Елена", role: "editor" }),
  user({ id: "v1", username: "view", name: "Виктор", role: "viewer" }),
  user({
    id: "m3",
    username: "gone",
    name: "Галина",
    role: "manager",
    blockedAt: "2026-11-21T10:00:00Z",
  }),
];

describe("who sees every lead", () => {
  it("is the owner only", () => {
    expect(seesEveryLead("owner")).toBe(true);
    expect(seesEveryLead("manager")).toBe(false);
    expect(seesEveryLead(null)).toBe(false);
  });
});

describe("the staff who take leads", () => {
  it("are the active owners and managers, by name", () => {
    expect(leadTakers(staff).map((u) => u.id)).toEqual(["m1", "m2", "o1"]);
    expect(leadTakers(undefined)).toEqual([]);
  });

  it("leaves the given list as it was", () => {
    const copy = [...staff];
    leadTakers(staff);
    expect(staff).toEqual(copy);
  });
});

describe("the assignee filter", () => {
  it("offers a manager their own and the unassigned, both by default", () => {
    expect(assigneeFilterOptions(false, staff)).toEqual([
      { value: "all", label: "Мои и без ответственного" },
      { value: "mine", label: "Мои" },
      { value: "none", label: "Без ответственного" },
    ]);
  });

  it("offers an owner every lead by default and each staff member who takes leads", () => {
    expect(assigneeFilterOptions(true, staff)).toEqual([
      { value: "all", label: "Все" },
      { value: "mine", label: "Мои" },
      { value: "none", label: "Без ответственного" },
      { value: "m1", label: "Анна" },
      { value: "m2", label: "Борис" },
      // No name: the login.
      { value: "o1", label: "owner" },
    ]);
    expect(assigneeFilterOptions(true).map((o) => o.value)).toEqual(["all", "mine", "none"]);
  });

  it("falls back to all when the chosen one is no longer offered", () => {
    const options = assigneeFilterOptions(true, staff);
    expect(knownFilter("m2", options)).toBe("m2");
    expect(knownFilter("mine", options)).toBe("mine");
    expect(knownFilter("m3", options)).toBe("all");
    expect(knownFilter("m2", assigneeFilterOptions(false, staff))).toBe("all");
  });

  it("puts it in the list's URL, leaving out all", () => {
    expect(leadsUrl("all", "all", "all")).toBe("/api/leads");
    expect(leadsUrl("all", "all", "mine")).toBe("/api/leads?assignee=mine");
    expect(leadsUrl("new", "trade_in", "none")).toBe(
      "/api/leads?status=new&type=trade_in&assignee=none",
    );
    expect(leadsUrl("all", "all", "a b&c")).toBe("/api/leads?assignee=a%20b%26c");
  });
});

describe("the assignee's line", () => {
  it("names the assignee or says there is none", () => {
    expect(assigneeLabel({ assigneeId: "m1", assigneeName: "Анна" })).toBe("Ответственный: Анна");
    expect(assigneeLabel({ assigneeId: null, assigneeName: null })).toBe("Без ответственного");
    expect(assigneeLabel({})).toBe(NO_ASSIGNEE);
    expect(assigneeLabel({ assigneeId: "m1", assigneeName: " " })).toBe("Ответственный: сотрудник");
  });
});

describe("what may be done with the assignee", () => {
  it("lets a manager take an unassigned lead and give up their own", () => {
    expect(assigneeAction({ assigneeId: null }, false, false)).toBe("take");
    expect(assigneeAction({}, false, false)).toBe("take");
    expect(assigneeAction({ assigneeId: "m1" }, false, false)).toBe("release");
  });

  it("lets an owner who lists the staff pass any lead", () => {
    expect(assigneeAction({ assigneeId: null }, true, true)).toBe("assign");
    expect(assigneeAction({ assigneeId: "m1" }, true, true)).toBe("assign");
    expect(assigneeAction({ assigneeId: "m1" }, true, false)).toBeNull();
  });

  it("offers no one and the staff who take leads in the owner's select", () => {
    expect(assignOptions({ assigneeId: "m1", assigneeName: "Анна" }, staff)).toEqual([
      { value: "", label: "Без ответственного" },
      { value: "m1", label: "Анна" },
      { value: "m2", label: "Борис" },
      { value: "o1", label: "owner" },
    ]);
  });

  it("keeps a current assignee who no longer takes leads", () => {
    const options = assignOptions({ assigneeId: "m3", assigneeName: "Галина" }, staff);
    expect(options.map((o) => o.value)).toEqual(["", "m3", "m1", "m2", "o1"]);
    expect(options[1].label).toBe("Галина");
    expect(assignOptions({ assigneeId: null }, undefined)).toEqual([
      { value: "", label: "Без ответственного" },
    ]);
  });

  it("sends a user's id, or null for no one", () => {
    expect(assigneeInput("m1")).toEqual({ assigneeId: "m1" });
    expect(assigneeInput("")).toEqual({ assigneeId: null });
    expect(assigneeUrl("a/b")).toBe("/api/leads/a%2Fb/assignee");
  });

  it("tells what happened", () => {
    expect(assignedToast({ assigneeId: "m1" })).toBe(PASSED);
    expect(assignedToast({ assigneeId: null })).toBe(RELEASED);
    expect([TAKEN, PASSED, RELEASED]).toEqual([
      "Заявка взята в работу",
      "Заявка передана",
      "Заявка снята с сотрудника",
    ]);
  });
});

describe("taking a lead", () => {
  it("answers a new lead, which assigns it to whoever answers", () => {
    expect(takeRequest({ id: "l/1", status: "new" }, "u-1")).toEqual({
      url: "/api/leads/l%2F1/status",
      body: { status: "in_progress" },
    });
  });

  it("takes an answered or closed lead without reopening it", () => {
    for (const status of ["in_progress", "completed", "cancelled"] as const) {
      expect(takeRequest({ id: "l-2", status }, "u-1")).toEqual({
        url: "/api/leads/l-2/assignee",
        body: { assigneeId: "u-1" },
      });
    }
  });
});
