import { describe, expect, it } from "vitest";
import { callbackWords, callLength, callSummary } from "../../src/admin/lib/lead-calls";
import type { LeadCall } from "../../src/api/types";
import { callbackAnswer } from "../../src/lib/leads";

const call = (over: Partial<LeadCall>): LeadCall => ({
  provider: "calltouch",
  callId: "1",
  at: "2026-12-02T09:00:00.000Z",
  caller: "+79991234567",
  called: "+78121234567",
  answered: true,
  durationSeconds: 0,
  talkSeconds: 0,
  waitSeconds: 0,
  recordUrl: null,
  source: null,
  pageUrl: null,
  callBackBy: null,
  carId: null,
  ...over,
});

describe("a lead's calls", () => {
  it("tells a length as the leads do", () => {
    expect(callLength(45)).toBe("45 с");
    expect(callLength(120)).toBe("2 мин");
    expect(callLength(200)).toBe("3 мин 20 с");
  });

  it("tells a taken call with its talk and whole length, a missed one with its wait", () => {
    expect(callSummary(call({ talkSeconds: 200, durationSeconds: 220 }))).toBe(
      "Принят, разговор 3 мин 20 с (всего 3 мин 40 с)",
    );
    expect(callSummary(call({ talkSeconds: 45, durationSeconds: 45 }))).toBe(
      "Принят, разговор 45 с",
    );
    expect(callSummary(call({ answered: false, waitSeconds: 25 }))).toBe("Пропущен, ожидание 25 с");
    expect(callSummary(call({ answered: false }))).toBe("Пропущен");
  });

  it("tells a callback's outcome with the PBX's words", () => {
    expect(callbackWords({ callbackState: null, callbackDetail: null })).toBeNull();
    expect(callbackWords({ callbackState: "failed", callbackDetail: "код 3100" })).toBe(
      "АТС не смогла позвонить: код 3100",
    );
    expect(callbackWords({ callbackState: "rung", callbackDetail: null })).toBe(
      "АТС соединила менеджера с клиентом",
    );
  });

  it("tells the visitor when the salon calls back", () => {
    expect(
      callbackAnswer({ callbackState: "out_of_hours", callbackDetail: "завтра в 09:00" })
        .description,
    ).toBe("Салон сейчас закрыт. Мы перезвоним вам завтра в 09:00");
    expect(callbackAnswer({ callbackState: "calling", callbackDetail: null }).description).toBe(
      "Сейчас мы вам перезвоним: ответьте, пожалуйста, на звонок",
    );
    expect(callbackAnswer({ callbackState: "no_pbx", callbackDetail: null }).description).toBe(
      "Менеджер перезвонит вам в ближайшее время",
    );
  });
});
