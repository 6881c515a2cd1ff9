/** Admin credit programmes: the programmes of each partner bank with their
 * cost, term, down payment and validity (an expired one is marked
 * 'истекла'), an add / edit dialog with every field and the server's
 * refusals under their fields, and a delete confirmation (docs/credit.md).
 * Without `catalogueWrite`: the list only. */
import { Fragment, type ReactNode } from "react";
import type { PartnerBank } from "../../api/types";
import { monthsRange, percent } from "../../lib/credit";
import {
  type AdminCreditProgram,
  byBank,
  costLines,
  type ProgramValues,
  programFieldRules,
  programInput,
  programState,
  programValues,
  STATE_LABELS,
  validity,
} from "../lib/creditPrograms";
import { useAdminQuery } from "../query";
import { type Resource, ResourceScreen } from "../resource/ResourceScreen";
import "./content.css";
import "./credit-programs.css";

const LIST = "/api/admin/credit-programs";
const BANKS = "/api/admin/partner-banks";

const STATE_BADGES = {
  expired: "badge-red",
  hidden: "badge-gray",
  upcoming: "badge-blue",
  valid: "badge-green",
} as const;

const PSK = "Полная стоимость кредита: на сайте стоит перед ставкой";
const DOWN = "Первоначальный взнос от, %";
const DOWN_HINT = "Целое число от 0 до 90";
const VALID_TO = "Включительно, по московскому времени; пусто — без срока окончания";
const CONDITIONS =
  "Всё, что меняет стоимость кредита: страхование, подтверждение дохода, модели и т. п. На сайте показывается полностью.";

const PROGRAMS: Resource<AdminCreditProgram, ProgramValues> = {
  title: "Кредитные программы",
  listUrl: LIST,
  items: (answer: { items: AdminCreditProgram[] }) => answer.items,
  createUrl: LIST,
  itemUrl: (p) => `${LIST}/${encodeURIComponent(p.id)}`,
  editLink: { path: "/credit-programs", missing: "Программа не найдена: возможно, её удалили" },
  name: (p) => `программу: ${p.name}`,
  text: {
    add: "Добавить программу",
    loading: "Загрузка программ…",
    loadFailed: "Не удалось загрузить кредитные программы",
    empty: "Кредитные программы не добавлены: на сайте не показываются ставки и расчёт платежа",
    deleteTitle: "Удалить программу?",
    deleteMessage: (p) =>
      `Программа «${p.name}» банка «${p.bankName}» будет удалена без возможности восстановления.`,
    deleted: "Программа удалена",
    deleteFailed: "Не удалось удалить программу",
    formTitle: (p) => (p ? "Редактировать программу" : "Новая программа"),
    created: "Программа добавлена",
    updated: "Программа обновлена",
    saveFailed: "Не удалось сохранить программу",
  },
  skeletons: 3,
  form: {
    testId: "program-dialog",
    mode: "onTouched",
    values: programValues,
    body: programInput,
    rules: programFieldRules,
    fields: [
      {
        kind: "grid",
        fields: [
          {
            name: "bankId",
            kind: "select",
            label: "Банк",
            required: true,
            options: useBankOptions,
          },
          { name: "name", label: "Название программы", required: true, maxLength: 255 },
          {
            name: "pskMin",
            kind: "decimal",
            label: "ПСК от, % годовых",
            required: true,
            hint: PSK,
          },
          { name: "pskMax", kind: "decimal", label: "ПСК до, % годовых", required: true },
          { name: "rateMin", kind: "decimal", label: "Ставка от, % годовых", required: true },
          { name: "rateMax", kind: "decimal", label: "Ставка до, % годовых", required: true },
          { name: "termMinMonths", kind: "number", label: "Срок от, месяцев", required: true },
          { name: "termMaxMonths", kind: "number", label: "Срок до, месяцев", required: true },
          {
            name: "minDownPaymentPercent",
            kind: "number",
            label: DOWN,
            required: true,
            hint: DOWN_HINT,
          },
          { name: "validFrom", kind: "date", label: "Действует с", required: true },
          { name: "validTo", kind: "date", label: "Действует по", hint: VALID_TO },
        ],
      },
      {
        name: "conditions",
        kind: "textarea",
        label: "Условия",
        rows: 4,
        maxLength: 5000,
        hint: CONDITIONS,
      },
      { name: "active", kind: "switch", label: "Показывать на сайте" },
    ],
  },
};

export default function CreditProgramsScreen() {
  return (
    <ResourceScreen
      resource={PROGRAMS}
      intro={() => (
        <p class="muted">
          На сайте видны действующие программы показанных банков: калькулятор, подвал и страница
          «Автокредит» берут ставки и ПСК только отсюда. Программа после даты окончания исчезает с
          сайта сама.
        </p>
      )}
      layout={(list, card) =>
        byBank(list).map(([bank, items]) => (
          <section key={bank} class="program-bank" aria-label={`Банк: ${bank}`}>
            <h2 class="program-bank-title">{bank}</h2>
            <div class="admin-grid">
              {items.map((p) => (
                <Fragment key={p.id}>{card(p)}</Fragment>
              ))}
            </div>
          </section>
        ))
      }
      card={(p, { actions }) => <ProgramCard program={p} actions={actions} />}
    />
  );
}

function ProgramCard({ program: p, actions }: { program: AdminCreditProgram; actions: ReactNode }) {
  const state = programState(p);
  const cost = costLines(p);
  return (
    <article
      class={`admin-card program-card${state === "valid" ? "" : " is-hidden"}`}
      data-testid="program-card"
      data-state={state}
    >
      <header>
        <span class={`badge ${STATE_BADGES[state]}`} data-testid="program-state">
          {STATE_LABELS[state]}
        </span>
        <h3 class="admin-card-title">{p.name}</h3>
      </header>
      <p class="program-cost">
        <strong>{cost.psk}</strong>
        <span>{cost.rate}</span>
      </p>
      <ul class="program-facts">
        <li>Срок {monthsRange(p.termMinMonths, p.termMaxMonths)}</li>
        <li>Первоначальный взнос от {percent(p.minDownPaymentPercent)}</li>
        <li>Действует {validity(p)}</li>
      </ul>
      {p.conditions && <p class="admin-card-text">{p.conditions}</p>}
      {actions}
    </article>
  );
}

/** The banks to choose from, a hidden one marked. */
function useBankOptions() {
  const banks = useAdminQuery<PartnerBank[]>(BANKS, { refetchOnWindowFocus: false });
  return {
    empty: "Выберите банк",
    busy: banks.isPending,
    options: (banks.data ?? []).map((b) => ({
      value: b.id,
      label: `${b.name}${b.active ? "" : " (скрыт)"}`,
    })),
  };
}
