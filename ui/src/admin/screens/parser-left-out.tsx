/** The parser screen's account of the cars the marketplace feeds leave out
 * (docs/admin.md, "Why a car is not on a marketplace"): how many each feed
 * leaves out, and the list of those cars (at most 500; the counts exact),
 * each with its reasons and a link to its edit screen. */
import { Link } from "wouter";
import type { components } from "../../api/schema";
import { CAR_FORMS, plural } from "../../lib/format";
import { channelName } from "../lib/marketplaces";
import { useAdminQuery } from "../query";

type LeftOutList = components["schemas"]["LeftOutList"];

export const FEEDS_LEFT_OUT_URL = "/api/admin/feeds/left-out";
const LIST_ID = "left-out-cars";

/** «Не выгружаются на Авито: 3 автомобиля», linking to the list; nothing
 * when every feed takes every car. */
export function LeftOutCounts() {
  const left = useAdminQuery<LeftOutList>(FEEDS_LEFT_OUT_URL).data;
  if (!left?.total) return null;
  return (
    <ul data-testid="left-out-counts">
      {left.counts
        .filter((c) => c.count > 0)
        .map(({ channel, count }) => (
          <li key={channel}>
            Не выгружаются на {channelName(channel)}:{" "}
            <a href={`#${LIST_ID}`}>
              {count} {plural(count, CAR_FORMS)}
            </a>
          </li>
        ))}
    </ul>
  );
}

/** The cars some feed leaves out, each linking to its edit screen. */
export function LeftOutCars() {
  const left = useAdminQuery<LeftOutList>(FEEDS_LEFT_OUT_URL).data;
  if (!left?.total) return null;
  const { cars, total } = left;
  return (
    <section class="admin-section" id={LIST_ID} aria-labelledby={`${LIST_ID}-title`}>
      <h2 id={`${LIST_ID}-title`}>Не выгружаются на площадки</h2>
      {cars.length < total && (
        <p>
          Показаны первые {cars.length} из {total}
        </p>
      )}
      <ul data-testid="left-out-list">
        {cars.map((car) => (
          <li key={car.id}>
            <Link href={`/cars?edit=${encodeURIComponent(car.id)}`}>{car.name}</Link>
            {car.leftOut.map((l) => (
              <p key={l.channel}>
                Не выгружается на {channelName(l.channel)}: {l.reasons.join("; ")}
              </p>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
