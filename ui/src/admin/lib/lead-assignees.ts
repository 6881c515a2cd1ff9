/** Who answers a lead (docs/leads.md, "Who answers a lead"): the leads
 * screen's "Ответственный" filter, the assignee's line, what the signed-in
 * user may do with a lead's assignee and the toasts of it.
 *
 * An owner sees every lead and gives any of them to a staff member who
 * takes leads (or to no one). A manager sees only their own leads and the
 * unassigned ones: an assigned lead they see is therefore their own (the
 * session does not carry the user's id, the server's filter says it). */
import type { Role, StaffUser } from "../../api/types";
import type { Lead } from "./leads";
import { displayName } from "./team";

/** `assignee` of `GET /api/leads`: "all" (every lead for an owner, one's
 * own and the unassigned for a manager), "mine", "none" or a user's id. */
export type AssigneeFilter = "all" | "mine" | "none" | (string & {});

export interface FilterOption {
  value: string;
  label: string;
}

export const NO_ASSIGNEE = "Без ответственного";

/** Whether the role sees every lead (the others see their own and the
 * unassigned ones): the owner. */
export function seesEveryLead(role: Role | null | undefined): boolean {
  return role === "owner";
}

/** The staff members a lead may be given to: active (not blocked) owners
 * and managers, by name. */
export function leadTakers(staff: readonly StaffUser[] | undefined): StaffUser[] {
  return (staff ?? [])
    .filter((u) => !u.blockedAt && (u.role === "owner" || u.role === "manager"))
    .sort((a, b) => displayName(a).localeCompare(displayName(b), "ru"));
}

/** The "Ответственный" filter's options: a manager's three ("all" first, the
 * default), an owner's three and one per staff member who takes leads. */
export function assigneeFilterOptions(
  everyLead: boolean,
  staff?: readonly StaffUser[],
): FilterOption[] {
  if (!everyLead) {
    return [
      { value: "all", label: "Мои и без ответственного" },
      { value: "mine", label: "Мои" },
      { value: "none", label: NO_ASSIGNEE },
    ];
  }
  return [
    { value: "all", label: "Все" },
    { value: "mine", label: "Мои" },
    { value: "none", label: NO_ASSIGNEE },
    ...leadTakers(staff).map((u) => ({ value: u.id, label: displayName(u) })),
  ];
}

/** The filter's value when it is no longer offered (a staff member who left
 * the list): back to the default. */
export function knownFilter(value: string, options: readonly FilterOption[]): AssigneeFilter {
  return options.some((o) => o.value === value) ? value : "all";
}

/** "Ответственный: Анна Петрова", or "Без ответственного". */
export function assigneeLabel(lead: Pick<Lead, "assigneeId" | "assigneeName">): string {
  if (!lead.assigneeId) return NO_ASSIGNEE;
  const name = lead.assigneeName?.trim();
  return `Ответственный: ${name || "сотрудник"}`;
}

/** What the signed-in user may do with a lead's assignee: a manager takes an
 * unassigned lead or gives up their own, an owner who can list the staff
 * passes it to anyone; nothing otherwise. */
export type AssigneeAction = "take" | "release" | "assign" | null;

export function assigneeAction(
  lead: Pick<Lead, "assigneeId">,
  everyLead: boolean,
  canListStaff: boolean,
): AssigneeAction {
  if (everyLead) return canListStaff ? "assign" : null;
  return lead.assigneeId ? "release" : "take";
}

/** The options of the owner's "Передать" select: no one (value "") and the
 * staff who take leads; the current assignee is kept even when no longer
 * among them (blocked, another role), so the select shows who it is. */
export function assignOptions(
  lead: Pick<Lead, "assigneeId" | "assigneeName">,
  staff: readonly StaffUser[] | undefined,
): FilterOption[] {
  const takers = leadTakers(staff).map((u) => ({ value: u.id, label: displayName(u) }));
  const current = lead.assigneeId;
  if (current && !takers.some((t) => t.value === current)) {
    takers.unshift({ value: current, label: lead.assigneeName?.trim() || "сотрудник" });
  }
  return [{ value: "", label: NO_ASSIGNEE }, ...takers];
}

export const TAKEN = "Заявка взята в работу";
export const PASSED = "Заявка передана";
export const RELEASED = "Заявка снята с сотрудника";

/** The toast after an assignment, by what the server answered. */
export function assignedToast(answer: Pick<Lead, "assigneeId">): string {
  return answer.assigneeId ? PASSED : RELEASED;
}

/** The address of a lead's assignee and its body. */
export const assigneeUrl = (id: string) => `/api/leads/${encodeURIComponent(id)}/assignee`;

export function assigneeInput(value: string): { assigneeId: string | null } {
  return { assigneeId: value === "" ? null : value };
}

/** How a manager takes an unassigned lead: a new one by answering it (the
 * status change assigns it to whoever makes it, and counts as the answer);
 * one already answered or closed by assigning it to themselves, so its
 * status stays as it is. */
export function takeRequest(
  lead: Pick<Lead, "id" | "status">,
  me: string | null,
): { url: string; body: { status: "in_progress" } | { assigneeId: string } } {
  if (lead.status === "new" || !me) {
    return {
      url: `/api/leads/${encodeURIComponent(lead.id)}/status`,
      body: { status: "in_progress" },
    };
  }
  return { url: assigneeUrl(lead.id), body: { assigneeId: me } };
}
