/** "Персональные данные" (152-FZ; docs/personal-data.md): the requests of
 * people about their data, each with its deadline of 10 working days; the
 * search of everything held about a phone or an address, its export as a
 * JSON file or a readable page and its erasure; the retention periods and
 * what is due to be erased by them; the destruction acts. The subject is
 * sent only in request bodies, never in a URL. */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import { apiPost } from "../../api/client";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field, RequiredMark } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage, isSilent } from "../errors";
import { longDateTime } from "../lib/dates";
import { LEAD_STATUS_LABELS, LEAD_TYPE_LABELS } from "../lib/leads";
import {
  ACTS_URL,
  ANSWER_FIELDS,
  ANSWER_OUTCOMES,
  type AnswerForm,
  type AnswerOutcome,
  actByText,
  actCountsText,
  actUrl,
  answerBody,
  answerErrors,
  answerUrl,
  closedText,
  type DataRequest,
  type DestructionAct,
  dayText,
  dueLabel,
  ERASE_IRREVERSIBLE,
  ERASE_URL,
  type Erased,
  type ExportFormat,
  eraseBody,
  erasedSummary,
  eraseWarning,
  exportBody,
  FIND_URL,
  fetchExport,
  formatPhone,
  foundSummary,
  KIND_LABELS,
  kindLabel,
  moscowToday,
  NEW_REQUEST_KINDS,
  newRequestBody,
  noteRule,
  nothingFound,
  OUTCOME_LABELS,
  outcomeLabel,
  type PersonData,
  REQUEST_FIELDS,
  REQUESTS_URL,
  RETENTION_RUN_URL,
  RETENTION_SETTINGS_HREF,
  RETENTION_URL,
  type RequestForm,
  type RetentionDue,
  type RetentionRun,
  receivedOnError,
  requestFormDefaults,
  retentionDueText,
  retentionPeriodText,
  retentionRunText,
  SETTINGS_URL,
  SUBJECT_FIELDS,
  type SubjectForm,
  sameSubject,
  saveFile,
  subjectBody,
  subjectOf,
  subjectRules,
  subjectText,
} from "../lib/personalData";
import type { AdminSettings } from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import "./content.css";
import "./staff.css";
import "./personal-data.css";

/** A request whose "Найти данные" was pressed: the search runs with its
 * subject; `seq` tells a second press from the first. */
interface FromRequest {
  request: DataRequest;
  seq: number;
}

export default function PersonalDataScreen() {
  const [from, setFrom] = useState<FromRequest | null>(null);
  return (
    <AdminPage title="Персональные данные">
      <p class="muted">
        Запросы граждан об их персональных данных (152-ФЗ): ответить нужно в течение 10 рабочих
        дней. Здесь же — поиск всего, что сайт хранит о человеке, выгрузка и удаление, сроки
        хранения и акты об уничтожении.
      </p>
      <RequestsSection
        onFind={(request) => setFrom((f) => ({ request, seq: (f?.seq ?? 0) + 1 }))}
      />
      <SearchSection from={from} onUnlink={() => setFrom(null)} />
      <RetentionSection />
      <ActsSection />
    </AdminPage>
  );
}

// ---- requests ----------------------------------------------------------------------------

function RequestsSection({ onFind }: { onFind: (r: DataRequest) => void }) {
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
        <div class="form-grid">
          <Field label="Телефон" error={errors.phone} describedBy="pd-subject-hint">
            {(a) => (
              <input
                {...a}
                type="tel"
                autoComplete="off"
                {...register("phone", { validate: subjectRules.phone.validate, deps: "email" })}
              />
            )}
          </Field>
          <Field label="E-mail" error={errors.email} describedBy="pd-subject-hint">
            {(a) => (
              <input
                {...a}
                type="email"
                autoComplete="off"
                spellcheck={false}
                {...register("email", { validate: subjectRules.email.validate, deps: "phone" })}
              />
            )}
          </Field>
        </div>
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

// ---- the search, export and erasure ----------------------------------------------------

interface Found {
  subject: SubjectForm;
  data: PersonData;
  /** The request the search answers (erasing closes it). */
  request: DataRequest | null;
}

function SearchSection({ from, onUnlink }: { from: FromRequest | null; onUnlink: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<SubjectForm>({ defaultValues: { phone: "", email: "" } });
  const [found, setFound] = useState<Found | null>(null);
  const [erased, setErased] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const find = useMutation({
    mutationFn: (v: { subject: SubjectForm; request: DataRequest | null }) =>
      apiPost<PersonData>(FIND_URL, subjectBody(v.subject), { invalidate: [] }),
    onSuccess: (data, v) => setFound({ subject: v.subject, data, request: v.request }),
    onError: (e) => {
      if (isSilent(e)) return;
      applyServerError(setError, e, {
        fallback: "Не удалось найти данные",
        fields: SUBJECT_FIELDS,
      });
    },
  });
  const run = (subject: SubjectForm, request: DataRequest | null) => {
    setErased(null);
    setFound(null);
    find.mutate({ subject, request });
  };

  // "Найти данные" of a request: its subject, searched at once.
  const seq = from?.seq;
  // Runs once per press (seq), not on every redraw.
  useEffect(() => {
    if (!from) return;
    const subject = subjectOf(from.request);
    clearErrors();
    setValue("phone", subject.phone);
    setValue("email", subject.email);
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
    run(subject, from.request);
  }, [seq]);

  const exporting = useMutation({
    mutationFn: (format: ExportFormat) => {
      if (!found) throw new Error("Сначала найдите данные");
      return fetchExport(exportBody(found.subject, format));
    },
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (e) => {
      if (!isSilent(e)) toastError(errorMessage(e, "Не удалось выгрузить данные"));
    },
  });

  const erase = useAdminMutation(
    (f: Found) => apiPost<Erased>(ERASE_URL, eraseBody(f.subject, f.request?.id ?? null)),
    {
      success: "Персональные данные удалены",
      onSuccess: (e) => {
        setConfirming(false);
        setFound(null);
        setErased(erasedSummary(e));
        onUnlink();
      },
      onFailure: (e) => {
        setConfirming(false);
        toastError(errorMessage(e, "Не удалось удалить данные"));
      },
    },
  );

  const linked = from?.request ?? null;
  // No longer answering the request: erasing then leaves it open.
  const unlink = () => {
    onUnlink();
    setFound((f) => f && { ...f, request: null });
  };
  return (
    <section class="admin-section pd-section" aria-labelledby="pd-search-title">
      <h2 id="pd-search-title" ref={heading} tabIndex={-1}>
        Поиск по телефону или e-mail
      </h2>
      {linked && (
        <div class="notice" data-testid="linked-request">
          <p>
            Поиск по запросу «{kindLabel(linked.kind)}» от {dayText(linked.receivedOn)}. Удаление
            данных закроет этот запрос с итогом «{OUTCOME_LABELS.erased}».
          </p>
          <button type="button" class="secondary outline" onClick={unlink}>
            Не связывать с запросом
          </button>
        </div>
      )}
      <form
        class="admin-form pd-search"
        noValidate
        onSubmit={handleSubmit((v) => {
          // Typed another subject: the search no longer answers the request.
          const keep = linked && sameSubject(v, subjectOf(linked)) ? linked : null;
          if (linked && !keep) onUnlink();
          run(v, keep);
        })}
      >
        <div class="form-grid">
          <Field label="Телефон" error={errors.phone} hint="+7 или 8 и 10 цифр">
            {(a) => (
              <input
                {...a}
                type="tel"
                autoComplete="off"
                {...register("phone", { validate: subjectRules.phone.validate, deps: "email" })}
              />
            )}
          </Field>
          <Field label="E-mail" error={errors.email}>
            {(a) => (
              <input
                {...a}
                type="email"
                autoComplete="off"
                spellcheck={false}
                {...register("email", { validate: subjectRules.email.validate, deps: "phone" })}
              />
            )}
          </Field>
        </div>
        <div class="form-actions">
          <button type="submit" aria-busy={find.isPending || undefined} disabled={find.isPending}>
            Найти
          </button>
          {(found || erased) && (
            <button
              type="button"
              class="secondary outline"
              onClick={() => {
                setFound(null);
                setErased(null);
                onUnlink();
                setValue("phone", "");
                setValue("email", "");
                clearErrors();
              }}
            >
              Очистить
            </button>
          )}
        </div>
      </form>
      <div aria-live="polite" data-testid="search-status" class="pd-status">
        {erased && (
          <p class="result-ok" data-testid="erased-summary">
            {erased}
          </p>
        )}
        {found && (
          <p class="stat-note" data-testid="found-summary">
            <strong>{foundSummary(found.data)}</strong>
          </p>
        )}
      </div>
      {found && !nothingFound(found.data) && <FoundLists data={found.data} />}
      {found && (
        <div class="form-actions pd-result-actions">
          <button
            type="button"
            class="secondary"
            aria-busy={(exporting.isPending && exporting.variables === "json") || undefined}
            disabled={exporting.isPending}
            onClick={() => exporting.mutate("json")}
          >
            Скачать JSON
          </button>
          <button
            type="button"
            class="secondary"
            aria-busy={(exporting.isPending && exporting.variables === "html") || undefined}
            disabled={exporting.isPending}
            onClick={() => exporting.mutate("html")}
          >
            Скачать страницу (HTML)
          </button>
          {!nothingFound(found.data) && (
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Удалить все данные
            </button>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming && !!found}
        title="Удалить все данные этого человека?"
        confirmLabel="Удалить навсегда"
        busy={erase.isPending}
        message={
          found && (
            <>
              <p>{subjectLine(found.subject)}</p>
              <p>{eraseWarning(found.data)}</p>
              {found.request && (
                <p>
                  Запрос от {dayText(found.request.receivedOn)} будет закрыт с итогом «
                  {OUTCOME_LABELS.erased}».
                </p>
              )}
              <p>Будет составлен акт об уничтожении.</p>
              <p>
                <strong>{ERASE_IRREVERSIBLE}</strong>
              </p>
            </>
          )
        }
        onConfirm={() => found && erase.mutate(found)}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

function subjectLine(s: SubjectForm): string {
  const body = subjectBody(s);
  const parts = [
    body.phone ? `телефон ${body.phone}` : null,
    body.email ? `e-mail ${body.email}` : null,
  ];
  return `Данные по запросу: ${parts.filter(Boolean).join(", ")}.`;
}

/** Everything found, by kind. */
function FoundLists({ data }: { data: PersonData }) {
  return (
    <div class="pd-found" data-testid="found">
      {data.leads.length > 0 && (
        <section aria-labelledby="pd-found-leads">
          <h3 id="pd-found-leads">Заявки ({data.leads.length})</h3>
          <ul class="pd-list">
            {data.leads.map((l) => (
              <li key={l.id} data-testid="found-lead">
                <strong>{l.name}</strong>
                {" · "}
                {formatPhone(l.phone)}
                {l.email ? ` · ${l.email}` : ""}
                <br />
                {LEAD_TYPE_LABELS[l.type] ?? l.type}
                {" · "}
                {LEAD_STATUS_LABELS[l.status] ?? l.status}
                {" · "}
                <time dateTime={l.createdAt}>{longDateTime(l.createdAt)}</time>
                <br />
                <span class="muted">
                  Согласие: редакция № {l.consentVersion}, {longDateTime(l.consentAt)}
                  {l.consentIp ? `, IP ${l.consentIp}` : ""}
                  {l.advertisingConsent ? "; согласие на рекламу" : ""}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {data.subscriptions.length > 0 && (
        <section aria-labelledby="pd-found-subs">
          <h3 id="pd-found-subs">Подписки на подборки ({data.subscriptions.length})</h3>
          <ul class="pd-list">
            {data.subscriptions.map((sub) => (
              <li key={sub.id} data-testid="found-subscription">
                <strong>{sub.email}</strong>
                {" · "}
                <span class="pd-url">{sub.pageUrl}</span>
                <br />
                Подписался <time dateTime={sub.createdAt}>{longDateTime(sub.createdAt)}</time>
                {sub.confirmedAt
                  ? `, подтвердил ${longDateTime(sub.confirmedAt)}`
                  : ", не подтвердил"}
                {sub.unsubscribedAt ? `, отписался ${longDateTime(sub.unsubscribedAt)}` : ""}
                <br />
                <span class="muted">
                  Согласие: редакция № {sub.consentVersion}, {longDateTime(sub.consentAt)}
                  {sub.consentIp ? `, IP ${sub.consentIp}` : ""}
                  {sub.advertisingConsent ? "; согласие на рекламу" : ""}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p data-testid="found-deliveries">
        Уведомления и письма: {data.deliveries.length}
        {data.consentVersions.length > 0 && (
          <>
            {" · "}Редакции согласия: {data.consentVersions.map((v) => `№ ${v}`).join(", ")}
          </>
        )}
      </p>
      {data.comments.length > 0 && (
        <section aria-labelledby="pd-found-comments">
          <h3 id="pd-found-comments">Комментарии сотрудников ({data.comments.length})</h3>
          <ul class="pd-list">
            {data.comments.map((c) => (
              <li key={c.id}>
                <span class="pre-line">{c.body}</span>
                <br />
                <span class="muted">
                  {c.authorName}, <time dateTime={c.createdAt}>{longDateTime(c.createdAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {data.audit.length > 0 && (
        <section aria-labelledby="pd-found-audit">
          <h3 id="pd-found-audit">Журнал изменений ({data.audit.length})</h3>
          <ul class="pd-list">
            {data.audit.map((e) => (
              <li key={e.id}>
                {e.summary}
                <br />
                <span class="muted">
                  <time dateTime={e.at}>{longDateTime(e.at)}</time> · {e.username}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

// ---- retention ----------------------------------------------------------------------------

function RetentionSection() {
  const canSettings = useCan("settings");
  const settings = useAdminQuery<AdminSettings>(canSettings ? SETTINGS_URL : null, {
    refetchOnWindowFocus: false,
  });
  const due = useAdminQuery<RetentionDue>(RETENTION_URL);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const runNow = useAdminMutation(() => apiPost<RetentionRun>(RETENTION_RUN_URL), {
    onSuccess: (r) => {
      setConfirming(false);
      setResult(retentionRunText(r));
    },
    onFailure: (e) => {
      setConfirming(false);
      toastError(errorMessage(e, "Не удалось удалить просроченные данные"));
    },
  });
  const s = settings.data;
  const d = due.data;
  return (
    <section class="admin-section pd-section" aria-labelledby="pd-retention-title">
      <h2 id="pd-retention-title">Сроки хранения</h2>
      {s && (
        <p data-testid="retention-periods">
          {retentionPeriodText(s.retentionYears, s.cancelledRetentionMonths)}{" "}
          {canSettings && <Link href={RETENTION_SETTINGS_HREF}>Изменить сроки в настройках</Link>}
        </p>
      )}
      <p class="muted">
        Каждую ночь сайт сам удаляет данные, срок хранения которых истёк, и составляет акт об
        уничтожении. Резервные копии старше срока хранения не сохраняются.
      </p>
      {due.isError ? (
        <ErrorPanel
          error={due.error}
          title="Не удалось узнать, что пора удалить"
          url={RETENTION_URL}
          onRetry={() => void due.refetch()}
        />
      ) : !d ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <>
          <p data-testid="retention-due">
            <strong>{retentionDueText(d)}</strong>
          </p>
          <div class="form-actions">
            <button
              type="button"
              class="danger"
              disabled={d.subjects === 0 || runNow.isPending}
              aria-busy={runNow.isPending || undefined}
              onClick={() => setConfirming(true)}
            >
              Удалить просроченные сейчас
            </button>
          </div>
        </>
      )}
      <div aria-live="polite" class="pd-status">
        {result && (
          <p class="result-ok" data-testid="retention-result">
            {result}
          </p>
        )}
      </div>
      <ConfirmDialog
        open={confirming && !!d}
        title="Удалить просроченные данные сейчас?"
        confirmLabel="Удалить"
        busy={runNow.isPending}
        message={
          d && (
            <>
              <p>{retentionDueText(d)}.</p>
              <p>
                Их заявки будут обезличены, подписки и письма удалены, и будет составлен акт об
                уничтожении.
              </p>
              <p>
                <strong>{ERASE_IRREVERSIBLE}</strong>
              </p>
            </>
          )
        }
        onConfirm={() => runNow.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

// ---- destruction acts ------------------------------------------------------------------------

function ActsSection() {
  const acts = useAdminQuery<DestructionAct[]>(ACTS_URL);
  const list = acts.data ?? [];
  return (
    <section class="admin-section pd-section" aria-labelledby="pd-acts-title">
      <h2 id="pd-acts-title">Акты об уничтожении</h2>
      {acts.isPending ? (
        <p aria-busy="true">Загрузка…</p>
      ) : acts.isError ? (
        <ErrorPanel
          error={acts.error}
          title="Не удалось загрузить акты"
          url={ACTS_URL}
          onRetry={() => void acts.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="acts-empty">
          Данные ещё не уничтожались
        </p>
      ) : (
        <ul class="pd-list" data-testid="acts">
          {list.map((a) => (
            <li key={a.id} data-testid="act" data-id={a.id}>
              <strong>
                Акт № {a.id} от <time dateTime={a.at}>{longDateTime(a.at)}</time>
              </strong>
              <br />
              {a.reasonText}
              <br />
              <span>{actCountsText(a)}</span>
              {a.categories.length > 0 && (
                <>
                  <br />
                  <span class="muted">Категории: {a.categories.join(", ")}</span>
                </>
              )}
              <br />
              <span class="muted">{actByText(a)}</span>
              <br />
              <a href={actUrl(a.id)} download data-testid="act-link">
                Скачать акт<span class="visually-hidden"> № {a.id}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
