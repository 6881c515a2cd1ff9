/** The retention periods and what is due to be erased by them (with a run
 * by hand), and the destruction acts. */
import { useState } from "react";
import { Link } from "wouter";
import { apiPost } from "../../api/client";
import { useCan } from "../auth";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { errorMessage } from "../errors";
import { longDateTime } from "../lib/dates";
import {
  ACTS_URL,
  actByText,
  actCountsText,
  actUrl,
  type DestructionAct,
  ERASE_IRREVERSIBLE,
  RETENTION_RUN_URL,
  RETENTION_SETTINGS_HREF,
  RETENTION_URL,
  type RetentionDue,
  type RetentionRun,
  retentionDueText,
  retentionPeriodText,
  retentionRunText,
  SETTINGS_URL,
} from "../lib/personalData";
import type { AdminSettings } from "../lib/settings";
import { useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import "./content.css";
import "./staff.css";
import "./personal-data.css";

// ---- retention ----------------------------------------------------------------------------

export function RetentionSection() {
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

export function ActsSection() {
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
