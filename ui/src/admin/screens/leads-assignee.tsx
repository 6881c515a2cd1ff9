/** Who answers a lead, on its row and in its details: the assignee's line,
 * a manager's "Взять в работу" / "Отказаться от заявки" and an owner's
 * "Передать" (lib/lead-assignees.ts has the rules). */
import { useId } from "react";
import type { StaffUser } from "../../api/types";
import { longDateTime } from "../lib/dates";
import {
  type AssigneeAction,
  assigneeAction,
  assigneeLabel,
  assignOptions,
} from "../lib/lead-assignees";
import type { Lead } from "../lib/leads";

/** What the leads screen hands to rows and details. */
export interface AssigneeControls {
  /** The signed-in role sees every lead (the owner). */
  everyLead: boolean;
  /** The staff may be listed (`users`): the owner's "Передать". */
  canListStaff: boolean;
  /** Who takes leads (undefined while loading or without `users`). */
  staff: StaffUser[] | undefined;
  /** An assignment of this lead is being sent. */
  busy: (lead: Lead) => boolean;
  take: (lead: Lead) => void;
  release: (lead: Lead) => void;
  /** To a user's id, or "" for no one. */
  assign: (lead: Lead, to: string) => void;
}

export function actionOf(lead: Lead, controls: AssigneeControls): AssigneeAction {
  return assigneeAction(lead, controls.everyLead, controls.canListStaff);
}

/** "Ответственный: …" / "Без ответственного". */
export function AssigneeText({ lead, class: className }: { lead: Lead; class?: string }) {
  return (
    <span class={className} data-testid="lead-assignee">
      {assigneeLabel(lead)}
    </span>
  );
}

/** A manager's button: takes an unassigned lead, gives up their own. One
 * element whichever it says, so focus stays on it when the answer turns
 * one into the other. While the request is out it is busy (not disabled:
 * a disabled button would drop the focus). */
export function TakeReleaseButton({
  lead,
  action,
  controls,
  named,
}: {
  lead: Lead;
  action: "take" | "release";
  controls: AssigneeControls;
  /** On a row: the lead's name in the accessible name. */
  named?: boolean;
}) {
  const busy = controls.busy(lead);
  const text = action === "take" ? "Взять в работу" : "Отказаться от заявки";
  return (
    <button
      type="button"
      class={action === "take" ? undefined : "secondary outline"}
      aria-label={named ? `${text}: ${lead.name}` : undefined}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (busy) return;
        if (action === "take") controls.take(lead);
        else controls.release(lead);
      }}
    >
      {text}
    </button>
  );
}

/** The owner's select: the staff who take leads and "Без ответственного";
 * a choice is sent at once, as the status dropdown does. */
export function AssignSelect({ lead, controls }: { lead: Lead; controls: AssigneeControls }) {
  const id = useId();
  const busy = controls.busy(lead);
  const current = lead.assigneeId ?? "";
  return (
    <div class="lead-assign">
      <label for={id}>Передать</label>
      <select
        id={id}
        name="assignee"
        value={current}
        aria-busy={busy || controls.staff === undefined || undefined}
        onChange={(e) => {
          const to = e.currentTarget.value;
          if (to !== current) controls.assign(lead, to);
        }}
      >
        {assignOptions(lead, controls.staff).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The details' block: who answers the lead since when, and what the
 * signed-in user may do about it. */
export function AssigneeBlock({ lead, controls }: { lead: Lead; controls: AssigneeControls }) {
  const action = actionOf(lead, controls);
  return (
    <section class="detail-section lead-assignee-block" aria-label="Ответственный за заявку">
      <p>
        <AssigneeText lead={lead} class="lead-assignee-name" />
        {lead.assigneeId && lead.assignedAt && (
          <span class="muted">
            {" · с "}
            <time dateTime={lead.assignedAt}>{longDateTime(lead.assignedAt)}</time>
          </span>
        )}
      </p>
      {action === "assign" ? (
        <AssignSelect lead={lead} controls={controls} />
      ) : action ? (
        <TakeReleaseButton lead={lead} action={action} controls={controls} />
      ) : null}
    </section>
  );
}
