/** «Салоны» (the owner's `settings` capability; issue 46, several salons):
 * every salon, the main first (its facts are the company settings), with
 * its address, phone, hours and cars; add one, change one, delete one
 * without cars (the server refuses the main and a salon with cars, in its
 * own words). The form is salons-form.tsx. */
import { Fragment } from "react";
import { ScrollRegion } from "../components/ScrollRegion";
import { deleteQuestion, SALON_MESSAGES } from "../lib/salon-form";
import { SALONS_URL, type SalonRecord, salonUrl } from "../lib/salons";
import { type CardContext, type Resource, ResourceScreen } from "../resource/ResourceScreen";
import { SalonDialog } from "./salons-form";
import "./salons.css";

const SALONS: Resource<SalonRecord> = {
  title: "Салоны",
  listUrl: SALONS_URL,
  createUrl: SALONS_URL,
  itemUrl: (s) => salonUrl(s.id),
  key: (s) => String(s.id),
  writeCapability: "settings",
  name: (s) => `салон «${s.name}»`,
  text: {
    add: "Добавить салон",
    addOpensDialog: true,
    loading: "Загрузка салонов…",
    loadFailed: "Не удалось загрузить салоны",
    empty: "Салонов нет",
    deleteTitle: "Удалить салон?",
    deleteMessage: deleteQuestion,
    deleted: (s) => `Салон «${s.name}» удалён`,
    deleteFailed: "Не удалось удалить салон",
    formTitle: (s) => (s ? `Изменить салон «${s.name}»` : "Добавить салон"),
    created: (s) => `Салон «${s.name}» добавлен`,
    updated: (s) => `Салон «${s.name}» сохранён`,
    saveFailed: "Не удалось сохранить салон",
  },
  skeletons: 2,
  deleteRefused: (s) => (s.main ? SALON_MESSAGES.mainStays : null),
  form: { Dialog: SalonDialog },
};

export default function SalonsScreen() {
  return (
    <ResourceScreen
      resource={SALONS}
      intro={() => (
        <p class="muted">
          Салоны дилера: у каждого свои адрес, телефоны, часы работы, получатели заявок и
          автомобили. Основной салон — это настройки компании. Пока салон один, на сайте и в панели
          его не выбирают.
        </p>
      )}
      layout={(list, card) => (
        <ScrollRegion label="Салоны">
          <table class="salons-table card-table" data-testid="salons">
            <thead>
              <tr>
                <th scope="col">Название</th>
                <th scope="col">Адрес</th>
                <th scope="col">Телефон</th>
                <th scope="col">Часы работы</th>
                <th scope="col">Автомобилей</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <Fragment key={s.id}>{card(s)}</Fragment>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      card={(s, context) => <SalonRow salon={s} context={context} />}
    />
  );
}

function SalonRow({
  salon: s,
  context,
}: {
  salon: SalonRecord;
  context: CardContext<SalonRecord>;
}) {
  const none = <span class="muted">—</span>;
  return (
    <tr data-testid="salon-row" data-id={s.id}>
      <th scope="row" data-testid="salon-name" data-label="Название">
        {s.name}
        {s.main && <span class="badge badge-blue salon-main">основной</span>}
      </th>
      <td data-testid="salon-address" data-label="Адрес">
        {s.address || none}
      </td>
      <td data-testid="salon-phone" data-label="Телефон">
        {s.phone || none}
        {s.phoneSecondary && <small class="salon-line">{s.phoneSecondary}</small>}
      </td>
      <td class="salon-hours" data-testid="salon-hours" data-label="Часы работы">
        {s.workingHours || none}
      </td>
      <td class="salon-cars" data-testid="salon-cars" data-label="Автомобилей">
        {s.cars}
      </td>
      <td class="card-table-actions">{context.actions}</td>
    </tr>
  );
}
