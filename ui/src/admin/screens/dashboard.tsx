import { useState } from "react";
import { Link } from "wouter";
import type { components } from "../../api/schema";
import type { BodyTypeInfo } from "../../api/types";
import { type AuditPage, auditUrl, BODY_TYPES_URL, DASHBOARD_URL } from "../api";
import { useAuth } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { useSalons } from "../components/useSalons";
import { changeLine, listedChanges } from "../lib/audit";
import { problemsText } from "../lib/checks";
import { dashboardParts, type SystemStatus, systemCard } from "../lib/dashboard";
import { longDateTime } from "../lib/dates";
import {
  CHANNEL_LABELS,
  FAILED_DELIVERIES_URL,
  type FailedDeliveries as Failed,
  leadHref,
} from "../lib/notifications";
import { type ImportFailed, importReportHref } from "../lib/parser";
import {
  type DataRequest,
  dayText,
  dueLabel,
  kindLabel,
  maskedSubject,
  moscowToday,
  openRequests,
  PERSONAL_DATA_SCREEN,
  REQUESTS_URL,
} from "../lib/personalData";
import { withSalon } from "../lib/salons";
import { allowedScreens, DASHBOARD, linkAllowed, screenAt } from "../navigation";
import { useAdminQuery } from "../query";
import { QuietCard, RefusedCard } from "./dashboard-marketplaces";
import { ResponseTimesSection } from "./dashboard-response";
import "./content.css";

/** The summary; `importFailed` is the latest import run when it failed,
 * `checksCount` the problems the self-checks found. */
type Dashboard = components["schemas"]["Dashboard"] & { importFailed?: ImportFailed | null };

/** Summary cards (with the self-checks' badge), the notifications that
 * could not be delivered, how fast leads are answered, links to every
 * section and the latest admin changes: each only when the role may see
 * its subject (dashboardParts). */
export default function DashboardScreen() {
  const { capabilities } = useAuth();
  const show = dashboardParts(capabilities);
  const salons = useSalons();
  // One salon's cars, leads and response times, or every salon's.
  const [salon, setSalon] = useState("");
  const summary = useAdminQuery<Dashboard>(withSalon(DASHBOARD_URL, salon));
  const d = summary.data;
  return (
    <AdminPage
      title="Панель администратора"
      actions={d && show.checks ? <ChecksBadge count={d.checksCount} /> : null}
    >
      {salons.several && (
        <label class="dashboard-salon">
          Салон
          <select
            value={salon}
            onChange={(e) => setSalon(e.currentTarget.value)}
            data-testid="dashboard-salon"
          >
            <option value="">Все салоны</option>
            {(salons.list ?? []).map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {summary.isError ? (
        <ErrorPanel error={summary.error} onRetry={() => void summary.refetch()} />
      ) : !d ? (
        <SkeletonCards count={4} />
      ) : (
        <section class="stat-cards" aria-label="Сводка" data-testid="summary">
          {show.catalogue && (
            <>
              <Card
                href="/cars"
                title="Автомобили"
                value={d.carsPublished + d.carsDrafts}
                note={`Опубликовано: ${d.carsPublished}, черновиков: ${d.carsDrafts}`}
              />
              <Card href="/brands" title="Марки" value={d.brands} />
              <Card
                href="/reviews"
                title="Отзывы"
                value={d.reviewsApproved + d.reviewsPending}
                note={`Одобрено: ${d.reviewsApproved}, на модерации: ${d.reviewsPending}`}
              />
            </>
          )}
          {show.leads && (
            <Card
              href="/leads"
              title="Заявки"
              value={d.leadsTotal}
              note={`Новых: ${d.leadsNew}, в работе: ${d.leadsInProgress}`}
            />
          )}
          {show.deliveries && <FailedCard failed={d.deliveriesFailed} />}
          {show.imports && d.importFailed && <ImportFailedCard failed={d.importFailed} />}
          {show.system && <SystemCard status={d.system} />}
        </section>
      )}
      {show.catalogue && <RefusedCard />}
      {show.catalogue && <QuietCard />}
      {show.dataRequests && <OpenDataRequests />}
      {show.deliveries && d && d.deliveriesFailed > 0 && <FailedDeliveries />}
      {show.responseTimes && <ResponseTimesSection salon={salon} />}
      <section aria-labelledby="sections-title">
        <h2 id="sections-title">Разделы</h2>
        <ul class="admin-grid" data-testid="sections">
          {allowedScreens(capabilities)
            .filter((s) => s.path !== DASHBOARD)
            .map((s) => (
              <li key={s.path}>
                <Link href={s.path} class="admin-card section-link">
                  {s.label}
                </Link>
              </li>
            ))}
        </ul>
      </section>
      {show.changes && <LatestChanges />}
    </AdminPage>
  );
}

/** Notifications given up: how many, a link to their list. */
function FailedCard({ failed }: { failed: number }) {
  return (
    <article data-testid="failed-card">
      <h2 class="stat-title">
        {failed > 0 ? <a href="#failed-deliveries-title">Уведомления</a> : "Уведомления"}
      </h2>
      <span class="stat-value">{failed}</span>
      <span class="stat-note">
        {failed > 0 ? "не доставлено: повторите отправку в заявке" : "Все доставлены"}
      </span>
    </article>
  );
}

function Card({
  href,
  title,
  value,
  note,
}: {
  href: string;
  title: string;
  value: number;
  note?: string;
}) {
  // Only screens that exist and the role may open are linked.
  const { capabilities } = useAuth();
  const linked = screenAt(href) !== undefined && linkAllowed(href, capabilities);
  return (
    <article>
      <h2 class="stat-title">{linked ? <Link href={href}>{title}</Link> : title}</h2>
      <span class="stat-value">{value}</span>
      {note && <span class="stat-note">{note}</span>}
    </article>
  );
}

/** The self-checks' badge beside the title: how many problems, a link to
 * the list. */
function ChecksBadge({ count }: { count: number }) {
  return (
    <Link
      href="/checks"
      class={`checks-badge${count > 0 ? " has-problems" : ""}`}
      data-testid="checks-badge"
      data-count={count}
    >
      Проверка сайта:{" "}
      {count > 0 ? (
        <>
          <span class="nav-count" aria-hidden="true">
            {count}
          </span>
          <span class="visually-hidden">{problemsText(count)}</span>
        </>
      ) : (
        "проблем нет"
      )}
    </Link>
  );
}

/** The site's health: "В порядке" or each problem (the database refuses
 * writes, little free disk, a worker down, replication failing), free
 * space, lost log lines, replication's state. */
function SystemCard({ status }: { status: SystemStatus }) {
  const card = systemCard(status);
  const failing = card.value !== "В порядке";
  return (
    <article data-testid="system-card" class={failing ? "system-card has-problems" : "system-card"}>
      <h2 class="stat-title">Состояние системы</h2>
      <span class="stat-value">{card.value}</span>
      {card.notes.map((note) => (
        <span class="stat-note" key={note}>
          {note}
        </span>
      ))}
    </article>
  );
}

/** The latest import run failed: when, why, and a link to its report. */
function ImportFailedCard({ failed }: { failed: ImportFailed }) {
  return (
    <article data-testid="import-failed-card" class="import-failed-card">
      <h2 class="stat-title">
        <Link href={importReportHref(failed.id)}>Импорт не выполнен</Link>
      </h2>
      <span class="stat-note">
        <time dateTime={failed.createdAt}>{longDateTime(failed.createdAt)}</time>
        {failed.error && `: ${failed.error}`}
      </span>
      <span class="stat-note">
        <Link href="/parser">Открыть парсер</Link>
      </span>
    </article>
  );
}

/** The open requests of people about their personal data, each with its
 * deadline (overdue said in words, not only in colour); nothing while none
 * is open. */
function OpenDataRequests() {
  const requests = useAdminQuery<DataRequest[]>(REQUESTS_URL);
  const open = openRequests(requests.data ?? []);
  if (open.length === 0) return null;
  const today = moscowToday();
  return (
    <section aria-labelledby="data-requests-title" data-testid="data-requests-card">
      <h2 id="data-requests-title">
        <Link href={PERSONAL_DATA_SCREEN}>Запросы по персональным данным</Link>
        <span class="admin-count"> ({open.length})</span>
      </h2>
      <ul class="failed-list">
        {open.map((r) => {
          const due = dueLabel(r, today);
          const late = r.overdue || (due?.startsWith("просрочен") ?? false);
          return (
            <li key={r.id} data-testid="open-data-request">
              {late && (
                <>
                  <span class="badge badge-red">Просрочен</span>{" "}
                </>
              )}
              <strong>{kindLabel(r.kind)}</strong>
              {" · "}
              {maskedSubject(r)}
              {" · "}
              ответить до {dayText(r.dueOn)}
              {due && ` (${due})`}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The latest deliveries given up, each linked to its lead's details. */
function FailedDeliveries() {
  const failed = useAdminQuery<Failed>(FAILED_DELIVERIES_URL);
  return (
    <section aria-labelledby="failed-deliveries-title" data-testid="failed-deliveries">
      <h2 id="failed-deliveries-title" tabIndex={-1}>
        Недоставленные уведомления
      </h2>
      {failed.isError ? (
        <ErrorPanel
          error={failed.error}
          title="Не удалось загрузить недоставленные уведомления"
          onRetry={() => void failed.refetch()}
        />
      ) : !failed.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <>
          <ul class="failed-list">
            {failed.data.items.map((f) => (
              <li key={f.id} data-testid="failed-delivery">
                <strong>{CHANNEL_LABELS[f.channel] ?? f.channel}</strong>
                {" · "}
                {f.leadId ? (
                  <Link href={leadHref(f.leadId)}>
                    {f.leadName ? `${f.leadName}, ${f.leadPhone}` : "Заявка"}
                  </Link>
                ) : (
                  <span class="muted">заявка удалена</span>
                )}
                {" · "}
                <time dateTime={f.createdAt}>{longDateTime(f.createdAt)}</time>
                {f.lastError && (
                  <>
                    <br />
                    <span class="muted">{f.lastError}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
          {failed.data.count > failed.data.items.length && (
            <p class="muted">
              Показаны последние {failed.data.items.length} из {failed.data.count}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** The latest entries of the audit trail: the changed fields and values by
 * their names in the panel, the time in Moscow time. */
function LatestChanges() {
  const audit = useAdminQuery<AuditPage>(auditUrl(10));
  // A car's body type is named by the dealership's own table.
  const withBodyType = audit.data?.items.some((e) => e.changes.some((c) => c.field === "bodyType"));
  const bodyTypes = useAdminQuery<BodyTypeInfo[]>(withBodyType ? BODY_TYPES_URL : null, {
    refetchOnWindowFocus: false,
  });
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Последние изменения</h2>
      {audit.isError ? (
        <ErrorPanel
          error={audit.error}
          title="Не удалось загрузить журнал изменений"
          onRetry={() => void audit.refetch()}
        />
      ) : !audit.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : audit.data.items.length === 0 ? (
        <p class="empty-state">Изменений пока нет</p>
      ) : (
        <ul class="audit-list" data-testid="audit">
          {audit.data.items.map((e) => (
            <li key={e.id}>
              {e.summary}
              {listedChanges(e).length > 0 && (
                <ul>
                  {listedChanges(e).map((c) => (
                    <li key={c.field}>{changeLine(e.objectType, c, bodyTypes.data)}</li>
                  ))}
                </ul>
              )}
              <span class="audit-meta">
                <time dateTime={e.at}>{longDateTime(e.at)}</time> · {e.username}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
