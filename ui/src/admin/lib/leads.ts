/** The leads screen's labels, filters and the blocks of a lead's details
 * (the lead types and fields: docs/leads.md, docs/glossary.md). */
import type { components } from "../../api/schema";
import type { BodyTypeInfo } from "../../api/types";
import { formatNumber, formatPrice } from "../../lib/format";
import { bodyTypeName, FUEL_LABELS, STATUS_LABELS, TRANSMISSION_LABELS } from "../../lib/labels";
import { longDate } from "../../lib/slots";
import { type AuditEntry, auditUrl } from "../api";
import { longDateTime } from "./dates";

export type Lead = components["schemas"]["Lead"];
export type LeadStatus = components["schemas"]["LeadStatus"];
export type LeadType = components["schemas"]["LeadType"];

export const LEAD_STATUSES: LeadStatus[] = ["new", "in_progress", "completed", "cancelled"];
export const LEAD_TYPES: LeadType[] = [
  "auto_credit",
  "trade_in",
  "auto_selection",
  "lease_booking",
  "contact_form",
  "test_drive",
  "callback",
  "missed_call",
  "phone_call",
  "marketplace_call",
];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "Новый",
  in_progress: "В работе",
  completed: "Завершён",
  cancelled: "Отменён",
};

/** `contact_form` is the instalment request. */
export const LEAD_TYPE_LABELS: Record<LeadType, string> = {
  auto_credit: "Автокредит",
  trade_in: "Трейд-ин",
  auto_selection: "Подбор авто",
  lease_booking: "Бронирование аренды",
  contact_form: "Рассрочка",
  test_drive: "Тест-драйв",
  callback: "Перезвоните мне",
  missed_call: "Пропущенный звонок",
  phone_call: "Звонок",
  marketplace_call: "Звонок с площадки",
};

/** The colour of a badge: a class `badge-{kind}` in the stylesheet. */
export type BadgeKind = "blue" | "orange" | "green" | "gray" | "purple" | "teal";

export const LEAD_STATUS_BADGES: Record<LeadStatus, BadgeKind> = {
  new: "blue",
  in_progress: "orange",
  completed: "green",
  cancelled: "gray",
};

export const LEAD_TYPE_BADGES: Record<LeadType, BadgeKind> = {
  auto_credit: "purple",
  trade_in: "teal",
  auto_selection: "blue",
  lease_booking: "orange",
  contact_form: "green",
  test_drive: "teal",
  callback: "blue",
  missed_call: "orange",
  phone_call: "green",
  marketplace_call: "orange",
};

export function isLeadStatus(value: string): value is LeadStatus {
  return (LEAD_STATUSES as string[]).includes(value);
}

export function isLeadType(value: string): value is LeadType {
  return (LEAD_TYPES as string[]).includes(value);
}

export type StatusFilter = LeadStatus | "all";
export type TypeFilter = LeadType | "all";

/** `GET /api/leads` with the filters; "all" leaves a filter out (the
 * assignee's "all" is the server's default: every lead for an owner, one's
 * own and the unassigned for a manager). */
export function leadsUrl(status: StatusFilter, type: TypeFilter, assignee = "all"): string {
  const params: string[] = [];
  if (status !== "all") params.push(`status=${status}`);
  if (type !== "all") params.push(`type=${type}`);
  if (assignee !== "all" && assignee !== "") {
    params.push(`assignee=${encodeURIComponent(assignee)}`);
  }
  return params.length ? `/api/leads?${params.join("&")}` : "/api/leads";
}

/** "Тест-драйв: вторник, 24 ноября, 10:30"; null for other requests. */
export function testDriveLine(lead: Pick<Lead, "preferredDate" | "preferredTime">): string | null {
  if (!lead.preferredDate) return null;
  const time = lead.preferredTime ? `, ${lead.preferredTime}` : "";
  return `Тест-драйв: ${longDate(lead.preferredDate)}${time}`;
}

/** "BMW X5 · С пробегом · 2 500 000 ₽": the car a lead was sent from. */
export function carLine(lead: Pick<Lead, "carInfo" | "carStatus" | "carPrice">): string {
  const status = lead.carStatus ? (carStatusLabel(lead.carStatus) ?? lead.carStatus) : null;
  return [lead.carInfo, status, lead.carPrice].filter(Boolean).join(" · ");
}

function carStatusLabel(code: string): string | null {
  return (STATUS_LABELS as Record<string, string>)[code] ?? null;
}

/** Codes joined by commas ("sedan,crossover") as their labels. */
function codes(
  value: string | null | undefined,
  label: (code: string) => string | undefined,
): string | null {
  if (!value) return null;
  return value
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => label(c) ?? c)
    .join(", ");
}

const labelsOf = (labels: Record<string, string>) => (code: string) => labels[code];

function money(value: string | null | undefined): string | null {
  return value ? formatPrice(value) : null;
}

export interface DetailRow {
  label: string;
  value: string;
  /** Shown as a link. */
  href?: string;
}

export interface DetailSection {
  /** A stable key (tests, React keys). */
  key: "credit" | "tradeIn" | "selection" | "testDrive" | "car" | "consent" | "source";
  title: string;
  rows: DetailRow[];
}

function rows(pairs: [string, string | null | undefined][]): DetailRow[] {
  return pairs
    .filter((p): p is [string, string] => typeof p[1] === "string" && p[1] !== "")
    .map(([label, value]) => ({ label, value }));
}

/** The blocks of a lead's details after name, phone, e-mail, type and
 * message: the block of its type first (credit sums, the visitor's car for a
 * trade-in, the wishes of a selection), then any other block with data, the
 * car it was sent from, the consent record, and where it came from (source
 * URL, UTM, analytics id). Empty fields and empty blocks are left out.
 * Body types are named by the dealership's table (`bodyTypes`), the six
 * defaults while it is not at hand, and by their code otherwise. */
export function leadDetails(lead: Lead, bodyTypes?: readonly BodyTypeInfo[]): DetailSection[] {
  const credit: DetailSection = {
    key: "credit",
    title: "Кредит",
    rows: rows([
      ["Желаемая сумма", money(lead.desiredAmount)],
      ["Ежемесячный доход", money(lead.monthlyIncome)],
      ["Срок", lead.termMonths == null ? null : `${lead.termMonths} мес.`],
      ["Первоначальный взнос", money(lead.downPayment)],
    ]),
  };
  const tradeIn: DetailSection = {
    key: "tradeIn",
    title: "Автомобиль клиента",
    rows: rows([
      ["Марка", lead.carBrand],
      ["Модель", lead.carModel],
      ["Год выпуска", lead.carYear == null ? null : String(lead.carYear)],
      ["Пробег", lead.carMileage == null ? null : `${formatNumber(lead.carMileage)} км`],
      ["Состояние", lead.carCondition],
    ]),
  };
  const selection: DetailSection = {
    key: "selection",
    title: "Пожелания к автомобилю",
    rows: rows([
      ["Бюджет", money(lead.budget)],
      ["Марка", lead.preferredBrand],
      ["Кузов", codes(lead.bodyType, (c) => bodyTypeName(c, bodyTypes))],
      ["Коробка передач", codes(lead.transmission, labelsOf(TRANSMISSION_LABELS))],
      ["Топливо", codes(lead.fuelTypes, labelsOf(FUEL_LABELS))],
    ]),
  };
  const testDrive: DetailSection = {
    key: "testDrive",
    title: "Тест-драйв",
    rows: rows([
      ["Дата", lead.preferredDate ? longDate(lead.preferredDate) : null],
      ["Время", lead.preferredTime],
    ]),
  };
  const byType: Partial<Record<LeadType, DetailSection>> = {
    auto_credit: credit,
    trade_in: tradeIn,
    auto_selection: selection,
    test_drive: testDrive,
  };
  const own = byType[lead.type];
  const typed = [own, ...[credit, tradeIn, selection, testDrive].filter((s) => s !== own)].filter(
    (s): s is DetailSection => !!s && s.rows.length > 0,
  );

  const car: DetailSection = {
    key: "car",
    title: "Автомобиль",
    rows: rows([
      ["Автомобиль", lead.carInfo],
      ["Статус", lead.carStatus ? (carStatusLabel(lead.carStatus) ?? lead.carStatus) : null],
      ["Цена", lead.carPrice],
    ]),
  };
  const consent: DetailSection = {
    key: "consent",
    title: "Согласие на обработку персональных данных",
    rows: [
      { label: "Редакция текста согласия", value: `№ ${lead.consentVersion}` },
      ...rows([
        ["Дано", longDateTime(lead.consentAt)],
        ["IP-адрес", lead.consentIp],
      ]),
      {
        label: "Согласие на рекламные сообщения",
        value: lead.advertisingConsent ? "Да" : "Нет",
      },
    ],
  };
  const sourceRows = rows([
    ["UTM source", lead.utmSource],
    ["UTM medium", lead.utmMedium],
    ["UTM campaign", lead.utmCampaign],
    ["UTM term", lead.utmTerm],
    ["UTM content", lead.utmContent],
    ["ID посетителя в аналитике", lead.analyticsClientId],
  ]);
  if (lead.sourceUrl) {
    sourceRows.unshift({
      label: "Страница",
      value: lead.sourceUrl,
      href: safeHref(lead.sourceUrl),
    });
  }
  const source: DetailSection = { key: "source", title: "Источник", rows: sourceRows };
  return [...typed, car, consent, source].filter((s) => s.rows.length > 0);
}

/** An http(s) URL as a link target; anything else is shown as text only. */
export function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

export interface HistoryItem {
  id: number;
  at: string;
  username: string;
  text: string;
}

function statusLabel(code: string | null | undefined): string {
  if (!code) return "—";
  return isLeadStatus(code) ? LEAD_STATUS_LABELS[code] : code;
}

/** A lead's status history from its audit entries (newest first, as the
 * server sends them): "Статус: Новый → В работе". */
export function statusHistory(entries: AuditEntry[]): HistoryItem[] {
  return entries.map((e) => {
    const change = e.changes.find((c) => c.field === "status");
    let text = e.summary;
    if (change) text = `Статус: ${statusLabel(change.from)} → ${statusLabel(change.to)}`;
    else if (e.action === "create") text = e.summary || "Заявка получена";
    return { id: e.id, at: e.at, username: e.username, text };
  });
}

/** The audit trail of one lead. */
export function leadAuditUrl(id: string): string {
  return auditUrl(50, { objectType: "lead", objectId: id });
}
