import { describe, expect, it } from "vitest";
import {
  AMOCRM_KEYS,
  AMOCRM_STATE_LABELS,
  amoCrmState,
  amoTestView,
  attemptsText,
  CHANNEL_LABELS,
  codeFromAddress,
  DELIVERY_KIND_LABELS,
  type Delivery,
  deliveriesUrl,
  deliveryView,
  failedChannels,
  inFlight,
  leadHref,
  leadParam,
  redirectUriFor,
  retryUrl,
} from "../../src/admin/lib/notifications";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const base: Delivery = {
  id: 1,
  channel: "email",
  kind: "lead",
  state: "queued",
  attempts: 0,
  createdAt: "2026-11-22T10:05:00Z",
};

describe("deliveries", () => {
  it("names the channels in Russian", () => {
    expect(CHANNEL_LABELS).toEqual({ email: "E-mail", telegram: "Telegram", amocrm: "amoCRM" });
  });

  it("a queued delivery shows its next try, the tries made and the last error", () => {
    const first = deliveryView({ ...base, nextAttemptAt: "2026-11-22T10:05:00Z" });
    expect(first.state).toBe("В очереди");
    expect(first.badge).toBe("orange");
    expect(first.retryable).toBe(false);
    expect(first.lines.map(plain)).toEqual(["Следующая попытка: 22 ноября 2026 г. в 13:05"]);
    const again = deliveryView({
      ...base,
      attempts: 3,
      nextAttemptAt: "2026-11-22T10:06:00Z",
      lastError: "SMTP: connection refused",
    });
    expect(again.lines.map(plain)).toEqual([
      "Следующая попытка: 22 ноября 2026 г. в 13:06",
      "Сделано: 3 попытки",
      "Последняя ошибка: SMTP: connection refused",
    ]);
  });

  it("sent shows when; sending the try under way", () => {
    const sent = deliveryView({
      ...base,
      channel: "telegram",
      state: "sent",
      attempts: 1,
      sentAt: "2026-11-22T21:30:00Z",
    });
    expect(sent.channel).toBe("Telegram");
    expect(sent.state).toBe("Отправлено");
    expect(sent.badge).toBe("green");
    expect(sent.lines.map(plain)).toEqual(["Отправлено 23 ноября 2026 г. в 00:30"]);
    const sending = deliveryView({ ...base, channel: "amocrm", state: "sending", attempts: 2 });
    expect(sending.channel).toBe("amoCRM");
    expect(sending.state).toBe("Отправляется");
    expect(sending.lines).toEqual(["Идёт попытка № 2"]);
  });

  it("failed shows the error and the tries, and may be retried", () => {
    const failed = deliveryView({
      ...base,
      state: "failed",
      attempts: 5,
      lastError: "SMTP: 550 mailbox unavailable",
    });
    expect(failed.state).toBe("Не доставлено");
    expect(failed.badge).toBe("red");
    expect(failed.retryable).toBe(true);
    expect(failed.lines).toEqual([
      "Ошибка: SMTP: 550 mailbox unavailable",
      "Сделано: 5 попыток, больше попыток не будет",
    ]);
    expect(deliveryView({ ...base, state: "failed", attempts: 1 }).lines[0]).toBe(
      "Ошибка: неизвестна",
    );
  });

  it("counts tries in Russian", () => {
    expect([1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map(attemptsText)).toEqual([
      "1 попытка",
      "2 попытки",
      "4 попытки",
      "5 попыток",
      "11 попыток",
      "12 попыток",
      "14 попыток",
      "21 попытка",
      "22 попытки",
      "25 попыток",
      "101 попытка",
      "111 попыток",
    ]);
  });

  it("watches while something is on its way; lists the failed channels", () => {
    const sent = { ...base, state: "sent" } as const;
    const failed = { ...base, channel: "amocrm", state: "failed" } as const;
    expect(inFlight([sent, failed])).toBe(false);
    expect(inFlight([sent, { ...base, state: "sending" }])).toBe(true);
    expect(inFlight([base])).toBe(true);
    expect(inFlight([])).toBe(false);
    expect(failedChannels([sent, failed, { ...failed, channel: "telegram" }])).toEqual([
      "amocrm",
      "telegram",
    ]);
  });

  it("builds the calls' and links' addresses", () => {
    expect(deliveriesUrl("a b")).toBe("/api/admin/leads/a%20b/deliveries");
    expect(retryUrl("l1")).toBe("/api/admin/leads/l1/deliveries/retry");
    expect(retryUrl("l1", "email")).toBe("/api/admin/leads/l1/deliveries/retry?channel=email");
    expect(leadHref("l/1")).toBe("/leads?lead=l%2F1");
    expect(leadParam("?lead=l%2F1")).toBe("l/1");
    expect(leadParam("lead=abc&x=1")).toBe("abc");
    expect(leadParam("?lead=")).toBeNull();
    expect(leadParam("")).toBeNull();
  });
});

describe("amoCRM", () => {
  it("has three states", () => {
    expect(amoCrmState({ configured: false, authorized: false })).toBe("unconfigured");
    expect(amoCrmState({ configured: false, authorized: true })).toBe("unconfigured");
    expect(amoCrmState({ configured: true, authorized: false })).toBe("unauthorized");
    expect(amoCrmState({ configured: true, authorized: true })).toBe("authorized");
    expect(AMOCRM_STATE_LABELS.authorized).toBe("Подключена");
  });

  it("reads the code amoCRM put in the redirect address", () => {
    expect(codeFromAddress("?code=def502&state=ab&referer=salon.amocrm.ru")).toBe("def502");
    expect(codeFromAddress("?state=ab")).toBeNull();
    expect(codeFromAddress("")).toBeNull();
  });

  it("shows a test's answer under one of three titles", () => {
    expect(
      amoTestView({ success: true, message: "Соединение работает: создана тестовая сделка №1001" }),
    ).toEqual({
      ok: true,
      title: "Успешная авторизация",
      detail: "Соединение работает: создана тестовая сделка №1001",
    });
    expect(
      amoTestView({ success: false, message: "Ошибка подключения к серверу: amoCRM: HTTP 503" }),
    ).toEqual({ ok: false, title: "Ошибка подключения к серверу", detail: "amoCRM: HTTP 503" });
    expect(
      amoTestView({
        success: false,
        message: "Ошибка подключения к серверу: amoCRM не авторизован: откройте /admin/amocrm",
      }),
    ).toEqual({
      ok: false,
      title: "Ошибка авторизации",
      detail: "amoCRM не авторизован: откройте /admin/amocrm",
    });
    expect(amoTestView({ success: false, message: "amoCRM: HTTP 401" }).title).toBe(
      "Ошибка авторизации",
    );
  });

  it("lists every [amocrm] key with its environment variable", () => {
    expect(AMOCRM_KEYS.map((k) => k.key)).toEqual([
      "domain",
      "client_id",
      "client_secret",
      "redirect_uri",
    ]);
    for (const k of AMOCRM_KEYS) expect(k.env).toBe(`DEALERSHIP_AMOCRM_${k.key.toUpperCase()}`);
    expect(redirectUriFor("https://salon.ru")).toBe("https://salon.ru/admin/amocrm");
  });
});

describe("kinds of deliveries", () => {
  it("marks a reminder of a lead left new; the lead's own delivery is not named", () => {
    expect(deliveryView(base).kind).toBeNull();
    expect(deliveryView({ ...base, kind: "reminder" }).kind).toBe("Напоминание");
    expect(DELIVERY_KIND_LABELS.reminder).toBe("Напоминание");
  });
});
