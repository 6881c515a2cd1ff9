/** Admin credit programmes: the programmes of each partner bank with their
 * cost, term, down payment and validity (an expired one is marked
 * 'истекла'), an add / edit dialog with every field and the server's
 * refusals under their fields, and a delete confirmation (docs/credit.md).
 * Without `catalogueWrite`: the list only. */
import { Fragment, type ReactNode } from "react";
import type { PartnerBank } from "../../api/types";
import { monthsRange, percent } from "../../lib/credit";
import { Field } from "../components/Field";
import {
  type AdminCreditProgram,
  byBank,
  costLines,
  PROGRAM_FIELDS,
  PROGRAM_MESSAGES,
  type ProgramValues,
  programInput,
  programRules,
  programState,
  programValues,
  STATE_LABELS,
  validity,
} from "../lib/creditPrograms";
import { filled } from "../lib/rules";
import { useAdminQuery } from "../query";
import { type FieldsProps, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import { SwitchField } from "../resource/SwitchField";
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
    fields: PROGRAM_FIELDS,
    body: programInput,
    Fields: ProgramFields,
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

function ProgramFields({ form }: FieldsProps<AdminCreditProgram, ProgramValues>) {
  const banks = useAdminQuery<PartnerBank[]>(BANKS, { refetchOnWindowFocus: false });
  const { register } = form;
  const { errors } = form.formState;
  const number = { inputMode: "decimal" as const, autocomplete: "off" };
  return (
    <>
      <div class="form-grid">
        <Field label="Банк" required error={errors.bankId}>
          {(a) => (
            <select
              {...a}
              aria-busy={banks.isPending || undefined}
              {...register("bankId", { validate: filled(PROGRAM_MESSAGES.bankId) })}
            >
              <option value="">Выберите банк</option>
              {(banks.data ?? []).map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                  {b.active ? "" : " (скрыт)"}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Название программы" required error={errors.name}>
          {(a) => (
            <input
              {...a}
              maxLength={255}
              {...register("name", { validate: filled(PROGRAM_MESSAGES.name) })}
            />
          )}
        </Field>
        <Field
          label="ПСК от, % годовых"
          required
          error={errors.pskMin}
          hint="Полная стоимость кредита: на сайте стоит перед ставкой"
        >
          {(a) => (
            <input
              {...a}
              {...number}
              {...register("pskMin", {
                validate: (x, all) => programRules.pskMin(x, all.rateMin),
                deps: ["pskMax"],
              })}
            />
          )}
        </Field>
        <Field label="ПСК до, % годовых" required error={errors.pskMax}>
          {(a) => (
            <input
              {...a}
              {...number}
              {...register("pskMax", {
                validate: (x, all) => programRules.pskMax(x, all.pskMin),
              })}
            />
          )}
        </Field>
        <Field label="Ставка от, % годовых" required error={errors.rateMin}>
          {(a) => (
            <input
              {...a}
              {...number}
              {...register("rateMin", {
                validate: programRules.rateMin,
                deps: ["rateMax", "pskMin"],
              })}
            />
          )}
        </Field>
        <Field label="Ставка до, % годовых" required error={errors.rateMax}>
          {(a) => (
            <input
              {...a}
              {...number}
              {...register("rateMax", {
                validate: (x, all) => programRules.rateMax(x, all.rateMin),
              })}
            />
          )}
        </Field>
        <Field label="Срок от, месяцев" required error={errors.termMinMonths}>
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              {...register("termMinMonths", {
                validate: programRules.term,
                deps: ["termMaxMonths"],
              })}
            />
          )}
        </Field>
        <Field label="Срок до, месяцев" required error={errors.termMaxMonths}>
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              {...register("termMaxMonths", {
                validate: (x, all) => programRules.termMax(x, all.termMinMonths),
              })}
            />
          )}
        </Field>
        <Field
          label="Первоначальный взнос от, %"
          required
          error={errors.minDownPaymentPercent}
          hint="Целое число от 0 до 90"
        >
          {(a) => (
            <input
              {...a}
              inputMode="numeric"
              {...register("minDownPaymentPercent", { validate: programRules.down })}
            />
          )}
        </Field>
        <Field label="Действует с" required error={errors.validFrom}>
          {(a) => (
            <input
              {...a}
              type="date"
              {...register("validFrom", {
                validate: programRules.validFrom,
                deps: ["validTo"],
              })}
            />
          )}
        </Field>
        <Field
          label="Действует по"
          error={errors.validTo}
          hint="Включительно, по московскому времени; пусто — без срока окончания"
        >
          {(a) => (
            <input
              {...a}
              type="date"
              {...register("validTo", {
                validate: (x, all) => programRules.validTo(x, all.validFrom),
              })}
            />
          )}
        </Field>
      </div>
      <Field
        label="Условия"
        error={errors.conditions}
        hint="Всё, что меняет стоимость кредита: страхование, подтверждение дохода, модели и т. п. На сайте показывается полностью."
      >
        {(a) => <textarea {...a} rows={4} maxLength={5000} {...register("conditions")} />}
      </Field>
      <SwitchField form={form} name="active">
        Показывать на сайте
      </SwitchField>
    </>
  );
}
