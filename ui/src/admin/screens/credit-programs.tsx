/** Admin credit programmes: the programmes of each partner bank with their
 * cost, term, down payment and validity (an expired one is marked
 * 'истекла'), an add / edit dialog with every field and the server's
 * refusals under their fields, and a delete confirmation (docs/credit.md). */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { PartnerBank } from "../../api/types";
import { monthsRange, percent } from "../../lib/credit";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { SkeletonCards } from "../components/SkeletonCards";
import { useEditLink } from "../hooks";
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
import { useAdminMutation, useAdminQuery } from "../query";
import "./content.css";
import "./credit-programs.css";

const LIST = "/api/admin/credit-programs";
const BANKS = "/api/admin/partner-banks";
const itemUrl = (id: string) => `${LIST}/${encodeURIComponent(id)}`;

const STATE_BADGES = {
  expired: "badge-red",
  hidden: "badge-gray",
  upcoming: "badge-blue",
  valid: "badge-green",
} as const;

/** Without `catalogueWrite`: the list only (no add, edit or delete). */
export default function CreditProgramsScreen() {
  const canWrite = useCan("catalogueWrite");
  const programs = useAdminQuery<{ items: AdminCreditProgram[] }>(LIST);
  const [editing, setEditing] = useState<AdminCreditProgram | "new" | null>(null);
  const [deleting, setDeleting] = useState<AdminCreditProgram | null>(null);
  const remove = useAdminMutation((p: AdminCreditProgram) => apiDelete(itemUrl(p.id)), {
    success: "Программа удалена",
    failure: "Не удалось удалить программу",
    onSuccess: () => setDeleting(null),
  });

  // A self-check's link (?edit=<id>) opens that programme.
  const dropEditLink = useEditLink({
    path: "/credit-programs",
    // Only a role that may change programmes opens one from a link.
    items: canWrite ? programs.data?.items : undefined,
    open: setEditing,
    missing: "Программа не найдена: возможно, её удалили",
  });

  const list = programs.data?.items ?? [];
  return (
    <AdminPage
      title="Кредитные программы"
      count={programs.data ? list.length : null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing("new")}>
            Добавить программу
          </button>
        ) : null
      }
    >
      <p class="muted">
        На сайте видны действующие программы показанных банков: калькулятор, подвал и страница
        «Автокредит» берут ставки и ПСК только отсюда. Программа после даты окончания исчезает с
        сайта сама.
      </p>
      {programs.isPending ? (
        <SkeletonCards count={3} label="Загрузка программ…" />
      ) : programs.isError ? (
        <ErrorPanel
          error={programs.error}
          title="Не удалось загрузить кредитные программы"
          url={LIST}
          onRetry={() => void programs.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          Кредитные программы не добавлены: на сайте не показываются ставки и расчёт платежа
        </p>
      ) : (
        byBank(list).map(([bank, items]) => (
          <section key={bank} class="program-bank" aria-label={`Банк: ${bank}`}>
            <h2 class="program-bank-title">{bank}</h2>
            <div class="admin-grid">
              {items.map((p) => (
                <ProgramCard
                  key={p.id}
                  program={p}
                  onEdit={canWrite ? () => setEditing(p) : undefined}
                  onDelete={canWrite ? () => setDeleting(p) : undefined}
                />
              ))}
            </div>
          </section>
        ))
      )}
      {editing && canWrite && (
        <ProgramDialog
          key={editing === "new" ? "new" : editing.id}
          program={editing === "new" ? null : editing}
          onClose={() => {
            setEditing(null);
            dropEditLink();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить программу?"
        message={
          deleting &&
          `Программа «${deleting.name}» банка «${deleting.bankName}» будет удалена без возможности восстановления.`
        }
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

function ProgramCard({
  program: p,
  onEdit,
  onDelete,
}: {
  program: AdminCreditProgram;
  /** Absent for a role that may not change the catalogue. */
  onEdit?: () => void;
  onDelete?: () => void;
}) {
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
      {(onEdit || onDelete) && (
        <footer class="card-actions">
          {onEdit && (
            <button
              type="button"
              class="secondary outline"
              aria-label={`Изменить программу: ${p.name}`}
              onClick={onEdit}
            >
              Изменить
            </button>
          )}
          {onDelete && (
            <button
              type="button"
              class="danger outline"
              aria-label={`Удалить программу: ${p.name}`}
              onClick={onDelete}
            >
              Удалить
            </button>
          )}
        </footer>
      )}
    </article>
  );
}

function ProgramDialog({
  program,
  onClose,
}: {
  program: AdminCreditProgram | null;
  onClose: () => void;
}) {
  const banks = useAdminQuery<PartnerBank[]>(BANKS, { refetchOnWindowFocus: false });
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<ProgramValues>({ defaultValues: programValues(program), mode: "onTouched" });
  const save = useAdminMutation(
    (v: ProgramValues) => {
      const body = programInput(v);
      return program
        ? apiPut<AdminCreditProgram>(itemUrl(program.id), body)
        : apiPost<AdminCreditProgram>(LIST, body);
    },
    {
      success: program ? "Программа обновлена" : "Программа добавлена",
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить программу",
          fields: PROGRAM_FIELDS,
        }),
    },
  );
  const number = { inputMode: "decimal" as const, autocomplete: "off" };

  return (
    <FormDialog
      open
      title={program ? "Редактировать программу" : "Новая программа"}
      dirty={isDirty}
      onClose={onClose}
      testId="program-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
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
        <label>
          <input
            type="checkbox"
            role="switch"
            aria-checked={watch("active")}
            {...register("active")}
          />
          Показывать на сайте
        </label>
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            Сохранить
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
