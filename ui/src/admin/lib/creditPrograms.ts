/** The credit programmes screen's pure logic: the form's values, rules and
 * payload, the list grouped by bank and each programme's state
 * (docs/credit.md). */
import type { components } from "../../api/schema";
import { percentRange } from "../../lib/credit";
import { TIME_ZONE } from "../../lib/format";
import { filled } from "./rules";

/** A programme as the admin list gives it. */
export type AdminCreditProgram = components["schemas"]["CreditProgram"];

/** What the server takes to create or change a programme. */
export type CreditProgramInput = components["schemas"]["CreditProgramInput"];

/** What the inputs hold (text where people type numbers). */
export interface ProgramValues {
  bankId: string;
  name: string;
  rateMin: string;
  rateMax: string;
  pskMin: string;
  pskMax: string;
  termMinMonths: string;
  termMaxMonths: string;
  minDownPaymentPercent: string;
  validFrom: string;
  validTo: string;
  conditions: string;
  active: boolean;
}

/** The server's messages, field by field (docs/credit.md). */
export const PROGRAM_MESSAGES = {
  bankId: "Выберите банк",
  name: "Название программы обязательно",
  rate: "Ставка должна быть больше 0 и меньше 100%",
  psk: "ПСК должна быть больше 0 и меньше 100%",
  rateOrder: "Максимальная ставка не может быть меньше минимальной",
  pskOrder: "Максимальная ПСК не может быть меньше минимальной",
  pskBelowRate: "ПСК не может быть меньше минимальной ставки",
  term: "Срок кредита: от 1 до 360 месяцев",
  termOrder: "Максимальный срок не может быть меньше минимального",
  down: "Первоначальный взнос: от 0 до 90%",
  date: "Укажите дату начала действия программы",
  dateOrder: "Дата окончания не может быть раньше даты начала",
} as const;

/** Moscow's calendar day, "YYYY-MM-DD". */
export function moscowToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: TIME_ZONE,
  }).format(now);
}

const fmt = (n: number) => String(n).replace(".", ",");

/** A new programme's empty form (from today, open-ended, shown); an
 * existing one's values. */
export function programValues(p: AdminCreditProgram | null, now?: Date): ProgramValues {
  if (!p) {
    return {
      bankId: "",
      name: "",
      rateMin: "",
      rateMax: "",
      pskMin: "",
      pskMax: "",
      termMinMonths: "12",
      termMaxMonths: "84",
      minDownPaymentPercent: "0",
      validFrom: moscowToday(now),
      validTo: "",
      conditions: "",
      active: true,
    };
  }
  return {
    bankId: p.bankId,
    name: p.name,
    rateMin: fmt(p.rateMin),
    rateMax: fmt(p.rateMax),
    pskMin: fmt(p.pskMin),
    pskMax: fmt(p.pskMax),
    termMinMonths: String(p.termMinMonths),
    termMaxMonths: String(p.termMaxMonths),
    minDownPaymentPercent: String(p.minDownPaymentPercent),
    validFrom: p.validFrom,
    validTo: p.validTo ?? "",
    conditions: p.conditions,
    active: p.active,
  };
}

/** "5,9" → 5.9; null when it is not a percent with at most 3 decimals. */
export function parsePercent(text: string): number | null {
  const t = text.trim().replace(",", ".").replace(/\s|%/g, "");
  return /^\d{1,3}(\.\d{1,3})?$/.test(t) ? Number(t) : null;
}

function parseWhole(text: string): number | null {
  const t = text.trim();
  return /^\d{1,4}$/.test(t) ? Number(t) : null;
}

/** A percent above 0 and below 100, or the message. */
function percentIn(text: string, message: string): number | string {
  const v = parsePercent(text);
  return v !== null && v > 0 && v < 100 ? v : message;
}

export const programRules = {
  rateMin: (text: string) =>
    typeof percentIn(text, PROGRAM_MESSAGES.rate) === "number" || PROGRAM_MESSAGES.rate,
  rateMax: (text: string, minText: string) => {
    const v = percentIn(text, PROGRAM_MESSAGES.rate);
    if (typeof v === "string") return v;
    const low = parsePercent(minText);
    return low === null || v >= low || PROGRAM_MESSAGES.rateOrder;
  },
  pskMin: (text: string, rateMinText: string) => {
    const v = percentIn(text, PROGRAM_MESSAGES.psk);
    if (typeof v === "string") return v;
    const rate = parsePercent(rateMinText);
    return rate === null || v >= rate || PROGRAM_MESSAGES.pskBelowRate;
  },
  pskMax: (text: string, minText: string) => {
    const v = percentIn(text, PROGRAM_MESSAGES.psk);
    if (typeof v === "string") return v;
    const low = parsePercent(minText);
    return low === null || v >= low || PROGRAM_MESSAGES.pskOrder;
  },
  term: (text: string) => {
    const n = parseWhole(text);
    return (n !== null && n >= 1 && n <= 360) || PROGRAM_MESSAGES.term;
  },
  termMax: (text: string, minText: string) => {
    const n = parseWhole(text);
    if (n === null || n < 1 || n > 360) return PROGRAM_MESSAGES.term;
    const low = parseWhole(minText);
    return low === null || n >= low || PROGRAM_MESSAGES.termOrder;
  },
  down: (text: string) => {
    const n = parseWhole(text);
    return (n !== null && n <= 90) || PROGRAM_MESSAGES.down;
  },
  validFrom: (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) || PROGRAM_MESSAGES.date,
  validTo: (text: string, fromText: string) =>
    text === "" || text >= fromText || PROGRAM_MESSAGES.dateOrder,
};

type Form = ProgramValues;

/** react-hook-form's rules of the form's fields (each checked again when
 * the field it is compared with changes). */
export const programFieldRules = {
  bankId: { validate: filled(PROGRAM_MESSAGES.bankId) },
  name: { validate: filled(PROGRAM_MESSAGES.name) },
  pskMin: {
    validate: (x: string, all: Form) => programRules.pskMin(x, all.rateMin),
    deps: ["pskMax"],
  },
  pskMax: { validate: (x: string, all: Form) => programRules.pskMax(x, all.pskMin) },
  rateMin: { validate: programRules.rateMin, deps: ["rateMax", "pskMin"] },
  rateMax: { validate: (x: string, all: Form) => programRules.rateMax(x, all.rateMin) },
  termMinMonths: { validate: programRules.term, deps: ["termMaxMonths"] },
  termMaxMonths: { validate: (x: string, all: Form) => programRules.termMax(x, all.termMinMonths) },
  minDownPaymentPercent: { validate: programRules.down },
  validFrom: { validate: programRules.validFrom, deps: ["validTo"] },
  validTo: { validate: (x: string, all: Form) => programRules.validTo(x, all.validFrom) },
};

/** The payload: numbers as numbers, an empty end date as null. */
export function programInput(v: ProgramValues): CreditProgramInput {
  return {
    bankId: v.bankId,
    name: v.name.trim(),
    rateMin: parsePercent(v.rateMin) ?? 0,
    rateMax: parsePercent(v.rateMax) ?? 0,
    pskMin: parsePercent(v.pskMin) ?? 0,
    pskMax: parsePercent(v.pskMax) ?? 0,
    termMinMonths: Number(v.termMinMonths.trim()),
    termMaxMonths: Number(v.termMaxMonths.trim()),
    minDownPaymentPercent: Number(v.minDownPaymentPercent.trim()),
    validFrom: v.validFrom,
    validTo: v.validTo === "" ? null : v.validTo,
    conditions: v.conditions.trim(),
    active: v.active,
  };
}

export type ProgramState = "expired" | "hidden" | "upcoming" | "valid";

/** Where a programme stands today: past its end (the server's `expired`),
 * hidden by the admin, not started yet, or on the site. */
export function programState(p: AdminCreditProgram, today: string = moscowToday()): ProgramState {
  if (p.expired || (p.validTo != null && p.validTo < today)) return "expired";
  if (!p.active) return "hidden";
  if (p.validFrom > today) return "upcoming";
  return "valid";
}

export const STATE_LABELS: Record<ProgramState, string> = {
  expired: "истекла",
  hidden: "скрыта",
  upcoming: "ещё не началась",
  valid: "на сайте",
};

const dayFormat = new Intl.DateTimeFormat("ru-RU", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** "2026-11-01" → "1 ноября 2026 г." */
export function day(text: string): string {
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? text : dayFormat.format(d);
}

/** "с 1 ноября 2026 г. по 31 декабря 2026 г.", or "с … без срока окончания". */
export function validity(p: Pick<AdminCreditProgram, "validFrom" | "validTo">): string {
  return p.validTo
    ? `с ${day(p.validFrom)} по ${day(p.validTo)}`
    : `с ${day(p.validFrom)}, без срока окончания`;
}

/** The programmes by bank, banks by name, programmes by name. */
export function byBank(list: AdminCreditProgram[]): [string, AdminCreditProgram[]][] {
  const groups = new Map<string, AdminCreditProgram[]>();
  for (const p of [...list].sort((a, b) => a.name.localeCompare(b.name, "ru"))) {
    const key = p.bankName;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b, "ru"));
}

/** "ПСК от 6,1% до 29,9%" and "ставка от 5,9% до 27,5%" for a card. */
export function costLines(
  p: Pick<AdminCreditProgram, "rateMin" | "rateMax" | "pskMin" | "pskMax">,
) {
  return {
    psk: `ПСК ${percentRange(p.pskMin, p.pskMax)}`,
    rate: `ставка ${percentRange(p.rateMin, p.rateMax)}`,
  };
}
