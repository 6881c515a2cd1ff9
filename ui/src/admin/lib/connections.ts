/** The marketplaces' connections (docs/marketplaces.md, "Jobs and checks"):
 * the calls' URLs, what to put in dealership.toml for a marketplace not yet
 * configured, and each job's name and last run in words. */
import type { components } from "../../api/schema";
import { longDateTime } from "./dates";

export type MarketConnection = components["schemas"]["MarketConnection"];
export type MarketRun = components["schemas"]["Run"];
export type CheckAnswer = components["schemas"]["CheckAnswer"];
export type SyncStarted = components["schemas"]["SyncStarted"];
export type MarketChannel = MarketConnection["channel"];

export const CONNECTIONS_URL = "/api/admin/marketplaces/connections";
export const checkUrl = (channel: MarketChannel) => `/api/admin/marketplaces/${channel}/check`;
export const syncUrl = (channel: MarketChannel) => `/api/admin/marketplaces/${channel}/sync`;

export const MARKET_NAMES: Record<MarketChannel, string> = {
  site: "Сайт",
  avito: "Авито",
  autoru: "Авто.ру",
};

/** The section of dealership.toml a marketplace needs, as text. */
export const CONFIG_TEXT: Record<MarketChannel, string> = {
  site: "",
  avito: [
    "[avito]",
    'api_url = "https://api.avito.ru"',
    'client_id = "…"',
    'client_secret_file = "/etc/dealership/avito-client-secret"  # chmod 600',
    'user_id = ""',
  ].join("\n"),
  autoru: [
    "[autoru]",
    'api_url = "https://apiauto.ru/1.0"',
    'api_key_file = "/etc/dealership/autoru-token"                # chmod 600',
    'login = "dealer@salon.example"',
    'password_file = "/etc/dealership/autoru-password"            # chmod 600',
    'dealer_id = ""',
  ].join("\n"),
};

export const JOB_NAMES: Record<MarketRun["job"], string> = {
  check: "Проверка подключения",
  report: "Отчёт об объявлениях",
  stats: "Просмотры и контакты",
  calls: "Звонки",
};

/** A run's line: «12.05.2026, 10:15 — ошибка: …». */
export function runLine(run: MarketRun): string {
  const when = longDateTime(run.finishedAt ?? run.startedAt);
  if (run.ok === null || run.ok === undefined) return `${when} — идёт`;
  const words = run.message ?? "";
  return run.ok ? `${when} — ${words}` : `${when} — ошибка: ${words}`;
}
