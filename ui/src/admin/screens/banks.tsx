/** Admin partner banks: cards with logo, name, shown or hidden, requirements,
 * the advantages as chips and the offer's ad mark; a show / hide toggle, edit
 * (dialog) and delete. */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiDelete, apiPost, apiPut } from "../../api/client";
import type { PartnerBank } from "../../api/types";
import { useCan } from "../auth";
import { AdFieldset, AdNote } from "../components/AdFieldset";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { ImageUpload } from "../components/ImageUpload";
import { SkeletonCards } from "../components/SkeletonCards";
import { errorMessage, isSilent, serverField } from "../errors";
import { useEditLink } from "../hooks";
import { ADVERTISER_HINTS, type AdValues, adPayload, adRules, adValues } from "../lib/ads";
import { bankRules } from "../lib/rules";
import { splitAdvantages } from "../lib/text";
import { useAdminMutation, useAdminQuery } from "../query";
import { toastError } from "../toast";
import "./content.css";

const LIST = "/api/admin/partner-banks";

/** Without `catalogueWrite`: the list only (no add, show / hide, edit or
 * delete). */
export default function BanksScreen() {
  const canWrite = useCan("catalogueWrite");
  const banks = useAdminQuery<PartnerBank[]>(LIST);
  const [editing, setEditing] = useState<PartnerBank | "new" | null>(null);
  const [deleting, setDeleting] = useState<PartnerBank | null>(null);

  const toggle = useAdminMutation(
    (b: PartnerBank) => apiPut<PartnerBank>(`/api/partner-banks/${b.id}`, { active: !b.active }),
    {
      success: (saved) => (saved.active ? "Банк показан на сайте" : "Банк скрыт с сайта"),
      failure: "Не удалось изменить видимость банка",
    },
  );
  const remove = useAdminMutation((b: PartnerBank) => apiDelete(`/api/partner-banks/${b.id}`), {
    success: "Банк удалён",
    onSuccess: () => setDeleting(null),
    onFailure: (e) =>
      toastError(errorMessage(e, "Не удалось удалить банк"), "Ошибка при удалении банка"),
  });

  // A self-check's link (?edit=<id>) opens that bank.
  const dropEditLink = useEditLink({
    path: "/partner-banks",
    // Only a role that may change banks opens one from a link.
    items: canWrite ? banks.data : undefined,
    open: setEditing,
    missing: "Банк не найден: возможно, его удалили",
  });

  const list = banks.data ?? [];
  return (
    <AdminPage
      title="Банки-партнёры"
      count={banks.data ? list.length : null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing("new")}>
            Добавить банк
          </button>
        ) : null
      }
    >
      {banks.isPending ? (
        <SkeletonCards count={6} label="Загрузка банков…" />
      ) : banks.isError ? (
        <ErrorPanel
          error={banks.error}
          title="Не удалось загрузить банки"
          url={LIST}
          onRetry={() => void banks.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          Банки не добавлены
        </p>
      ) : (
        <div class="admin-grid">
          {list.map((b) => (
            <article
              key={b.id}
              class={`admin-card bank-admin-card${b.active ? "" : " is-hidden"}`}
              data-testid="bank-card"
            >
              <header class="bank-admin-head">
                {b.logo ? (
                  <img class="bank-logo" src={b.logo} alt={`Логотип: ${b.name}`} loading="lazy" />
                ) : (
                  <span class="bank-logo admin-placeholder" aria-hidden="true">
                    {b.name.charAt(0)}
                  </span>
                )}
                <h2 class="admin-card-title">{b.name}</h2>
                <span
                  class={`bank-state ${b.active ? "on" : "off"}`}
                  role="img"
                  aria-label={b.active ? "Показан на сайте" : "Скрыт"}
                  title={b.active ? "Показан на сайте" : "Скрыт"}
                >
                  {b.active ? "●" : "○"}
                </span>
              </header>
              <p class="admin-card-text">{b.requirements}</p>
              <ul class="chips" aria-label="Преимущества">
                {splitAdvantages(b.advantages).map((a) => (
                  <li key={a} class="chip-static">
                    {a}
                  </li>
                ))}
              </ul>
              <AdNote {...bankAd(b)} />
              {canWrite && (
                <footer class="card-actions">
                  <button
                    type="button"
                    class="secondary"
                    aria-pressed={!b.active}
                    aria-label={`${b.active ? "Скрыть" : "Показать"} банк: ${b.name}`}
                    aria-busy={(toggle.isPending && toggle.variables?.id === b.id) || undefined}
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate(b)}
                  >
                    {b.active ? "Скрыть" : "Показать"}
                  </button>
                  <button
                    type="button"
                    class="secondary outline"
                    aria-label={`Изменить банк: ${b.name}`}
                    onClick={() => setEditing(b)}
                  >
                    Изменить
                  </button>
                  <button
                    type="button"
                    class="danger outline"
                    aria-label={`Удалить банк: ${b.name}`}
                    onClick={() => setDeleting(b)}
                  >
                    Удалить
                  </button>
                </footer>
              )}
            </article>
          ))}
        </div>
      )}
      {editing && canWrite && (
        <BankDialog
          key={editing === "new" ? "new" : editing.id}
          bank={editing === "new" ? null : editing}
          onClose={() => {
            setEditing(null);
            dropEditLink();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить банк?"
        message={deleting && `Банк «${deleting.name}» будет удалён без возможности восстановления.`}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

/** A bank's offer is always an ad: its advertiser is the bank when the form
 * names none. */
function bankAd(b: PartnerBank): AdValues {
  const v = adValues(b);
  return { ...v, adAdvertiser: v.adAdvertiser || b.name };
}

interface BankValues extends AdValues {
  name: string;
  logo: string;
  requirements: string;
  advantages: string;
  active: boolean;
}

const FIELDS = [
  "name",
  "logo",
  "requirements",
  "advantages",
  "active",
  "adErid",
  "adAdvertiser",
] as const;

function BankDialog({ bank, onClose }: { bank: PartnerBank | null; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isDirty },
  } = useForm<BankValues>({
    defaultValues: {
      name: bank?.name ?? "",
      logo: bank?.logo ?? "",
      requirements: bank?.requirements ?? "",
      advantages: bank?.advantages ?? "",
      active: bank?.active ?? true,
      ...adValues(bank),
    },
  });
  // The logo is not a text input: its rule is registered by hand.
  register("logo", bankRules.logo);
  const [uploading, setUploading] = useState(false);
  const title = bank ? "Ошибка при обновлении банка" : "Ошибка при добавлении банка";
  const save = useAdminMutation(
    (v: BankValues) => {
      const body = {
        name: v.name.trim(),
        logo: v.logo,
        requirements: v.requirements.trim(),
        advantages: v.advantages.trim(),
        active: v.active,
        ...adPayload(v),
      };
      return bank
        ? apiPut<PartnerBank>(`/api/partner-banks/${bank.id}`, body)
        : apiPost<PartnerBank>("/api/partner-banks", body);
    },
    {
      success: bank ? "Банк обновлён" : "Банк добавлен",
      onSuccess: onClose,
      onFailure: (e) => {
        if (isSilent(e)) return;
        const field = serverField(e, FIELDS);
        if (field) {
          setError(
            field as keyof BankValues,
            { type: "server", message: (e as Error).message },
            { shouldFocus: true },
          );
        } else {
          toastError(errorMessage(e, "Не удалось сохранить банк"), title);
        }
      },
    },
  );
  const logo = watch("logo");
  const chips = splitAdvantages(watch("advantages"));

  return (
    <FormDialog
      open
      title={bank ? "Редактировать банк" : "Новый банк"}
      dirty={isDirty}
      onClose={onClose}
      testId="bank-dialog"
    >
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))}>
        <Field label="Название" required error={errors.name}>
          {(a) => <input {...a} {...register("name", bankRules.name)} />}
        </Field>
        <ImageUpload
          label="Логотип"
          required
          value={logo}
          onChange={(url) => setValue("logo", url, { shouldDirty: true, shouldValidate: true })}
          error={errors.logo}
          onBusyChange={setUploading}
        />
        <Field label="Требования" required error={errors.requirements}>
          {(a) => (
            <textarea {...a} rows={3} {...register("requirements", bankRules.requirements)} />
          )}
        </Field>
        <Field
          label="Преимущества"
          required
          error={errors.advantages}
          hint="Через запятую: каждое станет отдельной меткой. Метка со ставкой на сайте не показывается: ставки и ПСК берутся из кредитных программ"
        >
          {(a) => <textarea {...a} rows={2} {...register("advantages", bankRules.advantages)} />}
        </Field>
        {chips.length > 0 && (
          <ul class="chips" aria-label="Так преимущества будут показаны">
            {chips.map((c) => (
              <li key={c} class="chip-static">
                {c}
              </li>
            ))}
          </ul>
        )}
        <label>
          <input
            type="checkbox"
            role="switch"
            aria-checked={watch("active")}
            {...register("active")}
          />
          Показывать на сайте
        </label>
        <AdFieldset
          advertiser={register("adAdvertiser", adRules.adAdvertiser)}
          erid={register("adErid", adRules.adErid)}
          errors={errors}
          advertiserHint={ADVERTISER_HINTS.bank}
        />
        <footer class="dialog-actions">
          <CancelButton />
          <button
            type="submit"
            aria-busy={save.isPending || undefined}
            disabled={save.isPending || uploading}
          >
            Сохранить
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
