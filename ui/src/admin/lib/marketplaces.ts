/** Each car's fate and figures on the marketplaces and the site
 * (docs/marketplaces.md, "What the admin shows"): the calls' URLs, an ad's
 * line, and a chart's days and scale, drawn as inline SVG without a chart
 * library. */
import type { components } from "../../api/schema";
import { formatNumber, plural } from "../../lib/format";

export type CarAd = components["schemas"]["CarAd"];
export type CarDay = components["schemas"]["CarDay"];
export type CarMarketplaces = components["schemas"]["CarMarketplaces"];
export type RefusedAd = components["schemas"]["RefusedAd"];
export type QuietCars = components["schemas"]["QuietCars"];
export type Channel = CarDay["channel"];

export const REFUSED_URL = "/api/admin/marketplaces/refused";
export const QUIET_URL = "/api/admin/marketplaces/quiet";

/** `/api/admin/cars/{id}/marketplaces?days=…` */
export const carMarketplacesUrl = (id: string, days: number) =>
  `/api/admin/cars/${encodeURIComponent(id)}/marketplaces?days=${days}`;

/** The chart's periods, in days. */
export const PERIODS = [30, 90] as const;

/** The channels in the order the charts are drawn, with their names. */
export const CHANNELS: readonly [Channel, string][] = [
  ["site", "Сайт"],
  ["avito", "Авито"],
  ["autoru", "Авто.ру"],
];

/** A channel's name: «Авито», «Авто.ру». */
export const channelName = (channel: string) => CHANNELS.find(([c]) => c === channel)?.[1];

/** «Авито: отклонено — Неверный цвет», «Авто.ру: опубликовано». */
export function adLine(ad: Pick<CarAd, "channelLabel" | "statusLabel" | "messages">): string {
  const words = ad.messages.join("; ");
  return `${ad.channelLabel}: ${ad.statusLabel}${words ? ` — ${words}` : ""}`;
}

/** «Открыть на Авто.ру». */
export const openOn = (ad: Pick<CarAd, "channelLabel">) => `Открыть на ${ad.channelLabel}`;

/** `YYYY-MM-DD` of a day `back` days before `today` (also `YYYY-MM-DD`). */
export function dayBefore(today: string, back: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

export interface ChartDay {
  day: string;
  views: number;
  contacts: number;
}

/** One channel's `period` days ending on `today`, oldest first, a day
 * without figures as zeros. */
export function channelDays(
  days: readonly CarDay[],
  channel: Channel,
  period: number,
  today: string,
): ChartDay[] {
  const byDay = new Map(days.filter((d) => d.channel === channel).map((d) => [d.day, d]));
  const out: ChartDay[] = [];
  for (let back = period - 1; back >= 0; back--) {
    const day = dayBefore(today, back);
    const d = byDay.get(day);
    out.push({ day, views: d?.views ?? 0, contacts: d?.contacts ?? 0 });
  }
  return out;
}

/** The top of a scale for `max`: 1, 2 or 5 times a power of ten, at least 1. */
export function niceMax(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (max <= step * power) return step * power;
  return 10 * power;
}

/** An SVG polyline's points for `values` in a `width` × `height` box, the
 * scale's top `top` at the box's top. */
export function linePoints(values: readonly number[], top: number, width: number, height: number) {
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = Math.round(i * step * 10) / 10;
      const y = Math.round((height - (Math.min(v, top) / top) * height) * 10) / 10;
      return `${x},${y}`;
    })
    .join(" ");
}

/** The sum of each figure over the days. */
export function totals(days: readonly ChartDay[]): { views: number; contacts: number } {
  return days.reduce(
    (sum, d) => ({ views: sum.views + d.views, contacts: sum.contacts + d.contacts }),
    { views: 0, contacts: 0 },
  );
}

/** «12.03» of `YYYY-MM-DD`. */
export const shortDay = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}`;

/** «1 250 просмотров, 4 обращения». */
export function viewsAndContacts(views: number, contacts: number): string {
  const v = `${formatNumber(views)} ${plural(views, ["просмотр", "просмотра", "просмотров"])}`;
  const c = `${formatNumber(contacts)} ${plural(contacts, ["обращение", "обращения", "обращений"])}`;
  return `${v}, ${c}`;
}

/** «За 30 дней: 1 250 просмотров, 4 обращения» (every channel). */
export function figuresLine({ views30, contacts30 }: { views30: number; contacts30: number }) {
  return `За 30 дней: ${viewsAndContacts(views30, contacts30)}`;
}

/** A chart's name for screen readers: «Авито за 30 дней: 58 просмотров, 3 обращения». */
export function chartLabel(name: string, days: readonly ChartDay[]): string {
  const sum = totals(days);
  const period = `${days.length} ${plural(days.length, ["день", "дня", "дней"])}`;
  return `${name} за ${period}: ${viewsAndContacts(sum.views, sum.contacts)}`;
}
