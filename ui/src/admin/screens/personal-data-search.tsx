/** The search of everything held about a phone or an address (from a
 * request or typed), what was found, its export and its erasure. */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { apiPost } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { errorMessage, isSilent } from "../errors";
import { longDateTime } from "../lib/dates";
import { LEAD_STATUS_LABELS, LEAD_TYPE_LABELS } from "../lib/leads";
import {
  type DataRequest,
  dayText,
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
  kindLabel,
  nothingFound,
  OUTCOME_LABELS,
  type PersonData,
  SUBJECT_FIELDS,
  type SubjectForm,
  sameSubject,
  saveFile,
  sentence,
  subjectBody,
  subjectOf,
} from "../lib/personalData";
import { useAdminMutation } from "../query";
import { toastError } from "../toast";
import { SubjectFields } from "./personal-data-subject";
import "./content.css";
import "./staff.css";
import "./personal-data.css";

/** A request whose "Найти данные" was pressed: the search runs with its
 * subject; `seq` tells a second press from the first. */
export interface FromRequest {
  request: DataRequest;
  seq: number;
}

// ---- the search, export and erasure ----------------------------------------------------

interface Found {
  subject: SubjectForm;
  data: PersonData;
  /** The request the search answers (erasing closes it). */
  request: DataRequest | null;
}

export function SearchSection({
  from,
  onUnlink,
}: {
  from: FromRequest | null;
  onUnlink: () => void;
}) {
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
            Поиск по запросу «{kindLabel(linked.kind)}» от {sentence(dayText(linked.receivedOn))}{" "}
            Удаление данных закроет этот запрос с итогом «{OUTCOME_LABELS.erased}».
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
        <SubjectFields register={register} errors={errors} phoneHint="+7 или 8 и 10 цифр" />
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
                <ConsentNote of={l} />
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
                <ConsentNote of={sub} />
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

/** What a person agreed to, as the ledger recorded it: the edition, when,
 * from where, and whether advertising was agreed to too. */
function ConsentNote({
  of: c,
}: {
  of: {
    consentVersion: number;
    consentAt: string;
    consentIp?: string | null;
    advertisingConsent?: boolean;
  };
}) {
  return (
    <span class="muted">
      Согласие: редакция № {c.consentVersion}, {longDateTime(c.consentAt)}
      {c.consentIp ? `, IP ${c.consentIp}` : ""}
      {c.advertisingConsent ? "; согласие на рекламу" : ""}
    </span>
  );
}
