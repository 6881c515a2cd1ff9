/** "Персональные данные" (152-FZ; docs/personal-data.md): the requests of
 * people about their data, each with its deadline of 10 working days; the
 * search of everything held about a phone or an address, its export as a
 * JSON file or a readable page and its erasure; the retention periods and
 * what is due to be erased by them; the destruction acts. The subject is
 * sent only in request bodies, never in a URL. */
import { useState } from "react";
import { AdminPage } from "../components/AdminPage";
import "./content.css";
import "./staff.css";
import "./personal-data.css";
import { RequestsSection } from "./personal-data-requests";
import { ActsSection, RetentionSection } from "./personal-data-retention";
import { type FromRequest, SearchSection } from "./personal-data-search";

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
