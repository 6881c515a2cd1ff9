/** Admin partner banks: cards with logo, name, shown or hidden, requirements,
 * the advantages as chips and the offer's ad mark; a show / hide toggle, edit
 * (dialog) and delete. Without `catalogueWrite`: the list only. */
import { apiPut } from "../../api/client";
import type { PartnerBank } from "../../api/types";
import { AdNote } from "../components/AdFieldset";
import { ADVERTISER_HINTS, type AdValues, adValues } from "../lib/ads";
import { bankRules } from "../lib/rules";
import { splitAdvantages } from "../lib/text";
import { useAdminMutation } from "../query";
import { type Resource, ResourceScreen } from "../resource/ResourceScreen";
import "./content.css";

const hint =
  "Через запятую: каждое станет отдельной меткой. Метка со ставкой на сайте не показывается: ставки и ПСК берутся из кредитных программ";

const BANKS: Resource<PartnerBank> = {
  title: "Банки-партнёры",
  listUrl: "/api/admin/partner-banks",
  createUrl: "/api/partner-banks",
  itemUrl: (b) => `/api/partner-banks/${b.id}`,
  editLink: { path: "/partner-banks", missing: "Банк не найден: возможно, его удалили" },
  name: (b) => `банк: ${b.name}`,
  text: {
    add: "Добавить банк",
    loading: "Загрузка банков…",
    loadFailed: "Не удалось загрузить банки",
    empty: "Банки не добавлены",
    deleteTitle: "Удалить банк?",
    deleteMessage: (b) => `Банк «${b.name}» будет удалён без возможности восстановления.`,
    deleted: "Банк удалён",
    deleteFailed: "Не удалось удалить банк",
    deleteFailedTitle: "Ошибка при удалении банка",
    formTitle: (b) => (b ? "Редактировать банк" : "Новый банк"),
    created: "Банк добавлен",
    updated: "Банк обновлён",
    saveFailed: "Не удалось сохранить банк",
    saveFailedTitle: (b) => (b ? "Ошибка при обновлении банка" : "Ошибка при добавлении банка"),
  },
  form: {
    testId: "bank-dialog",
    rules: bankRules,
    fields: [
      { name: "name", label: "Название", required: true },
      { name: "logo", kind: "image", label: "Логотип", required: true },
      { name: "requirements", kind: "textarea", label: "Требования", required: true, rows: 3 },
      {
        name: "advantages",
        kind: "textarea",
        label: "Преимущества",
        required: true,
        rows: 2,
        hint,
      },
      { kind: "custom", Component: ({ form }) => <ChipsPreview text={form.watch("advantages")} /> },
      { name: "active", kind: "switch", label: "Показывать на сайте", initial: true },
      { kind: "ad", advertiserHint: ADVERTISER_HINTS.bank },
    ],
  },
};

export default function BanksScreen() {
  const toggle = useAdminMutation(
    (b: PartnerBank) => apiPut<PartnerBank>(BANKS.itemUrl(b), { active: !b.active }),
    {
      success: (saved) => (saved.active ? "Банк показан на сайте" : "Банк скрыт с сайта"),
      failure: "Не удалось изменить видимость банка",
    },
  );
  return (
    <ResourceScreen
      resource={BANKS}
      extraActions={(b) => (
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
      )}
      card={(b, { actions }) => (
        <article
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
          <Chips label="Преимущества" items={splitAdvantages(b.advantages)} />
          <AdNote {...bankAd(b)} />
          {actions}
        </article>
      )}
    />
  );
}

/** A bank's offer is always an ad: its advertiser is the bank when the form
 * names none. */
function bankAd(b: PartnerBank): AdValues {
  const v = adValues(b);
  return { ...v, adAdvertiser: v.adAdvertiser || b.name };
}

function Chips({ label, items }: { label: string; items: string[] }) {
  return (
    <ul class="chips" aria-label={label}>
      {items.map((a) => (
        <li key={a} class="chip-static">
          {a}
        </li>
      ))}
    </ul>
  );
}

/** The advantages as the site will show them. */
function ChipsPreview({ text }: { text: string }) {
  const chips = splitAdvantages(text);
  return chips.length > 0 ? <Chips label="Так преимущества будут показаны" items={chips} /> : null;
}
