/** One lead of the leads screen's list: name, status and type, phone and
 * date, who has it, the car or test drive, the message's start; the status
 * dropdown, "Подробнее", take / give up and delete. */

import { shortDateTime } from "../lib/dates";
import {
  carLine,
  isLeadStatus,
  LEAD_STATUS_BADGES,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LEAD_TYPE_BADGES,
  LEAD_TYPE_LABELS,
  type Lead,
  type LeadStatus,
  testDriveLine,
} from "../lib/leads";
import { formatPhone, PHONE_ERASED } from "../lib/personalData";
import { truncate } from "../lib/text";
import { type AssigneeControls, AssigneeText, actionOf, TakeReleaseButton } from "./leads-assignee";
import { LeadSalonLine } from "./leads-salon";

interface RowProps {
  lead: Lead;
  busy: boolean;
  onStatus: (to: LeadStatus) => void;
  onOpen: () => void;
  /** Absent for a role that may not delete leads. */
  onDelete?: () => void;
  assignee: AssigneeControls;
}

export function LeadRow({ lead, busy, onStatus, onOpen, onDelete, assignee }: RowProps) {
  // The owner passes a lead to someone in its details; a manager takes or
  // gives it up right here.
  const action = actionOf(lead, assignee);
  const car = carLine(lead);
  const testDrive = testDriveLine(lead);
  const message = truncate(lead.message, 140);
  return (
    <li>
      <article class="lead-row admin-card" data-testid="lead-row" data-id={lead.id}>
        <div class="lead-row-head">
          <h2 class="admin-card-title">{lead.name}</h2>
          <span class={`badge badge-${LEAD_STATUS_BADGES[lead.status]}`} data-testid="lead-status">
            {LEAD_STATUS_LABELS[lead.status]}
          </span>
          <span class={`badge badge-${LEAD_TYPE_BADGES[lead.type]}`}>
            {LEAD_TYPE_LABELS[lead.type]}
          </span>
        </div>
        <p class="lead-row-meta">
          {lead.phone ? (
            <a
              class="lead-call"
              href={`tel:${lead.phone}`}
              aria-label={`Позвонить: ${formatPhone(lead.phone)}`}
            >
              {formatPhone(lead.phone)}
            </a>
          ) : (
            <span class="muted">{PHONE_ERASED}</span>
          )}
          <span class="muted">
            <time dateTime={lead.createdAt}>{shortDateTime(lead.createdAt)}</time>
          </span>
        </p>
        <LeadSalonLine salonId={lead.salonId} />
        <p class="lead-row-assignee">
          <AssigneeText lead={lead} />
        </p>
        {testDrive && (
          <p class="lead-row-car" data-testid="lead-test-drive">
            {testDrive}
          </p>
        )}
        {car && <p class="lead-row-car">{car}</p>}
        {message && <p class="lead-row-message muted">{message}</p>}
        <div class="lead-row-actions">
          <label class="lead-status-select">
            <span class="visually-hidden">{`Статус заявки: ${lead.name}`}</span>
            <select
              value={lead.status}
              aria-busy={busy || undefined}
              disabled={busy}
              onChange={(e) => {
                const v = e.currentTarget.value;
                if (isLeadStatus(v) && v !== lead.status) onStatus(v);
              }}
            >
              {LEAD_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {LEAD_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="secondary outline"
            aria-label={`Подробнее о заявке: ${lead.name}`}
            onClick={onOpen}
          >
            Подробнее
          </button>
          {(action === "take" || action === "release") && (
            <TakeReleaseButton lead={lead} action={action} controls={assignee} named />
          )}
          {onDelete && (
            <button
              type="button"
              class="danger outline"
              aria-label={`Удалить заявку: ${lead.name}`}
              onClick={onDelete}
            >
              Удалить
            </button>
          )}
        </div>
      </article>
    </li>
  );
}
