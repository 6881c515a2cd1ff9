/** Admin leads: four counters, status, type and assignee filters, the list
 * (status dropdown, assignee, details, delete), and below it the e-mail
 * notification settings. An owner sees every lead and passes them to the
 * staff in the details; a manager sees their own and the unassigned ones,
 * takes an unassigned lead and gives up their own.
 * `/admin/leads?lead={id}` opens that lead's details (the link of the e-mail
 * and of the dashboard's failed deliveries). Works on a phone: rows stack,
 * nothing is wider than the screen. */
import { useEffect, useMemo, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { apiDelete, apiPut } from "../../api/client";
import type { components } from "../../api/schema";
import type { StaffUser } from "../../api/types";
import { useAuth, useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage } from "../errors";
import {
  assignedToast,
  assigneeFilterOptions,
  assigneeInput,
  assigneeUrl,
  knownFilter,
  RELEASED,
  seesEveryLead,
  TAKEN,
  takeRequest,
} from "../lib/lead-assignees";
import {
  isLeadStatus,
  isLeadType,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LEAD_TYPE_LABELS,
  LEAD_TYPES,
  type Lead,
  type LeadStatus,
  leadsUrl,
  type StatusFilter,
  type TypeFilter,
} from "../lib/leads";
import { leadParam } from "../lib/notifications";
import { USERS_URL } from "../lib/team";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";
import { FilterSelect } from "../resource/ResourceFilters";
import { toastError } from "../toast";
import type { AssigneeControls } from "./leads-assignee";
import { LeadDetails } from "./leads-details";
import { EmailSettings } from "./leads-email";
import { LeadRow } from "./leads-row";
import "./content.css";

type Dashboard = components["schemas"]["Dashboard"];

const adminLeadUrl = (id: string) => `/api/leads/${encodeURIComponent(id)}`;

/** Leads per page of the list; "Показать ещё" asks for the next ones. */
const PAGE = 50;
/** The largest `limit` GET /api/leads takes (more is 400, docs/api.md). */
const MAX_LIMIT = 1000;

const STATUS_OPTIONS = [
  { value: "all", label: "Все статусы" },
  ...LEAD_STATUSES.map((s) => ({ value: s, label: LEAD_STATUS_LABELS[s] })),
];
const TYPE_OPTIONS = [
  { value: "all", label: "Все типы" },
  ...LEAD_TYPES.map((t) => ({ value: t, label: LEAD_TYPE_LABELS[t] })),
];

export default function LeadsScreen() {
  // Deleting a lead is a personal-data right; the e-mail settings are the
  // owner's (the server refuses both to the other roles).
  const canDelete = useCan("personalData");
  const canSettings = useCan("settings");
  // The owner sees every lead and passes them to the staff (listed with
  // `users`); a manager sees their own and the unassigned ones.
  const everyLead = seesEveryLead(useAuth().role);
  const canListStaff = useCan("users") && everyLead;
  const staff = useAdminQuery<StaffUser[]>(canListStaff ? USERS_URL : null);
  const [status, setStatus] = useState<StatusFilter>("all");
  const [type, setType] = useState<TypeFilter>("all");
  const [chosenAssignee, setAssignee] = useState<string>("all");
  const assigneeOptions = useMemo(
    () => assigneeFilterOptions(everyLead, staff.data),
    [everyLead, staff.data],
  );
  // A staff member no longer offered (blocked meanwhile): back to "all".
  const assignee = knownFilter(chosenAssignee, assigneeOptions);
  const [limit, setLimit] = useState(PAGE);
  const base = leadsUrl(status, type, assignee);
  const url = `${base}${base.includes("?") ? "&" : "?"}limit=${limit}`;
  const leads = useAdminQuery<Lead[]>(url, { placeholderData: (previous) => previous });
  const counts = useAdminQuery<Dashboard>("/api/admin/dashboard");
  const [deleting, setDeleting] = useState<Lead | null>(null);

  // The lead whose details are open: clicked in the list, or named by ?lead=.
  const linked = leadParam(useSearch());
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<string | null>(linked);
  useEffect(() => {
    if (linked) setOpen(linked);
  }, [linked]);
  const close = () => {
    setOpen(null);
    if (linked) navigate("/leads", { replace: true });
  };
  const listed = open ? leads.data?.find((l) => l.id === open) : undefined;
  // Not in the list (another page, another filter): asked for on its own.
  const single = useAdminQuery<Lead>(open && leads.data && !listed ? adminLeadUrl(open) : null, {
    retry: false,
  });
  const shown = listed ?? (single.data?.id === open ? single.data : undefined);
  useEffect(() => {
    if (single.isError && open && !listed) {
      toastError(errorMessage(single.error, "Не удалось открыть заявку"));
      setOpen(null);
      if (linked) navigate("/leads", { replace: true });
    }
  }, [single.isError, single.error, open, listed, linked, navigate]);

  // An answer about one lead goes straight into what is on screen (the list
  // and the lead's own read), so the row and the open details show it before
  // the refetch, and the details stay open when it leaves the filtered list.
  const remember = (answer: Lead) => {
    queryClient.setQueryData<Lead[]>([url], (old) =>
      old?.map((l) => (l.id === answer.id ? answer : l)),
    );
    queryClient.setQueryData<Lead>([adminLeadUrl(answer.id)], answer);
  };

  const setLeadStatus = useAdminMutation(
    ({ lead, to }: { lead: Lead; to: LeadStatus }) =>
      apiPut<Lead>(`/api/leads/${lead.id}/status`, { status: to }),
    { success: "Статус обновлен", failure: "Не удалось обновить статус" },
  );
  // A manager takes an unassigned lead: a new one by answering it, another
  // without changing its status (takeRequest).
  const me = useAuth().id;
  const take = useAdminMutation(
    (lead: Lead) => {
      const { url, body } = takeRequest(lead, me);
      return apiPut<Lead>(url, body);
    },
    { success: TAKEN, failure: "Не удалось взять заявку в работу", onSuccess: remember },
  );
  const assign = useAdminMutation(
    ({ lead, to }: { lead: Lead; to: string }) =>
      apiPut<Lead>(assigneeUrl(lead.id), assigneeInput(to)),
    {
      success: (answer) => assignedToast(answer),
      failure: "Не удалось передать заявку",
      onSuccess: remember,
    },
  );
  const release = useAdminMutation(
    (lead: Lead) => apiPut<Lead>(assigneeUrl(lead.id), assigneeInput("")),
    { success: RELEASED, failure: "Не удалось отказаться от заявки", onSuccess: remember },
  );
  const controls: AssigneeControls = {
    everyLead,
    canListStaff,
    staff: staff.data,
    busy: (lead) =>
      (take.isPending && take.variables?.id === lead.id) ||
      (release.isPending && release.variables?.id === lead.id) ||
      (assign.isPending && assign.variables?.lead.id === lead.id),
    take: (lead) => take.mutate(lead),
    release: (lead) => release.mutate(lead),
    assign: (lead, to) => assign.mutate({ lead, to }),
  };
  const remove = useAdminMutation((lead: Lead) => apiDelete(`/api/leads/${lead.id}`), {
    success: "Лид удален",
    failure: "Не удалось удалить лид",
    onSuccess: (_, lead) => {
      setDeleting(null);
      if (open === lead.id) close();
    },
  });

  const c = counts.data;
  const list = leads.data ?? [];
  /** A filter's change, back to the first page. */
  const refilter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setLimit(PAGE);
  };
  return (
    <AdminPage title="Заявки" count={c ? c.leadsTotal : null}>
      <section class="stat-cards" aria-label="Сводка по заявкам">
        <article data-testid="count-total">
          <span class="stat-value">{c ? c.leadsTotal : "—"}</span>
          <span class="stat-note">Всего</span>
        </article>
        <article data-testid="count-new">
          <span class="stat-value">{c ? c.leadsNew : "—"}</span>
          <span class="stat-note">Новые</span>
        </article>
        <article data-testid="count-in-progress">
          <span class="stat-value">{c ? c.leadsInProgress : "—"}</span>
          <span class="stat-note">В работе</span>
        </article>
        <article data-testid="count-today">
          <span class="stat-value">{c ? c.leadsToday : "—"}</span>
          <span class="stat-note">Сегодня</span>
        </article>
      </section>

      <div class="admin-filters">
        <FilterSelect
          id="leads-status-filter"
          name="status-filter"
          label="Статус"
          value={status}
          options={STATUS_OPTIONS}
          onChange={refilter((v) => setStatus(isLeadStatus(v) ? v : "all"))}
        />
        <FilterSelect
          id="leads-type-filter"
          name="type-filter"
          label="Тип"
          value={type}
          options={TYPE_OPTIONS}
          onChange={refilter((v) => setType(isLeadType(v) ? v : "all"))}
        />
        <FilterSelect
          id="leads-assignee-filter"
          name="assignee-filter"
          testId="assignee-filter"
          label="Ответственный"
          value={assignee}
          options={assigneeOptions}
          onChange={refilter(setAssignee)}
        />
      </div>

      {leads.isPending ? (
        <SkeletonCards count={5} label="Загрузка заявок…" />
      ) : leads.isError && !leads.data ? (
        <ErrorPanel
          error={leads.error}
          title="Не удалось загрузить заявки"
          url={url}
          onRetry={() => void leads.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          Лиды не найдены
        </p>
      ) : (
        <>
          <ul class="lead-list" aria-busy={leads.isFetching || undefined}>
            {list.map((lead) => (
              <LeadRow
                key={lead.id}
                lead={lead}
                busy={setLeadStatus.isPending && setLeadStatus.variables?.lead.id === lead.id}
                onStatus={(to) => setLeadStatus.mutate({ lead, to })}
                onOpen={() => setOpen(lead.id)}
                onDelete={canDelete ? () => setDeleting(lead) : undefined}
                assignee={controls}
              />
            ))}
          </ul>
          {list.length >= limit && limit < MAX_LIMIT && (
            <button
              type="button"
              class="secondary outline"
              aria-busy={leads.isFetching || undefined}
              onClick={() => setLimit((n) => Math.min(n + PAGE, MAX_LIMIT))}
            >
              Показать ещё
            </button>
          )}
        </>
      )}

      {shown && <LeadDetails lead={shown} onClose={close} assignee={controls} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить заявку?"
        message={
          deleting && `Заявка «${deleting.name}» будет удалена без возможности восстановления.`
        }
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />

      {canSettings && <EmailSettings />}
    </AdminPage>
  );
}
