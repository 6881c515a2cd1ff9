/** The car dialog's «Площадки»: the car's fate on each marketplace (the
 * marketplace's own words when refused, a link when published, the report's
 * time) and a chart per channel of views and contacts per day over 30 or 90
 * days, inline SVG with its figures in a table for screen readers. */
import { useState } from "react";
import { formatNumber } from "../../lib/format";
import { ErrorPanel } from "../components/ErrorPanel";
import { longDateTime } from "../lib/dates";
import {
  type CarMarketplaces as Answer,
  adLine,
  CHANNELS,
  type ChartDay,
  carMarketplacesUrl,
  channelDays,
  chartLabel,
  linePoints,
  niceMax,
  openOn,
  PERIODS,
  shortDay,
} from "../lib/marketplaces";
import { moscowToday } from "../lib/personalDataDates";
import { useAdminQuery } from "../query";

const W = 300;
const H = 60;

export function CarMarketplaces({ carId }: { carId: string }) {
  const [period, setPeriod] = useState<number>(PERIODS[0]);
  const answer = useAdminQuery<Answer>(carMarketplacesUrl(carId, period), {
    refetchOnWindowFocus: false,
  });
  const today = moscowToday();
  return (
    <section aria-labelledby="car-marketplaces-title" data-testid="car-marketplaces">
      <h3 id="car-marketplaces-title">Площадки</h3>
      {answer.isError ? (
        <ErrorPanel
          error={answer.error}
          title="Не удалось загрузить данные площадок"
          onRetry={() => void answer.refetch()}
        />
      ) : !answer.data ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <>
          {answer.data.ads.length === 0 ? (
            <p class="muted">Площадки ещё не присылали отчётов об этом автомобиле</p>
          ) : (
            <ul class="failed-list" data-testid="car-ads">
              {answer.data.ads.map((ad) => (
                <li key={ad.channel} data-status={ad.status}>
                  <strong>{adLine(ad)}</strong>
                  {ad.url && (
                    <>
                      {" · "}
                      <a href={ad.url} target="_blank" rel="noopener noreferrer">
                        {openOn(ad)}
                      </a>
                    </>
                  )}
                  <br />
                  <span class="muted">
                    Отчёт площадки:{" "}
                    <time dateTime={ad.reportedAt}>{longDateTime(ad.reportedAt)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <fieldset class="checks">
            <legend>Период графиков</legend>
            {PERIODS.map((p) => (
              <label key={p}>
                <input
                  type="radio"
                  name="marketplaces-period"
                  checked={period === p}
                  onChange={() => setPeriod(p)}
                />
                {p} дней
              </label>
            ))}
          </fieldset>
          {CHANNELS.map(([channel, name]) => (
            <Chart
              key={channel}
              name={name}
              days={channelDays(answer.data.days, channel, period, today)}
            />
          ))}
        </>
      )}
    </section>
  );
}

/** One channel's views and contacts per day, each on its own scale. */
function Chart({ name, days }: { name: string; days: ChartDay[] }) {
  const topViews = niceMax(Math.max(...days.map((d) => d.views)));
  const topContacts = niceMax(Math.max(...days.map((d) => d.contacts)));
  const label = chartLabel(name, days);
  return (
    <figure class="figures-chart" data-testid="figures-chart" data-channel={name}>
      <figcaption>
        <strong>{label}</strong>
        <br />
        <span class="muted">
          Просмотры <span class="views-key">—</span> (шкала до {formatNumber(topViews)}), обращения{" "}
          <span class="contacts-key">- -</span> (до {formatNumber(topContacts)})
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`График по дням: ${label}`}
        preserveAspectRatio="none"
      >
        <polyline
          class="views-line"
          points={linePoints(
            days.map((d) => d.views),
            topViews,
            W,
            H,
          )}
        />
        <polyline
          class="contacts-line"
          points={linePoints(
            days.map((d) => d.contacts),
            topContacts,
            W,
            H,
          )}
        />
      </svg>
      <details>
        <summary>Цифры по дням: {name}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">День</th>
              <th scope="col">Просмотры</th>
              <th scope="col">Обращения</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{shortDay(d.day)}</th>
                <td>{d.views}</td>
                <td>{d.contacts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
