/** A lead's details: contacts, type and message, who answers it (taking,
 * giving up or passing it), the blocks of its type, the car, the consent
 * record, the source (URL, UTM), the staff's comments, its notifications
 * (each channel's delivery, with a retry) and its status history from the
 * audit trail. */
import { ApiError } from "../../api/client";
import type { BodyTypeInfo } from "../../api/types";
import { type AuditPage, BODY_TYPES_URL } from "../api";
import { useCan } from "../auth";
import { Modal } from "../components/Modal";
import { longDateTime } from "../lib/dates";
import {
  LEAD_STATUS_BADGES,
  LEAD_STATUS_LABELS,
  LEAD_TYPE_LABELS,
  type Lead,
  leadAuditUrl,
  leadDetails,
  statusHistory,
} from "../lib/leads";
import { formatPhone, PHONE_ERASED } from "../lib/personalData";
import { useAdminQuery } from "../query";
import { AssigneeBlock, type AssigneeControls } from "./leads-assignee";
import { LeadCalls } from "./leads-calls";
import { LeadComments } from "./leads-comments";
import { LeadDeliveries } from "./leads-deliveries";
import { LeadSalonDetail } from "./leads-salon";

interface Props {
  lead: Lead;
  onClose: () => void;
  /** Who answers it and what the signed-in user may do about it. */
  assignee: AssigneeControls;
}

export function LeadDetails({ lead, onClose, assignee }: Props) {
  // The status history is read from the audit trail: personal data.
  const canAudit = useCan("personalData");
  // The wishes of a selection name body types by the dealership's table.
  const bodyTypes = useAdminQuery<BodyTypeInfo[]>(lead.bodyType ? BODY_TYPES_URL : null, {
    refetchOnWindowFocus: false,
  });
  const sections = leadDetails(lead, bodyTypes.data);
  return (
    <Modal
      open
      title={`Заявка: ${lead.name}`}
      class="lead-details"
      backdropCloses
      onRequestClose={onClose}
      testId="lead-details"
    >
      <dl class="detail-list">
        <dt>Имя</dt>
        <dd>{lead.name}</dd>
        <dt>Телефон</dt>
        <dd>
          {lead.phone ? (
            <a href={`tel:${lead.phone}`}>{formatPhone(lead.phone)}</a>
          ) : (
            <span class="muted">{PHONE_ERASED}</span>
          )}
        </dd>
        {lead.email && (
          <>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${lead.email}`}>{lead.email}</a>
            </dd>
          </>
        )}
        <dt>Тип</dt>
        <dd>{LEAD_TYPE_LABELS[lead.type]}</dd>
        <LeadSalonDetail salonId={lead.salonId} />
        <dt>Статус</dt>
        <dd>
          <span class={`badge badge-${LEAD_STATUS_BADGES[lead.status]}`}>
            {LEAD_STATUS_LABELS[lead.status]}
          </span>
        </dd>
        {lead.message && (
          <>
            <dt>Сообщение</dt>
            <dd class="pre-line">{lead.message}</dd>
          </>
        )}
        <dt>Создана</dt>
        <dd>{longDateTime(lead.createdAt)}</dd>
        <dt>Обновлена</dt>
        <dd>{longDateTime(lead.updatedAt)}</dd>
        {lead.amocrmLeadId != null && (
          <>
            <dt>Сделка в amoCRM</dt>
            <dd data-testid="lead-amocrm-id">№ {lead.amocrmLeadId}</dd>
          </>
        )}
      </dl>
      <AssigneeBlock lead={lead} controls={assignee} />
      {sections.map((s) => (
        <section key={s.key} class="detail-section" data-testid={`lead-${s.key}`}>
          <h3>{s.title}</h3>
          <dl class="detail-list">
            {s.rows.map((r) => (
              <div key={r.label} class="detail-row">
                <dt>{r.label}</dt>
                <dd>
                  {r.href ? (
                    <a href={r.href} target="_blank" rel="noopener noreferrer">
                      {r.value}
                    </a>
                  ) : (
                    r.value
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <LeadCalls lead={lead} />
      <LeadComments lead={lead.id} />
      <LeadDeliveries lead={lead.id} />
      {canAudit && <StatusHistory id={lead.id} updatedAt={lead.updatedAt} />}
      <footer class="dialog-actions">
        <button type="button" class="secondary outline" onClick={onClose}>
          Закрыть
        </button>
      </footer>
    </Modal>
  );
}

/** Who changed the status and when (newest first). */
function StatusHistory({ id, updatedAt }: { id: string; updatedAt: string }) {
  // The lead's updatedAt in the key: a status change reloads the history.
  const url = `${leadAuditUrl(id)}&v=${encodeURIComponent(updatedAt)}`;
  const history = useAdminQuery<AuditPage>(url, { retry: false });
  const items = history.data ? statusHistory(history.data.items) : [];
  return (
    <section
      class="detail-section"
      data-testid="lead-history"
      aria-busy={history.isPending || undefined}
    >
      <h3>История статусов</h3>
      {history.isPending ? (
        <p class="muted">Загрузка…</p>
      ) : history.isError ? (
        <p class="muted">
          {history.error instanceof ApiError && history.error.status === 404
            ? "История изменений недоступна"
            : "Не удалось загрузить историю"}
        </p>
      ) : items.length === 0 ? (
        <p class="muted">Статус не менялся</p>
      ) : (
        <ol class="audit-list">
          {items.map((h) => (
            <li key={h.id}>
              <time dateTime={h.at}>{longDateTime(h.at)}</time>
              {h.username && <span class="muted"> · {h.username}</span>}
              <br />
              {h.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
