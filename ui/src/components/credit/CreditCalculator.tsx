/** The credit calculator (a lazy chunk): price, down payment and term give
 * the monthly payment range over the valid programmes of the partner banks,
 * each with its bank, its full cost of credit before its rate, its term and
 * its conditions; the result fills the credit request (docs/credit.md). */
import { useId, useMemo, useState } from "react";
import type { CarBrief } from "../../api/types";
import { CREDIT_PROGRAMS } from "../../api/urls";
import { useApi } from "../../hooks/useApi";
import {
  type CreditProgramsAnswer,
  type CreditRequest,
  DOWN_STEP,
  downLimits,
  loanAmount,
  MAX_DOWN_PERCENT,
  minDownPercent,
  monthsRange,
  offers,
  type ProgramOffer,
  paymentRange,
  paymentText,
  percent,
  pskText,
  rateText,
  startInput,
  termChoices,
} from "../../lib/credit";
import { formatNumber } from "../../lib/format";
import { creditPrice, toKopecks } from "../../lib/price";
import { LeadDialog } from "../leads/LeadDialog";
import { AdLabel } from "../ui/AdLabel";
import "./credit.css";

/** The credit page's starting price, rubles. */
const DEFAULT_PRICE = 2_000_000;
/** The highest price the credit page's input takes, rubles. */
const MAX_PRICE = 100_000_000;

/** Whole rubles, the lower end rounded down. */
const rublesDown = (kopecks: number) => `${formatNumber(Math.floor(kopecks / 100))} ₽`;
/** Whole rubles, the upper end rounded up: a payment is never understated. */
const rublesUp = (kopecks: number) => `${formatNumber(Math.ceil(kopecks / 100))} ₽`;

const digits = (text: string) => {
  const d = text.replace(/\D/g, "").slice(0, 12);
  return d === "" ? null : Number(d);
};

export default function CreditCalculator({ car }: { car?: CarBrief }) {
  const answer = useApi<CreditProgramsAnswer>(CREDIT_PROGRAMS);
  if (answer.error) {
    return <p class="empty">Не удалось загрузить кредитные программы. Обновите страницу.</p>;
  }
  if (!answer.data) return <p class="muted">Загрузка кредитных программ…</p>;
  if (answer.data.items.length === 0) {
    return (
      <p class="empty" data-testid="no-programs">
        Сейчас нет действующих кредитных программ банков-партнёров, поэтому платёж не
        рассчитывается. Оставьте заявку на кредит — менеджер подберёт условия.
      </p>
    );
  }
  return <Calculator car={car} answer={answer.data} />;
}

function Calculator({ car, answer }: { car?: CarBrief; answer: CreditProgramsAnswer }) {
  const id = useId();
  const programs = answer.items;
  const [priceText, setPriceText] = useState(formatNumber(DEFAULT_PRICE));
  const price = car ? creditPrice(car) : (digits(priceText) ?? 0) * 100;
  const lowestShare = minDownPercent(programs);
  const { min: minDown, max: maxDown } = downLimits(price, programs);
  // The first input: the one the car's «от … ₽/мес» is the payment of.
  const [start] = useState(() => startInput(price, programs));
  const [downText, setDownText] = useState(() => formatNumber(start.downPayment / 100));
  const choices = useMemo(() => termChoices(programs), [programs]);
  const [term, setTerm] = useState(start.termMonths);

  const down = digits(downText) ?? 0;
  const input = { price, downPayment: down * 100, termMonths: term };
  const list = offers(programs, input);
  const range = paymentRange(list);
  const amount = loanAmount(input);
  const priceMissing = !car && price <= 0;
  const tooLow = !priceMissing && down < minDown;
  const tooHigh = !priceMissing && down * 100 >= price;
  const [request, setRequest] = useState<CreditRequest | null>(null);

  const clampDown = () => setDownText(formatNumber(Math.min(maxDown, Math.max(minDown, down))));
  const discount = car && toKopecks(car.price) !== price;

  return (
    <div class="credit-calc" data-testid="credit-calculator">
      <div class="credit-inputs">
        {car ? (
          <p class="credit-price" data-testid="credit-price">
            <span>Стоимость автомобиля</span> <strong>{rublesDown(price)}</strong>
            {discount && <small>с учётом скидки при кредите</small>}
          </p>
        ) : (
          <div>
            <label for={`${id}-price`}>Стоимость автомобиля, ₽</label>
            <input
              id={`${id}-price`}
              inputMode="numeric"
              autocomplete="off"
              value={priceText}
              aria-invalid={priceMissing || undefined}
              aria-describedby={priceMissing ? `${id}-price-error` : undefined}
              onInput={(e) => setPriceText((e.target as HTMLInputElement).value)}
              onBlur={() => {
                const p = Math.min(MAX_PRICE, digits(priceText) ?? 0);
                setPriceText(p > 0 ? formatNumber(p) : "");
                if (p > 0) {
                  const low = Math.ceil((p * lowestShare) / 100);
                  const high = Math.max(low, Math.floor((p * MAX_DOWN_PERCENT) / 100));
                  setDownText(formatNumber(Math.min(high, Math.max(low, down))));
                }
              }}
            />
            {priceMissing && (
              <small id={`${id}-price-error`} class="field-error">
                Введите стоимость автомобиля
              </small>
            )}
          </div>
        )}
        <div>
          <label for={`${id}-down`}>Первоначальный взнос, ₽</label>
          <input
            id={`${id}-down`}
            inputMode="numeric"
            autocomplete="off"
            value={downText}
            data-testid="down-payment"
            aria-invalid={tooLow || tooHigh || undefined}
            aria-describedby={`${id}-down-hint`}
            onInput={(e) => setDownText((e.target as HTMLInputElement).value)}
            onBlur={clampDown}
          />
          <input
            type="range"
            aria-label="Первоначальный взнос, ползунок"
            min={minDown}
            max={maxDown}
            step={DOWN_STEP}
            value={Math.min(maxDown, Math.max(minDown, down))}
            disabled={priceMissing}
            onInput={(e) => setDownText(formatNumber(Number((e.target as HTMLInputElement).value)))}
          />
          <small id={`${id}-down-hint`} class={tooLow || tooHigh ? "field-error" : undefined}>
            {tooHigh
              ? "Взнос покрывает всю стоимость: кредит не нужен"
              : `Не меньше ${rublesUp(minDown * 100)} (${percent(lowestShare)} стоимости)`}
          </small>
        </div>
        <div>
          <label for={`${id}-term`}>Срок кредита</label>
          <select
            id={`${id}-term`}
            value={term}
            data-testid="term"
            onChange={(e) => setTerm(Number((e.target as HTMLSelectElement).value))}
          >
            {choices.map((m) => (
              <option key={m} value={m}>
                {m} мес.{m % 12 === 0 ? ` (${years(m / 12)})` : ""}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div class="credit-result" aria-live="polite">
        <p class="credit-amount">
          Сумма кредита: <strong data-testid="loan-amount">{rublesDown(amount)}</strong>
        </p>
        {range ? (
          <p class="credit-payment">
            Ежемесячный платёж <output data-testid="payment-range">{paymentText(range)}</output>
          </p>
        ) : (
          <p class="credit-payment" data-testid="no-fit">
            Ни одна программа не подходит под эти условия: измените срок или первоначальный взнос.
          </p>
        )}
        <button
          type="button"
          disabled={!range || priceMissing}
          data-testid="credit-apply"
          onClick={() => setRequest({ amount, downPayment: down * 100, termMonths: term })}
        >
          Оформить заявку на эти условия
        </button>
      </div>

      <h3 class="credit-programs-title">Программы банков-партнёров</h3>
      <ul class="credit-programs">
        {list.map((o) => (
          <ProgramRow key={o.program.id} offer={o} />
        ))}
      </ul>
      <p class="credit-note">
        Расчёт предварительный и не является офертой: платёж рассчитан по аннуитетной схеме по
        ставкам программ. ПСК включает обязательные платежи заёмщика по кредиту. Условия и решение о
        выдаче кредита определяет банк.
      </p>
      {request && (
        <LeadDialog
          kind="credit"
          open
          car={car}
          credit={request}
          onClose={() => setRequest(null)}
        />
      )}
    </div>
  );
}

function years(n: number): string {
  const last = n % 10;
  const teen = n % 100 > 10 && n % 100 < 20;
  if (!teen && last === 1) return `${n} год`;
  if (!teen && last > 1 && last < 5) return `${n} года`;
  return `${n} лет`;
}

/** A programme: bank and name, ПСК before the rate (at least as large),
 * term and down payment, conditions, and its payment or why it does not fit. */
function ProgramRow({ offer }: { offer: ProgramOffer }) {
  const p = offer.program;
  return (
    <li class={`credit-program${offer.payment ? "" : " is-off"}`} data-testid="credit-program">
      <p class="credit-bank">
        <strong data-testid="bank-name">{p.bankName}</strong> · {p.name}
      </p>
      <p class="credit-cost">
        <span class="credit-psk" data-testid="psk">
          {pskText(p.pskMin, p.pskMax)}
        </span>
        <span class="credit-rate" data-testid="rate">
          {rateText(p.rateMin, p.rateMax)}
        </span>
      </p>
      <p class="credit-terms">
        Срок {monthsRange(p.termMinMonths, p.termMaxMonths)} · первоначальный взнос от{" "}
        {percent(p.minDownPaymentPercent)}
      </p>
      {p.conditions && <p class="credit-conditions">{p.conditions}</p>}
      <p class="credit-program-payment" data-testid="program-payment">
        {offer.payment ? `Платёж ${paymentText(offer.payment)} в месяц` : offer.reason}
      </p>
      {/* The bank's offer is an ad (docs/advertising.md). */}
      {p.bankAd && <AdLabel {...p.bankAd} />}
    </li>
  );
}
