/** The dashboard's parts by the role: each part's subject needs its
 * capability (docs/admin.md, "Roles"); the server refuses the rest. */
import type { components } from "../../api/schema";
import type { Capability } from "../../api/types";
import { longDateTime } from "./dates";

export type SystemStatus = components["schemas"]["SystemStatus"];
export type ReplicaStatus = components["schemas"]["ReplicaStatus"];

export interface DashboardParts {
  /** Cars, brands and reviews counted. */
  catalogue: boolean;
  /** Leads counted. */
  leads: boolean;
  /** Notifications not delivered, and their list. */
  deliveries: boolean;
  /** The latest import, when it failed. */
  imports: boolean;
  /** The self-checks' badge. */
  checks: boolean;
  /** How fast leads are answered. */
  responseTimes: boolean;
  /** The audit trail's latest entries (who changed what: personal data). */
  changes: boolean;
  /** The open requests of people about their personal data, with their
   * deadlines (docs/personal-data.md). */
  dataRequests: boolean;
  /** The site's health: database writes, free disk, workers, lost log
   * lines (as /healthz reports it). */
  system: boolean;
}

export function dashboardParts(capabilities: readonly Capability[]): DashboardParts {
  const has = (c: Capability) => capabilities.includes(c);
  return {
    catalogue: has("catalogueRead"),
    leads: has("leads"),
    deliveries: has("settings"),
    imports: has("imports"),
    checks: has("figures"),
    responseTimes: has("figures"),
    changes: has("personalData"),
    dataRequests: has("personalData"),
    system: has("settings"),
  };
}

/** "5 мин назад", "2 ч 10 мин назад", "только что". */
export function agoText(value: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - new Date(value).getTime()) / 1000));
  if (seconds < 60) return "только что";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} мин назад`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} ч ${minutes % 60} мин назад`;
  return `${Math.floor(hours / 24)} дн. назад`;
}

/** Replication's lines on the system card (docs/operations.md,
 * "Replication (Litestream)"): where to, the last transaction in the
 * storage and its age, the last snapshot, the pictures waiting. */
export function replicaNotes(replica: ReplicaStatus, now: Date): string[] {
  const notes = [`Резервная копия в хранилище: ${replica.target}`];
  if (replica.bucketError == null) {
    notes.push(
      replica.replicatedAt
        ? `Последняя запись в хранилище: ${longDateTime(replica.replicatedAt)} (${agoText(replica.replicatedAt, now)}), позиция ${replica.replicatedTxid}`
        : "В хранилище ещё нет записей",
    );
    if (replica.snapshotAt) {
      notes.push(`Последний снимок базы: ${longDateTime(replica.snapshotAt)}`);
    }
    if (replica.lagSeconds != null && replica.lagSeconds > 0) {
      notes.push(`Ждут отправки изменения за ${Math.ceil(replica.lagSeconds / 60)} мин`);
    }
  }
  notes.push(
    replica.mediaPending === 0
      ? "Все изображения в хранилище"
      : `Изображений ждут отправки: ${replica.mediaPending.toLocaleString("ru-RU")}`,
  );
  return notes;
}

/** The system card without `[replica]`: no copy leaves the server, and
 * how to make one (docs/operations.md, "Replication (Litestream)"). */
export const NO_REPLICA_NOTES = [
  "Копия вне сервера не делается: база и изображения есть только на этом сервере (и в резервных копиях, которые вы сами переносите)",
  "Включить: dealership setup --litestream download --replica s3://бакет/папка (раздел [replica] настроек сервера; docs/operations.md, «Replication (Litestream)»)",
];

/** The system card's text: its value ("В порядке" or how many problems)
 * and its notes (each problem, the site's and replication's, then free
 * space, lost log lines and replication's state). */
export function systemCard(
  status: SystemStatus,
  now: Date = new Date(),
): { value: string; notes: string[] } {
  const problems = [...status.problems, ...(status.replication?.problems ?? [])];
  const notes = [...problems];
  if (status.freeDiskMb != null) {
    notes.push(`Свободно на диске: ${status.freeDiskMb.toLocaleString("ru-RU")} МБ`);
  }
  if (status.logLinesLost > 0) {
    notes.push(`Потеряно строк журнала: ${status.logLinesLost.toLocaleString("ru-RU")}`);
  }
  if (status.replication) {
    notes.push(...replicaNotes(status.replication, now));
  } else {
    notes.push(...NO_REPLICA_NOTES);
  }
  const count = problems.length;
  return { value: count === 0 ? "В порядке" : `Проблем: ${count}`, notes };
}
