/** The credit calculator's arithmetic and the texts that show a credit
 * programme's cost (docs/credit.md, "The calculator and the texts"). Money
 * is in whole kopecks (integers) here, exact: the monthly payment too
 * (BigInt), by the same rule as the server's `src/domain/credit_payment.rs`,
 * whose figure «от … ₽/мес» is this calculator's first one
 * (tests/fixtures/credit_payment.json holds both to one table). */
import type { components } from "../api/schema";
import { decimal, formatNumber, formatPrice } from "./format";
import { moneyText } from "./price";

/** A programme as the public sees it (`GET /api/credit-programs`). */
export type PublicCreditProgram = components["schemas"]["PublicCreditProgram"];

/** What the calculator and the texts need of a programme. */
export type ProgramTerms = Pick<
  PublicCreditProgram,
  | "id"
  | "bankName"
  | "name"
  | "rateMin"
  | "rateMax"
  | "pskMin"
  | "pskMax"
  | "termMinMonths"
  | "termMaxMonths"
  | "minDownPaymentPercent"
  | "conditions"
> &
  /** The bank's ad mark (the server always sends it). */
  Partial<Pick<PublicCreditProgram, "bankAd">>;

/** The ranges over all valid programmes (the answer's summary). */
export type ProgramsSummary = components["schemas"]["CreditSummary"];

/** `GET /api/credit-programs`: the valid programmes and their summary. */
export type CreditProgramsAnswer = components["schemas"]["PublicCreditPrograms"];

/** Twelve months of a hundred percent in thousandths: r = rate / YEAR. */
const YEAR = BigInt(1_200_000);
const TWO = BigInt(2);

/** The monthly payment of an annuity loan, in kopecks rounded half up:
 * P·r / (1 − (1 + r)^−n) with r the yearly rate / 12; P / n at 0 %.
 * Exact: with r = m / YEAR (m the rate in thousandths of a percent, as
 * stored), P·a / b for a = m·(YEAR+m)^n and b = YEAR·((YEAR+m)^n − YEAR^n). */
export function annuityPayment(
  principalKopecks: number,
  yearlyRatePercent: number,
  months: number,
): number {
  if (principalKopecks <= 0 || months < 1) return 0;
  const p = BigInt(Math.round(principalKopecks));
  const n = BigInt(Math.round(months));
  const m = BigInt(Math.max(0, Math.round(yearlyRatePercent * 1000)));
  let a = BigInt(1);
  let b = n;
  if (m > BigInt(0)) {
    const grown = (YEAR + m) ** n;
    a = m * grown;
    b = YEAR * (grown - YEAR ** n);
  }
  return Number((TWO * p * a + b) / (TWO * b));
}

export interface CreditInput {
  /** The price the loan is for (the car page: less the credit discount). */
  price: number;
  downPayment: number;
  termMonths: number;
}

/** One programme against the calculator's input: its payments when it fits,
 * otherwise why not. */
export interface ProgramOffer {
  program: ProgramTerms;
  /** Monthly payment at the programme's lowest and highest rate, kopecks. */
  payment: { min: number; max: number } | null;
  /** Why the programme does not fit the input (null when it does). */
  reason: string | null;
}

/** The loan: price less down payment, never below zero. */
export function loanAmount(input: CreditInput): number {
  return Math.max(0, input.price - input.downPayment);
}

/** Whether the down payment reaches `percent` of the price (exact, in integers). */
export function downPaymentReaches(input: CreditInput, percent: number): boolean {
  return input.downPayment * 100 >= input.price * percent;
}

/** Each programme with its payments for the input, in the given order. A
 * programme fits when the term is within its range and the down payment
 * reaches its minimum share of the price. */
export function offers(programs: ProgramTerms[], input: CreditInput): ProgramOffer[] {
  const amount = loanAmount(input);
  return programs.map((program) => {
    let reason: string | null = null;
    if (amount <= 0) reason = "Первоначальный взнос покрывает всю стоимость";
    else if (input.termMonths < program.termMinMonths || input.termMonths > program.termMaxMonths)
      reason = `Срок по программе: ${monthsRange(program.termMinMonths, program.termMaxMonths)}`;
    else if (!downPaymentReaches(input, program.minDownPaymentPercent))
      reason = `Первоначальный взнос по программе: от ${program.minDownPaymentPercent}%`;
    if (reason) return { program, payment: null, reason };
    return {
      program,
      payment: {
        min: annuityPayment(amount, program.rateMin, input.termMonths),
        max: annuityPayment(amount, program.rateMax, input.termMonths),
      },
      reason: null,
    };
  });
}

/** The monthly payment range over the programmes that fit, or null. */
export function paymentRange(list: ProgramOffer[]): { min: number; max: number } | null {
  const fits = list.flatMap((o) => (o.payment ? [o.payment] : []));
  if (fits.length === 0) return null;
  return {
    min: Math.min(...fits.map((p) => p.min)),
    max: Math.max(...fits.map((p) => p.max)),
  };
}

/** The terms a buyer picks from: whole years within the programmes' range,
 * and the range's own ends. */
export function termChoices(programs: ProgramTerms[]): number[] {
  if (programs.length === 0) return [];
  const low = Math.min(...programs.map((p) => p.termMinMonths));
  const high = Math.max(...programs.map((p) => p.termMaxMonths));
  const choices = new Set<number>([low, high]);
  for (let m = 12; m < high; m += 12) if (m > low) choices.add(m);
  return [...choices].sort((a, b) => a - b);
}

/** The term the calculator starts with: 5 years when some programme allows
 * it, else the nearest choice. */
export function defaultTerm(choices: number[]): number {
  if (choices.length === 0) return 0;
  return choices.reduce((best, m) => (Math.abs(m - 60) < Math.abs(best - 60) ? m : best));
}

/** The lowest down payment share that lets some programme fit. */
export function minDownPercent(programs: ProgramTerms[]): number {
  return programs.length === 0 ? 0 : Math.min(...programs.map((p) => p.minDownPaymentPercent));
}

/** `percent` of the price in kopecks, rounded up to whole `stepRubles`. */
export function shareOf(price: number, percent: number, stepRubles = 1): number {
  const step = stepRubles * 100;
  return Math.ceil((price * percent) / 100 / step) * step;
}

/** The down payment slider's step, rubles. */
export const DOWN_STEP = 10_000;
/** The highest down payment share the calculator takes. */
export const MAX_DOWN_PERCENT = 90;

/** The down payment's limits for a price (kopecks), in whole rubles: at
 * least the lowest minimum share of the programmes (rounded up), at most
 * 90 % (rounded down). */
export function downLimits(price: number, programs: ProgramTerms[]): { min: number; max: number } {
  const min = Math.ceil((price * minDownPercent(programs)) / 100 / 100);
  const max = Math.max(min, Math.floor((price * MAX_DOWN_PERCENT) / 100 / 100));
  return { min, max };
}

/** The calculator's first input for a price (kopecks): 20 % down rounded
 * up to 10,000 ₽ within the limits, the term nearest 60 months. The
 * server's figure «от … ₽/мес» is the lowest payment of this input
 * (`firstPayment`). */
export function startInput(price: number, programs: ProgramTerms[]): CreditInput {
  const { min, max } = downLimits(price, programs);
  const down = Math.min(max, Math.max(min, shareOf(price, 20, DOWN_STEP) / 100));
  return { price, downPayment: down * 100, termMonths: defaultTerm(termChoices(programs)) };
}

/** The lowest payment of the calculator's first input, kopecks; null when no
 * programme fits it. */
export function firstPayment(price: number, programs: ProgramTerms[]): number | null {
  if (programs.length === 0) return null;
  return paymentRange(offers(programs, startInput(price, programs)))?.min ?? null;
}

// ---- texts ---------------------------------------------------------------

/** A payment in whole rubles, rounded down as every amount the site shows
 * (the card's «от … ₽/мес» is the same figure): "22 244 ₽". */
export function paymentAmount(kopecks: number): string {
  return `${formatNumber(Math.floor(kopecks / 100))} ₽`;
}

/** "от 21 840 до 25 113 ₽" (the lower end rounded down, the upper up: the
 * range holds every payment), or one amount when both ends meet. */
export function paymentText(p: { min: number; max: number }): string {
  const low = Math.floor(p.min / 100);
  const high = Math.ceil(p.max / 100);
  return p.min === p.max || low === high
    ? paymentAmount(p.min)
    : `от ${formatNumber(low)} до ${formatNumber(high)} ₽`;
}

const percentFormat = { format: (value: number) => decimal(value, 0, 3) };

/** 5.9 → "5,9%". */
export function percent(value: number): string {
  return `${percentFormat.format(value)}%`;
}

/** "от 5,9% до 27,5%", or "12%" when both ends are one value. */
export function percentRange(min: number, max: number): string {
  return min === max ? percent(min) : `от ${percent(min)} до ${percent(max)}`;
}

/** "от 12 до 96 мес.", or "60 мес." */
export function monthsRange(min: number, max: number): string {
  return min === max ? `${min} мес.` : `от ${min} до ${max} мес.`;
}

/** "ПСК от 6,1% до 29,9% годовых": always before the rate, in type at least
 * as large (38-FZ art. 28; docs/credit.md). */
export function pskText(min: number, max: number): string {
  return `ПСК ${percentRange(min, max)} годовых`;
}

/** "ставка от 5,9% до 27,5% годовых" */
export function rateText(min: number, max: number): string {
  return `ставка ${percentRange(min, max)} годовых`;
}

/** The footer's credit sentence from the programmes' summary: the banks,
 * the full cost of credit before the rate, the term. Without programmes it
 * names no figures. */
export function footerCreditText(summary: ProgramsSummary | null | undefined): string {
  const decides = "Условия и решение о выдаче кредита определяет банк.";
  if (!summary) return `Автокредит предоставляется банками-партнёрами. ${decides}`;
  const banks = summary.banks.length > 0 ? `: ${summary.banks.join(", ")}` : "";
  return (
    `Автокредит предоставляется банками-партнёрами${banks}. ` +
    `Полная стоимость кредита (ПСК) — ${percentRange(summary.pskMin, summary.pskMax)} годовых, ` +
    `${rateText(summary.rateMin, summary.rateMax)}, ` +
    `срок кредита — ${monthsRange(summary.termMinMonths, summary.termMaxMonths)} ${decides}`
  );
}

/** Whether a free text (a bank's advantage) states an interest rate: such
 * a text has no full cost of credit beside it and is not shown publicly. */
export function statesRate(text: string): boolean {
  return /ставк|годовых|пск/i.test(text) && /\d/.test(text);
}

/** A loan the calculator hands to the credit request (kopecks). */
export interface CreditRequest {
  amount: number;
  downPayment: number;
  termMonths: number;
}

/** What the credit request sends of the loan (docs/leads.md). */
export function creditFields(credit: CreditRequest): {
  desiredAmount: string;
  downPayment: string;
  termMonths: number;
} {
  return {
    desiredAmount: moneyText(credit.amount),
    downPayment: moneyText(credit.downPayment),
    termMonths: credit.termMonths,
  };
}

/** "Сумма кредита 1 800 000 ₽ · первоначальный взнос 700 000 ₽ · срок 60 мес." */
export function creditSummary(credit: CreditRequest): string {
  return (
    `Сумма кредита ${formatPrice(credit.amount / 100)} · ` +
    `первоначальный взнос ${formatPrice(credit.downPayment / 100)} · срок ${credit.termMonths} мес.`
  );
}
