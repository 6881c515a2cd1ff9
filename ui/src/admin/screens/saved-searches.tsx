/** "Подписки на подборки": each catalogue filter visitors follow by e-mail,
 * with its confirmed and pending followers and, behind a disclosure, their
 * addresses (personal data: staff only; docs/saved-searches.md). */
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { ScrollRegion } from "../components/ScrollRegion";
import { SkeletonCards } from "../components/SkeletonCards";
import { longDateTime } from "../lib/dates";
import {
  followersText,
  followerTotals,
  heldMailsText,
  mailCapText,
  pagePath,
  SAVED_SEARCHES_URL,
  type SavedSearch,
  sortSubscribers,
  VISITOR_MAILS_URL,
  type VisitorMailFigures,
} from "../lib/savedSearches";
import { useAdminQuery } from "../query";
import "./content.css";
import "./staff.css";

export default function SavedSearchesScreen() {
  const searches = useAdminQuery<SavedSearch[]>(SAVED_SEARCHES_URL);
  const mails = useAdminQuery<VisitorMailFigures>(VISITOR_MAILS_URL);
  const list = searches.data ?? [];
  const totals = followerTotals(list);
  return (
    <AdminPage title="Подписки на подборки" count={searches.data ? list.length : null}>
      <p class="muted">
        Посетители подписываются на подборку каталога по e-mail и получают не больше одного письма в
        день о новых автомобилях и снижении цен. Адреса — персональные данные: не передавайте их за
        пределы салона.
      </p>
      {mails.data && (
        <p class="stat-note" data-testid="held-mails">
          <strong>{heldMailsText(mails.data)}</strong>
          <br />
          <span class="muted">
            {mailCapText(mails.data)}. Письма на адрес, который ввёл посетитель, ограничены, чтобы
            через форму нельзя было засыпать чужой ящик; общее число меняется в настройках.
          </span>
        </p>
      )}
      {searches.isPending ? (
        <SkeletonCards count={3} label="Загрузка подписок…" />
      ) : searches.isError ? (
        <ErrorPanel
          error={searches.error}
          title="Не удалось загрузить подписки"
          url={SAVED_SEARCHES_URL}
          onRetry={() => void searches.refetch()}
        />
      ) : list.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          На подборки пока никто не подписан
        </p>
      ) : (
        <>
          <p class="stat-note" data-testid="follower-totals">
            Всего: {followersText(totals.followers, totals.pending)}
          </p>
          <ul class="follower-list" data-testid="saved-searches">
            {list.map((s) => (
              <SearchItem key={s.id} search={s} />
            ))}
          </ul>
        </>
      )}
    </AdminPage>
  );
}

function SearchItem({ search: s }: { search: SavedSearch }) {
  const page = pagePath(s.pageUrl);
  const subscribers = sortSubscribers(s.subscribers);
  return (
    <li data-testid="saved-search" data-id={s.id}>
      <h2>{s.description}</h2>
      <p class="stat-note">
        <span data-testid="followers">{followersText(s.followers, s.pending)}</span>
        {page && (
          <>
            {" · "}
            <a href={page} target="_blank" rel="noopener">
              Открыть подборку на сайте
            </a>
          </>
        )}
      </p>
      {subscribers.length > 0 && (
        <details>
          <summary>Подписчики ({subscribers.length})</summary>
          <ScrollRegion label={`Подписчики: ${s.description}`}>
            <table class="subscriber-table card-table" data-testid="subscribers">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Подписался</th>
                  <th scope="col">Подтвердил</th>
                  <th scope="col">Последнее письмо</th>
                </tr>
              </thead>
              <tbody>
                {subscribers.map((sub) => (
                  <tr key={`${sub.email}:${sub.createdAt}`} data-testid="subscriber">
                    <td data-label="E-mail">{sub.email}</td>
                    <td data-label="Подписался">
                      <time dateTime={sub.createdAt}>{longDateTime(sub.createdAt)}</time>
                    </td>
                    <td data-label="Подтвердил">
                      {sub.confirmedAt ? (
                        <time dateTime={sub.confirmedAt}>{longDateTime(sub.confirmedAt)}</time>
                      ) : (
                        <span class="badge badge-orange">Ждёт подтверждения</span>
                      )}
                    </td>
                    <td data-label="Последнее письмо">
                      {sub.lastAlertAt ? (
                        <time dateTime={sub.lastAlertAt}>{longDateTime(sub.lastAlertAt)}</time>
                      ) : (
                        <span class="muted">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </details>
      )}
    </li>
  );
}
