/** The requests of people about their data: the open ones with their
 * deadline, the closed ones, registering a request and answering one. */
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field, RequiredMark } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { SkeletonCards } from "../components/SkeletonCards";
import {
  ANSWER_FIELDS,
  ANSWER_OUTCOMES,
  type AnswerForm,
  type AnswerOutcome,
  answerBody,
  answerErrors,
  answerUrl,
  closedText,
  type DataRequest,
  dayText,
  dueLabel,
  KIND_LABELS,
  kindLabel,
  moscowToday,
  NEW_REQUEST_KINDS,
  newRequestBody,
  noteRule,
  OUTCOME_LABELS,
  outcomeLabel,
  REQUEST_FIELDS,
  REQUESTS_URL,
  type RequestForm,
  receivedOnError,
  requestFormDefaults,
  subjectText,
} from "../lib/personalData";
import { useAdminMutation, useAdminQuery } from "../query";
import { SubjectFields } from "./personal-data-subject";
import "./content.css";
import "./staff.css";
import "./personal-data.css";

// ---- requests ----------------------------------------------------------------------------

export function RequestsSection({ onFind }: { onFind: (r: DataRequest) => void }) {
  const requests = useAdminQuery<DataRequest[]>(REQUESTS_URL);
  const [registering, setRegistering] = useState(false);
  const [answering, setAnswering] = useState<DataRequest | null>(null);
  const today = moscowToday();
  const list = requests.data ?? [];
  const open = list.filter((r) => !r.answeredAt).length;
  return (
    <section class="admin-section pd-section" aria-labelledby="pd-requests-title">
      <div class="pd-section-head">
        <h2 id="pd-requests-title">
          Запросы граждан
          {requests.data && (
            <span class="admin-count" data-testid="open-requests-count">
              {" "}
              (открытых: {open})
            </span>
          )}
        </h2>
        <button type="button" onClick={() => setRegistering(true)}>
          Зарегистрировать запрос
        </button>
      </div>
      {requests.isPending ? (
        <SkeletonCards count={2} label="Загрузка запросов…" />
      ) : requests.isError ? (
        <ErrorPanel
          error={requests.error}
          title="Не удалось загрузить запросы"
          url={REQUESTS_URL}
          onRetry={() => void requests.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="requests-empty">
          Запросов пока не было
        </p>
      ) : (
        <ul class="pd-list" data-testid="data-requests">
          {list.map((r) => (
            <RequestItem
              key={r.id}
              request={r}
              today={today}
              onFind={() => onFind(r)}
              onAnswer={() => setAnswering(r)}
            />
          ))}
        </ul>
      )}
      {registering && <RegisterDialog today={today} onClose={() => setRegistering(false)} />}
      {answering && <AnswerDialog request={answering} onClose={() => setAnswering(null)} />}
    </section>
  );
}

function RequestItem({
  request: r,
  today,
  onFind,
  onAnswer,
}: {
  request: DataRequest;
  today: string;
  onFind: () => void;
  onAnswer: () => void;
}) {
  const titleId = useId();
  const open = !r.answeredAt;
  const due = dueLabel(r, today);
  const late = open && (r.overdue || (due?.startsWith("просрочен") ?? false));
  return (
    <li
      class={`pd-request${late ? " pd-overdue" : ""}${open ? "" : " pd-closed"}`}
      data-testid="data-request"
      data-id={r.id}
      data-open={open ? "true" : "false"}
    >
      <h3 id={titleId} class="pd-request-title">
        {kindLabel(r.kind)}
        <span class="visually-hidden">:</span> <span class="pd-subject">{subjectText(r)}</span>
      </h3>
      <p class="pd-meta">
        {open ? (
          late ? (
            <span class="badge badge-red">Просрочен</span>
          ) : (
            <span class="badge badge-blue">Открыт</span>
          )
        ) : (
          <span class="badge badge-gray">Закрыт</span>
        )}{" "}
        Получен {dayText(r.receivedOn)}
        {" · "}
        <span data-testid="request-due">
          Срок ответа — {dayText(r.dueOn)}
          {due && (
            <>
              {" "}
              (<strong class={late ? "pd-late" : undefined}>{due}</strong>)
            </>
          )}
        </span>
      </p>
      {!open && (
        <p class="pd-meta" data-testid="request-outcome">
          {closedText(r)}
        </p>
      )}
      {r.note && <p class="pd-note">Примечание: {r.note}</p>}
      <p class="pd-meta muted">
        {r.createdBy ? `Зарегистрировал: ${r.createdBy}` : "Поступил по ссылке из письма"}
      </p>
      {open && (
        <div class="pd-actions">
          <button
            type="button"
            class="secondary outline"
            aria-describedby={titleId}
            onClick={onFind}
          >
            Найти данные
          </button>
          <button
            type="button"
            class="secondary outline"
            aria-describedby={titleId}
            onClick={onAnswer}
          >
            Закрыть запрос
          </button>
        </div>
      )}
    </li>
  );
}

function RegisterDialog({ today, onClose }: { today: string; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<RequestForm>({ defaultValues: requestFormDefaults(today) });
  const save = useAdminMutation(
    (v: RequestForm) => apiPost<DataRequest>(REQUESTS_URL, newRequestBody(v)),
    {
      success: (r) => `Запрос зарегистрирован. Ответить до ${dayText(r.dueOn)}`,
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось зарегистрировать запрос",
          fields: REQUEST_FIELDS,
        }),
    },
  );
  const kindError = errors.kind?.message;
  return (
    <FormDialog
      open
      title="Зарегистрировать запрос"
      dirty={isDirty}
      onClose={onClose}
      testId="request-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <fieldset aria-describedby={kindError ? "pd-kind-error" : undefined}>
          <legend>
            Вид запроса
            <RequiredMark />
          </legend>
          {NEW_REQUEST_KINDS.map((k) => (
            <label key={k}>
              <input type="radio" value={k} {...register("kind")} />
              {KIND_LABELS[k]}
            </label>
          ))}
          {kindError && (
            <small id="pd-kind-error" class="field-error" role="alert">
              {kindError}
            </small>
          )}
        </fieldset>
        <p class="muted" id="pd-subject-hint">
          Телефон, e-mail или оба — как человек их указал в обращении.
        </p>
        <SubjectFields register={register} errors={errors} describedBy="pd-subject-hint" />
        <Field
          label="Дата обращения"
          error={errors.receivedOn}
          hint="Срок ответа — 10 рабочих дней с этой даты"
        >
          {(a) => (
            <input
              {...a}
              type="date"
              max={today}
              class="narrow-input"
              {...register("receivedOn", {
                validate: (v) => receivedOnError(v, today) ?? true,
              })}
            />
          )}
        </Field>
        <Field
          label="Примечание"
          error={errors.note}
          hint="Как поступил запрос, номер письма и т. п."
        >
          {(a) => <textarea {...a} rows={3} {...register("note", noteRule)} />}
        </Field>
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            Зарегистрировать
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}

function AnswerDialog({ request, onClose }: { request: DataRequest; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<AnswerForm>({ defaultValues: { outcome: "", note: "" } });
  const save = useAdminMutation(
    (v: AnswerForm & { outcome: AnswerOutcome }) =>
      apiPost<DataRequest>(answerUrl(request.id), answerBody(v)),
    {
      success: (r) => `Запрос закрыт: ${outcomeLabel(r.outcome)}`,
      onSuccess: onClose,
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось закрыть запрос",
          fields: ANSWER_FIELDS,
        }),
    },
  );
  const refused = watch("outcome") === "refused";
  return (
    <FormDialog
      open
      title="Закрыть запрос"
      dirty={isDirty}
      onClose={onClose}
      testId="answer-dialog"
    >
      <form
        noValidate
        onSubmit={handleSubmit((v) => {
          if (v.outcome) save.mutate({ ...v, outcome: v.outcome });
        })}
      >
        <p>
          {kindLabel(request.kind)}: {subjectText(request)}
          <br />
          <span class="muted">Получен {dayText(request.receivedOn)}</span>
        </p>
        <p class="muted" id="pd-answer-hint">
          Чтобы удалить данные по запросу, нажмите «Найти данные», затем «Удалить все данные»:
          запрос закроется сам.
        </p>
        <Field label="Итог" required error={errors.outcome} describedBy="pd-answer-hint">
          {(a) => (
            <select
              {...a}
              {...register("outcome", {
                validate: (_v, f) => answerErrors(f).outcome ?? true,
              })}
            >
              <option value="">Выберите итог</option>
              {ANSWER_OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {OUTCOME_LABELS[o]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Примечание"
          required={refused}
          error={errors.note}
          hint={refused ? "Укажите причину отказа: её получит человек" : "Что и как ответили"}
        >
          {(a) => (
            <textarea
              {...a}
              rows={3}
              {...register("note", {
                validate: (_v, f) => answerErrors(f).note ?? true,
              })}
            />
          )}
        </Field>
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            Закрыть запрос
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
