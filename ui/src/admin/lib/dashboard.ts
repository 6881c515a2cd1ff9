/** The dashboard's parts by the role: each part's subject needs its
 * capability (docs/admin.md, "Roles"); the server refuses the rest. */
import type { Capability } from "../../api/types";

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
  };
}
