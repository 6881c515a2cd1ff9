/** Lead notifications in the admin panel: each channel's delivery of a lead,
 * the failed deliveries, the test e-mail and the amoCRM integration
 * (docs/notifications.md). */
import type { components } from "../../api/schema";
import { longDateTime } from "./dates";

export type Channel = components["schemas"]["Channel"];
export type Delivery = components["schemas"]["Delivery"];
export type DeliveryState = components["schemas"]["DeliveryState"];
/** What a delivery carries: the lead itself, a reminder of it, a visitor's mail. */
export type DeliveryKind = components["schemas"]["Kind"];
export type FailedDelivery = components["schemas"]["FailedDelivery"];
export type FailedDeliveries = components["schemas"]["FailedDeliveries"];
export type TestResult = components["schemas"]["TestResult"];
export type AmoCrmStatus = components["schemas"]["AmoCrmStatus"];
export type AuthUrl = components["schemas"]["AuthUrl"];
export type CallbackResult = components["schemas"]["CallbackResult"];

export const FAILED_DELIVERIES_URL = "/api/admin/deliveries/failed";
export const TEST_EMAIL_URL = "/api/admin/settings/test-email";
export const AMOCRM_STATUS_URL = "/api/admin/amocrm/status";
export const AMOCRM_AUTH_URL_URL = "/api/admin/amocrm/auth-url";
export const AMOCRM_CALLBACK_URL = "/api/admin/amocrm/callback";
export const AMOCRM_TEST_URL = "/api/admin/amocrm/test";

export const deliveriesUrl = (lead: string) =>
  `/api/admin/leads/${encodeURIComponent(lead)}/deliveries`;

/** Queues the lead's failed deliveries again: one channel's, or all. */
export function retryUrl(lead: string, channel?: Channel): string {
  const base = `${deliveriesUrl(lead)}/retry`;
  return channel ? `${base}?channel=${channel}` : base;
}

/** The leads screen with the lead's details open (inside the admin panel's
 * routes: `/admin` is added by the router). The same address the e-mail
 * links to, `/admin/leads?lead={id}`. */
export const leadHref = (lead: string) => `/leads?lead=${encodeURIComponent(lead)}`;

/** The lead asked for by `?lead=` in a location's search part. */
export function leadParam(search: string): string | null {
  const id = new URLSearchParams(search).get("lead")?.trim();
  return id ? id : null;
}

export const CHANNEL_LABELS: Record<Channel, string> = {
  email: "E-mail",
  telegram: "Telegram",
  amocrm: "amoCRM",
};

/** The kind of a delivery beside its channel; the lead's own is not named. */
export const DELIVERY_KIND_LABELS: Record<DeliveryKind, string | null> = {
  lead: null,
  reminder: "Напоминание",
  search_confirm: "Подтверждение подписки",
  search_alert: "Письмо о подборке",
  assigned: "Письмо ответственному",
};

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: "В очереди",
  sending: "Отправляется",
  sent: "Отправлено",
  failed: "Не доставлено",
};

/** The colour of a state's badge (`badge-{kind}` in content.css). */
export const DELIVERY_STATE_BADGES: Record<DeliveryState, string> = {
  queued: "orange",
  sending: "blue",
  sent: "green",
  failed: "red",
};

/** "1 попытка", "3 попытки", "5 попыток". */
export function attemptsText(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word =
    tens >= 11 && tens <= 14
      ? "попыток"
      : ones === 1
        ? "попытка"
        : ones >= 2 && ones <= 4
          ? "попытки"
          : "попыток";
  return `${n} ${word}`;
}

/** What the lead's details say of one delivery: its state and the lines
 * under it (when it went, when it is tried next, what went wrong). */
export interface DeliveryView {
  channel: string;
  /** "Напоминание" for a reminder of the lead; null for the lead itself. */
  kind: string | null;
  state: string;
  badge: string;
  lines: string[];
  /** Failed: the admin may queue it again. */
  retryable: boolean;
}

export function deliveryView(d: Delivery): DeliveryView {
  const lines: string[] = [];
  switch (d.state) {
    case "sent":
      lines.push(d.sentAt ? `Отправлено ${longDateTime(d.sentAt)}` : "Отправлено");
      break;
    case "queued":
      if (d.nextAttemptAt) lines.push(`Следующая попытка: ${longDateTime(d.nextAttemptAt)}`);
      if (d.attempts > 0) lines.push(`Сделано: ${attemptsText(d.attempts)}`);
      if (d.lastError) lines.push(`Последняя ошибка: ${d.lastError}`);
      break;
    case "sending":
      lines.push(`Идёт попытка № ${Math.max(1, d.attempts)}`);
      if (d.lastError) lines.push(`Последняя ошибка: ${d.lastError}`);
      break;
    case "failed":
      lines.push(`Ошибка: ${d.lastError || "неизвестна"}`);
      lines.push(`Сделано: ${attemptsText(d.attempts)}, больше попыток не будет`);
      break;
  }
  return {
    channel: CHANNEL_LABELS[d.channel] ?? d.channel,
    kind: DELIVERY_KIND_LABELS[d.kind] ?? null,
    state: DELIVERY_STATE_LABELS[d.state] ?? d.state,
    badge: DELIVERY_STATE_BADGES[d.state] ?? "gray",
    lines,
    retryable: d.state === "failed",
  };
}

/** Whether something is still on its way (the details then look again). */
export function inFlight(deliveries: readonly Delivery[]): boolean {
  return deliveries.some((d) => d.state === "queued" || d.state === "sending");
}

/** The channels whose delivery failed. */
export function failedChannels(deliveries: readonly Delivery[]): Channel[] {
  return deliveries.filter((d) => d.state === "failed").map((d) => d.channel);
}

export type AmoCrmState = "unconfigured" | "unauthorized" | "authorized";

export function amoCrmState(status: Pick<AmoCrmStatus, "configured" | "authorized">): AmoCrmState {
  if (!status.configured) return "unconfigured";
  return status.authorized ? "authorized" : "unauthorized";
}

export const AMOCRM_STATE_LABELS: Record<AmoCrmState, string> = {
  unconfigured: "Не настроена",
  unauthorized: "Не авторизована",
  authorized: "Подключена",
};

export const AMOCRM_STATE_BADGES: Record<AmoCrmState, string> = {
  unconfigured: "gray",
  unauthorized: "orange",
  authorized: "green",
};

/** The code amoCRM put in its redirect address (`?code=…`), when a pasted
 * text or this page's own address holds one. */
export function codeFromAddress(search: string): string | null {
  const code = new URLSearchParams(search).get("code")?.trim();
  return code ? code : null;
}

/** The `[amocrm]` keys of dealership.toml, with their environment
 * variables, as the setup steps list them. */
export const AMOCRM_KEYS: { key: string; env: string; what: string }[] = [
  {
    key: "domain",
    env: "DEALERSHIP_AMOCRM_DOMAIN",
    what: "домен аккаунта, например mysalon.amocrm.ru",
  },
  { key: "client_id", env: "DEALERSHIP_AMOCRM_CLIENT_ID", what: "ID интеграции" },
  {
    key: "client_secret",
    env: "DEALERSHIP_AMOCRM_CLIENT_SECRET",
    what: "секретный ключ интеграции",
  },
  { key: "redirect_uri", env: "DEALERSHIP_AMOCRM_REDIRECT_URI", what: "адрес перенаправления" },
];

/** The redirect URI to give the integration: this screen, so amoCRM sends
 * the admin back here with the code. */
export const redirectUriFor = (origin: string) => `${origin}/admin/amocrm`;

const CONNECTION_FAILED = "Ошибка подключения к серверу";
const AUTH_FAILED = "Ошибка авторизации";
export const AUTH_OK = "Успешная авторизация";

/** A test's answer as the screen shows it: 'Успешная авторизация', or
 * 'Ошибка авторизации' (amoCRM refused the tokens) or 'Ошибка подключения к
 * серверу' (anything else), with the server's own words after it. */
export function amoTestView(result: Pick<TestResult, "success" | "message">): {
  ok: boolean;
  title: string;
  detail: string;
} {
  if (result.success) return { ok: true, title: AUTH_OK, detail: result.message };
  let detail = result.message.trim();
  for (const prefix of [CONNECTION_FAILED, AUTH_FAILED]) {
    if (detail.startsWith(prefix)) detail = detail.slice(prefix.length).replace(/^[:\s]+/, "");
  }
  const auth = /не авторизован|HTTP 401|401 Unauthorized|invalid_grant/i.test(detail);
  return { ok: false, title: auth ? AUTH_FAILED : CONNECTION_FAILED, detail };
}
