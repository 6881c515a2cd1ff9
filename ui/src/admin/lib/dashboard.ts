/** The dashboard's parts by the role: each part's subject needs its
 * capability (docs/admin.md, "Roles"); the server refuses the rest. */
import type { components } from "../../api/schema";
import type { Capability } from "../../api/types";

export type SystemStatus = components["schemas"]["SystemStatus"];

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

/** The system card's text: its value ("В порядке" or how many problems)
 * and its notes (each problem, then free space and lost log lines). */
export function systemCard(status: SystemStatus): { value: string; notes: string[] } {
  const notes = [...status.problems];
  if (status.freeDiskMb != null) {
    notes.push(`Свободно на диске: ${status.freeDiskMb.toLocaleString("ru-RU")} МБ`);
  }
  if (status.logLinesLost > 0) {
    notes.push(`Потеряно строк журнала: ${status.logLinesLost.toLocaleString("ru-RU")}`);
  }
  const count = status.problems.length;
  return { value: count === 0 ? "В порядке" : `Проблем: ${count}`, notes };
}
