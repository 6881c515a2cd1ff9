/** The parser screen's account of the cars the marketplace feeds leave out
 * (docs/admin.md, "Why a car is not on a marketplace"): how many each feed
 * leaves out, and the list of those cars (at most 500; the counts exact),
 * each with its reasons and a link to its edit screen. */
import { Link } from "wouter";
import type { components } from "../../api/schema";
import { CAR_FORMS, plural } from "../../lib/format";
import { ErrorPanel } from "../components/ErrorPanel";
import { useAdminQuery } from "../query";
import { CHANNEL_LABELS, LeftOutLine } from "./cars-form-market";

type LeftOutList = components["schemas"]["LeftOutList"];

export const FEEDS_LEFT_OUT_URL = "/api/admin/feeds/left-out";
const LIST_ID = "left-out-cars";

/** «Авито не берёт 3 автомобиля» a line each, linking to the list. */
export function LeftOutCounts() {
  const left = useAdminQuery<LeftOutList>(FEEDS_LEFT_OUT_URL);
  if (!left.data) return null;
  if (left.data.total === 0) {
    return (
      <p data-testid="left-out-counts">Все опубликованные автомобили в наличии выгружаются.</p>
    );
  }
  return (
    <ul class="parser-left-out-counts" data-testid="left-out-counts">
      {left.data.counts.map(({ channel, count }) => (
        <li key={channel}>
          {count === 0 ? (
            `${CHANNEL_LABELS[channel]}: выгружаются все автомобили`
          ) : (
            <>
              Не выгружаются на {CHANNEL_LABELS[channel]}:{" "}
              <a href={`#${LIST_ID}`}>
                {count} {plural(count, CAR_FORMS)}
              </a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The cars some feed leaves out, each linking to its edit screen. */
export function LeftOutCars() {
  const left = useAdminQuery<LeftOutList>(FEEDS_LEFT_OUT_URL);
  if (left.isError && !left.data) {
    return (
      <ErrorPanel
        error={left.error}
        title="Не удалось узнать, какие автомобили не выгружаются"
        url={FEEDS_LEFT_OUT_URL}
        onRetry={() => void left.refetch()}
      />
    );
  }
  if (!left.data || left.data.total === 0) return null;
  const { cars, total } = left.data;
  return (
    <section class="admin-section" id={LIST_ID} aria-labelledby={`${LIST_ID}-title`}>
      <h2 id={`${LIST_ID}-title`}>Не выгружаются на площадки</h2>
      <p>
        {total} {plural(total, CAR_FORMS)}
        {cars.length < total && ` (показаны первые ${cars.length})`}. Дополните данные в карточке —
        автомобиль попадёт в фид при следующем обновлении.
      </p>
      <ul class="parser-left-out" data-testid="left-out-list">
        {cars.map((car) => (
          <li key={car.id}>
            <Link href={`/cars?edit=${encodeURIComponent(car.id)}`}>{car.name}</Link>
            {car.leftOut.map((l) => (
              <LeftOutLine key={l.channel} item={l} />
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
