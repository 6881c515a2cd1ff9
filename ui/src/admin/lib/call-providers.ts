/** The call-tracking services and PBXs on the «Звонки» screen
 * (docs/calls.md): the API's addresses, what to put in dealership.toml when
 * one is not set up, and the lines of its last poll and last call. */
import type { Schemas } from "../../api/types";
import { longDateTime } from "./dates";

export type CallProvider = Schemas["CallProvider"];
export type ProviderAnswer = Schemas["ProviderAnswer"];

export const PROVIDERS_URL = "/api/admin/calls/providers";
export const providerCheckUrl = (p: string) =>
  `/api/admin/calls/providers/${encodeURIComponent(p)}/check`;
export const providerPollUrl = (p: string) =>
  `/api/admin/calls/providers/${encodeURIComponent(p)}/poll`;

/** What to put in dealership.toml (docs/calls.md, "Configuration"). */
export const PROVIDER_CONFIG: Record<string, string> = {
  calltouch: `[calltouch]
site_id = "12345"
token_file = "/etc/dealership/calltouch-token"
hook_secret_file = "/etc/dealership/calltouch-hook"
allow_from = ["92.118.66.0/23"]`,
  uis: `[uis]
token_file = "/etc/dealership/uis-token"
hook_secret_file = "/etc/dealership/uis-hook"
virtual_number = "+78121234567"`,
  mango: `[mango]
api_key_file = "/etc/dealership/mango-key"
api_salt_file = "/etc/dealership/mango-salt"
hook_secret_file = "/etc/dealership/mango-hook"
default_extension = "101"`,
};

/** The last poll: «02.12.2026, 10:15 — новых лидов: 1…», or null. */
export function pollLine(run: CallProvider["run"]): string | null {
  if (!run.startedAt) return null;
  const when = longDateTime(run.finishedAt ?? run.startedAt);
  if (run.ok === null || run.ok === undefined) return `${when} — идёт`;
  return run.ok ? `${when} — ${run.message ?? ""}` : `${when} — ошибка: ${run.message ?? ""}`;
}

/** The last call heard: a time, or «звонков ещё не было». */
export function heardLine(run: CallProvider["run"]): string {
  return run.lastHeardAt ? longDateTime(run.lastHeardAt) : "звонков ещё не было";
}
