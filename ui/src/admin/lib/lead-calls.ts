/** A lead's calls and its callback's outcome (docs/calls.md): the API's
 * address and the words the lead's details show. */
import type { Lead, LeadCall } from "../../api/types";

export const callsUrl = (lead: string) => `/api/leads/${encodeURIComponent(lead)}/calls`;

/** Who reported a call. */
export const CALL_PROVIDERS: Record<string, string> = {
  avito: "Авито",
  autoru: "Авто.ру",
  calltouch: "Calltouch",
  uis: "UIS",
  mango: "Mango Office",
};

/** A length in the leads' words: «3 мин 20 с», «45 с», «2 мин». */
export function callLength(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m === 0) return `${s} с`;
  return s === 0 ? `${m} мин` : `${m} мин ${s} с`;
}

/** One call's line: «Принят, разговор 3 мин 20 с (всего 3 мин 40 с)» or
 * «Пропущен, ожидание 25 с». */
export function callSummary(call: LeadCall): string {
  if (!call.answered) {
    return call.waitSeconds > 0 ? `Пропущен, ожидание ${callLength(call.waitSeconds)}` : "Пропущен";
  }
  const talk = `Принят, разговор ${callLength(call.talkSeconds)}`;
  return call.durationSeconds > call.talkSeconds
    ? `${talk} (всего ${callLength(call.durationSeconds)})`
    : talk;
}

const CALLBACK_WORDS: Record<NonNullable<Lead["callbackState"]>, string> = {
  calling: "АТС набирает менеджера",
  rung: "АТС соединила менеджера с клиентом",
  failed: "АТС не смогла позвонить",
  out_of_hours: "Заявка пришла в нерабочее время: перезвонить",
  no_pbx: "АТС не подключена: перезвоните вручную",
};

/** The callback's outcome as the lead shows it, or null for other leads. */
export function callbackWords(lead: Pick<Lead, "callbackState" | "callbackDetail">): string | null {
  if (!lead.callbackState) return null;
  const words = CALLBACK_WORDS[lead.callbackState];
  return lead.callbackDetail ? `${words}: ${lead.callbackDetail}` : words;
}
