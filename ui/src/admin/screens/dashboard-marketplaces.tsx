/** The dashboard's marketplace cards (docs/admin.md, "Dashboard"): the cars
 * a marketplace refused, with its own words and a link to each car, and the
 * cars people look at but do not call about, with the price and days in
 * stock. */
import { Link } from "wouter";
import { formatPrice, plural } from "../../lib/format";
import { ErrorPanel } from "../components/ErrorPanel";
import {
  adLine,
  QUIET_URL,
  type QuietCars,
  REFUSED_URL,
  type RefusedAd,
} from "../lib/marketplaces";
import { useAdminQuery } from "../query";

const editHref = (carId: string) => `/cars?edit=${encodeURIComponent(carId)}`;

export function RefusedCard() {
  const refused = useAdminQuery<RefusedAd[]>(REFUSED_URL);
  return (
    <section aria-labelledby="refused-title" data-testid="refused-card">
      <h2 id="refused-title">
        Отклонены площадками
        {refused.data && <span class="admin-count"> ({refused.data.length})</span>}
      </h2>
      {refused.isError ? (
        <ErrorPanel
          error={refused.error}
          title="Не удалось загрузить отклонённые объявления"
          onRetry={() => void refused.refetch()}
        />
      ) : !refused.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : refused.data.length === 0 ? (
        <p class="empty-state">Площадки ничего не отклонили</p>
      ) : (
        <ul class="failed-list">
          {refused.data.map((r) => (
            <li key={`${r.channel}-${r.carId}`} data-testid="refused-ad">
              <Link href={editHref(r.carId)}>{r.carName}</Link>
              {!r.published && <span class="muted"> (черновик)</span>}
              <br />
              {adLine(r)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function QuietCard() {
  const quiet = useAdminQuery<QuietCars>(QUIET_URL);
  const days = quiet.data?.days ?? 0;
  return (
    <section aria-labelledby="quiet-title" data-testid="quiet-card">
      <h2 id="quiet-title">
        Смотрят, но не звонят
        {quiet.data && <span class="admin-count"> ({quiet.data.total})</span>}
      </h2>
      {quiet.isError ? (
        <ErrorPanel
          error={quiet.error}
          title="Не удалось загрузить автомобили без обращений"
          onRetry={() => void quiet.refetch()}
        />
      ) : !quiet.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : quiet.data.cars.length === 0 ? (
        <p class="empty-state">
          За {days} {plural(days, ["день", "дня", "дней"])} таких автомобилей нет
        </p>
      ) : (
        <ul class="failed-list">
          {quiet.data.cars.map((c) => (
            <li key={c.carId} data-testid="quiet-car">
              <Link href={editHref(c.carId)}>{c.name}</Link>
              {" · "}
              {formatPrice(c.price)}
              {" · "}в наличии {c.daysInStock} {plural(c.daysInStock, ["день", "дня", "дней"])}
              <br />
              <span class="muted">{c.why}</span>
            </li>
          ))}
        </ul>
      )}
      {quiet.data && quiet.data.total > quiet.data.cars.length && (
        <p class="muted">
          Показаны первые {quiet.data.cars.length} из {quiet.data.total}
        </p>
      )}
    </section>
  );
}
