/** The dashboard's "Скорость ответа": the median and 90th percentile of the
 * time to a lead's first status change, in working minutes, for today, this
 * week and last week (in all and per staff user), a chart of the last 14
 * days and the leads still new past the threshold (docs/response-times.md). */
import { Link } from "wouter";
import { useCan } from "../auth";
import { ErrorPanel } from "../components/ErrorPanel";
import { ScrollRegion } from "../components/ScrollRegion";
import { longDateTime } from "../lib/dates";
import { LEAD_TYPE_LABELS } from "../lib/leads";
import { leadHref } from "../lib/notifications";
import {
  axisLabel,
  type Chart,
  callbackText,
  chartLayout,
  chartSummary,
  type DayStats,
  dayLabel,
  dayNumber,
  formatMinutes,
  HEIGHT,
  hasMissedCalls,
  type OverdueLead,
  PERIOD_LABELS,
  type PeriodStats,
  phoneSummary,
  RESPONSE_TIMES_URL,
  type ResponseStats,
  type ResponseTimes,
  userRows,
} from "../lib/responseTimes";
import { withSalon } from "../lib/salons";
import { useAdminQuery } from "../query";
import "./staff.css";

/** `salon`: one salon's figures ("" or none: every salon's). */
export function ResponseTimesSection({ salon }: { salon?: string }) {
  const url = withSalon(RESPONSE_TIMES_URL, salon);
  const times = useAdminQuery<ResponseTimes>(url);
  const d = times.data;
  return (
    <section
      aria-labelledby="response-title"
      aria-busy={times.isPending || undefined}
      data-testid="response-times"
    >
      <h2 id="response-title">Скорость ответа</h2>
      {times.isError ? (
        <ErrorPanel
          error={times.error}
          title="Не удалось загрузить скорость ответа"
          url={url}
          onRetry={() => void times.refetch()}
        />
      ) : !d ? (
        <p aria-busy="true">Загрузка…</p>
      ) : (
        <>
          <p class="muted">
            Время от поступления заявки до первой смены её статуса, в рабочих минутах по графику
            работы. Медиана: половина заявок получила ответ быстрее; 90%: девять из десяти.
          </p>
          <PeriodCards periods={d.periods} />
          <UsersTable periods={d.periods} />
          {hasMissedCalls(d.periods) && <CallbacksTable periods={d.periods} />}
          <ResponseChart daily={d.daily} threshold={d.thresholdMinutes} />
          <Overdue leads={d.overdue} threshold={d.thresholdMinutes} />
        </>
      )}
    </section>
  );
}

function PeriodCards({ periods }: { periods: PeriodStats[] }) {
  return (
    <div class="stat-cards response-cards">
      {periods.map((p) => (
        <article key={p.period} data-testid={`response-${p.period}`}>
          <h3 class="stat-title">{PERIOD_LABELS[p.period]}</h3>
          <dl class="response-figures">
            <div>
              <dt>Медиана</dt>
              <dd data-testid="median">{formatMinutes(p.all.medianMinutes)}</dd>
            </div>
            <div>
              <dt>90%</dt>
              <dd data-testid="p90">{formatMinutes(p.all.p90Minutes)}</dd>
            </div>
          </dl>
          <span class="stat-note">Отвечено заявок: {p.all.answered}</span>
          {phoneSummary(p.phone) && (
            <span class="stat-note" data-testid="phone">
              {phoneSummary(p.phone)}
            </span>
          )}
        </article>
      ))}
    </div>
  );
}

/** "4 мин / 12 мин (5)": median, 90th percentile and answered leads. */
function Figures({ stats }: { stats: ResponseStats | null }) {
  if (!stats || stats.answered === 0) return <span class="muted">—</span>;
  return (
    <>
      {formatMinutes(stats.medianMinutes)} / {formatMinutes(stats.p90Minutes)}{" "}
      <span class="muted">({stats.answered})</span>
    </>
  );
}

function UsersTable({ periods }: { periods: PeriodStats[] }) {
  const rows = userRows(periods);
  return (
    <ScrollRegion label="Скорость ответа по сотрудникам">
      <table class="response-table card-table" data-testid="response-users">
        <caption>По сотрудникам: медиана / 90%, в скобках число отвеченных заявок</caption>
        <thead>
          <tr>
            <th scope="col">Сотрудник</th>
            {periods.map((p) => (
              <th scope="col" key={p.period}>
                {PERIOD_LABELS[p.period]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr class="response-all">
            <th scope="row">Все</th>
            {periods.map((p) => (
              <td key={p.period} data-label={PERIOD_LABELS[p.period]}>
                <Figures stats={p.all} />
              </td>
            ))}
          </tr>
          {rows.map((r) => (
            <tr key={r.username} data-testid="response-user">
              <th scope="row">{r.username}</th>
              {periods.map((p) => (
                <td key={p.period} data-label={PERIOD_LABELS[p.period]}>
                  <Figures stats={r.periods[p.period]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Missed calls' leads called back per staff user: of how many, and how
 * many within the deadline (the threshold after the call). */
function CallbacksTable({ periods }: { periods: PeriodStats[] }) {
  const rows = userRows(periods).filter((r) =>
    periods.some((p) => (r.periods[p.period]?.missedCalls.missed ?? 0) > 0),
  );
  return (
    <ScrollRegion label="Пропущенные звонки по сотрудникам">
      <table class="response-table card-table" data-testid="response-callbacks">
        <caption>
          Пропущенные звонки по сотрудникам: сколько перезвонили и сколько — до срока
        </caption>
        <thead>
          <tr>
            <th scope="col">Сотрудник</th>
            {periods.map((p) => (
              <th scope="col" key={p.period}>
                {PERIOD_LABELS[p.period]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr class="response-all">
            <th scope="row">Все</th>
            {periods.map((p) => (
              <td key={p.period} data-label={PERIOD_LABELS[p.period]}>
                {callbackText(p.phone)}
              </td>
            ))}
          </tr>
          {rows.map((r) => (
            <tr key={r.username} data-testid="callback-user">
              <th scope="row">{r.username}</th>
              {periods.map((p) => (
                <td key={p.period} data-label={PERIOD_LABELS[p.period]}>
                  {callbackText(r.periods[p.period]?.missedCalls)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Bars of the median and the 90th percentile a day, the threshold as a
 * dashed line; its numbers are in a table under it. */
function ResponseChart({ daily, threshold }: { daily: DayStats[]; threshold: number }) {
  const chart = chartLayout(daily, threshold);
  const summary = chartSummary(daily, threshold);
  return (
    <figure class="response-chart" data-testid="response-chart">
      <figcaption>
        <strong>Последние 14 дней</strong>
        <span class="chart-legend" aria-hidden="true">
          <span>
            <i class="chart-key chart-median" /> медиана
          </span>
          <span>
            <i class="chart-key chart-p90" /> 90%
          </span>
          <span>
            <i class="chart-key chart-threshold" /> порог {formatMinutes(threshold)}
          </span>
        </span>
      </figcaption>
      <div class="chart-frame">
        <ol class="chart-axis" aria-hidden="true">
          {chart.ticks.map((t) => (
            <li key={t.minutes} style={{ bottom: `${t.at}%` }}>
              {axisLabel(t.minutes)}
            </li>
          ))}
        </ol>
        <div class="chart-plot">
          <ChartSvg chart={chart} summary={summary} />
          <ol class="chart-days" aria-hidden="true">
            {chart.days.map((d) => (
              <li key={d.date}>{dayNumber(d.date)}</li>
            ))}
          </ol>
        </div>
      </div>
      <details class="chart-table">
        <summary>Показать данные графика таблицей</summary>
        <ScrollRegion label="Скорость ответа по дням">
          <table class="card-table" data-testid="response-daily">
            <thead>
              <tr>
                <th scope="col">День</th>
                <th scope="col">Медиана</th>
                <th scope="col">90%</th>
                <th scope="col">Отвечено</th>
              </tr>
            </thead>
            <tbody>
              {daily.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{dayLabel(d.date)}</th>
                  <td data-label="Медиана">{formatMinutes(d.medianMinutes)}</td>
                  <td data-label="90%">{formatMinutes(d.p90Minutes)}</td>
                  <td data-label="Отвечено">{d.answered}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
}

function ChartSvg({ chart, summary }: { chart: Chart; summary: string }) {
  const y = (at: number) => HEIGHT - at;
  return (
    <svg
      role="img"
      aria-label={summary}
      viewBox={`0 0 ${Math.max(chart.width, 1)} ${HEIGHT}`}
      preserveAspectRatio="none"
      class="chart-svg"
      data-testid="response-chart-svg"
    >
      {chart.ticks.map((t) => (
        <line
          key={t.minutes}
          class="chart-grid"
          x1={0}
          x2={chart.width}
          y1={y(t.at)}
          y2={y(t.at)}
        />
      ))}
      {chart.days.map((d) => (
        <g key={d.date} data-testid="chart-day" data-date={d.date}>
          {d.median && (
            <rect
              class="chart-median"
              x={d.median.x}
              y={d.median.y}
              width={d.median.width}
              height={d.median.height}
            />
          )}
          {d.p90 && (
            <rect
              class="chart-p90"
              x={d.p90.x}
              y={d.p90.y}
              width={d.p90.width}
              height={d.p90.height}
            />
          )}
        </g>
      ))}
      <line
        class="chart-threshold-line"
        x1={0}
        x2={chart.width}
        y1={y(chart.threshold)}
        y2={y(chart.threshold)}
      />
    </svg>
  );
}

function Overdue({ leads, threshold }: { leads: OverdueLead[]; threshold: number }) {
  // A role without the leads screen sees the lead without a link to it.
  const linked = useCan("leads");
  return (
    <section aria-labelledby="overdue-title" data-testid="overdue">
      <h3 id="overdue-title">Ждут ответа дольше {formatMinutes(threshold)}</h3>
      {leads.length === 0 ? (
        <p class="empty-state">Все новые заявки в пределах порога</p>
      ) : (
        <ul class="overdue-list">
          {leads.map((l) => (
            <li key={l.id} data-testid="overdue-lead">
              {linked ? (
                <Link href={leadHref(l.id)}>{l.name || l.phone || "Заявка"}</Link>
              ) : (
                <span>{l.name || l.phone || "Заявка"}</span>
              )}
              {" · "}
              <span>{LEAD_TYPE_LABELS[l.type] ?? l.type}</span>
              {" · "}
              <strong>ждёт {formatMinutes(l.waitingMinutes)}</strong>
              {l.remindedAt && (
                <span class="muted">
                  {" · "}напоминание отправлено{" "}
                  <time dateTime={l.remindedAt}>{longDateTime(l.remindedAt)}</time>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
