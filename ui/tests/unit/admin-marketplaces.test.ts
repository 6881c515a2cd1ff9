import { describe, expect, it } from "vitest";
import { adminCarsUrl } from "../../src/admin/api";
import {
  adLine,
  type CarDay,
  channelDays,
  chartLabel,
  dayBefore,
  figuresLine,
  linePoints,
  niceMax,
  openOn,
  shortDay,
  totals,
} from "../../src/admin/lib/marketplaces";
import { quietPatch, quietRules } from "../../src/admin/lib/quietCars";

const day = (channel: CarDay["channel"], d: string, views: number, contacts: number): CarDay => ({
  channel,
  day: d,
  views,
  contacts,
  favourites: 0,
  calls: 0,
});

describe("a car on the marketplaces", () => {
  it("reads an ad as the dealer reads it", () => {
    expect(
      adLine({
        channelLabel: "Авито",
        statusLabel: "отклонено",
        messages: ["Неверный цвет", "Нет фото"],
      }),
    ).toBe("Авито: отклонено — Неверный цвет; Нет фото");
    expect(adLine({ channelLabel: "Авто.ру", statusLabel: "опубликовано", messages: [] })).toBe(
      "Авто.ру: опубликовано",
    );
    expect(openOn({ channelLabel: "Авто.ру" })).toBe("Открыть на Авто.ру");
  });

  it("fills a channel's period with zeros, oldest first", () => {
    const days = [
      day("avito", "2025-03-01", 10, 1),
      day("site", "2025-03-01", 99, 0),
      day("avito", "2025-02-27", 4, 0),
    ];
    expect(channelDays(days, "avito", 3, "2025-03-01")).toEqual([
      { day: "2025-02-27", views: 4, contacts: 0 },
      { day: "2025-02-28", views: 0, contacts: 0 },
      { day: "2025-03-01", views: 10, contacts: 1 },
    ]);
    expect(channelDays(days, "autoru", 30, "2025-03-01")).toHaveLength(30);
    expect(dayBefore("2024-03-01", 1)).toBe("2024-02-29");
    expect(totals(channelDays(days, "avito", 3, "2025-03-01"))).toEqual({ views: 14, contacts: 1 });
    expect(shortDay("2025-03-09")).toBe("09.03");
    expect(chartLabel("Авито", channelDays(days, "avito", 3, "2025-03-01"))).toBe(
      "Авито за 3 дня: 14 просмотров, 1 обращение",
    );
  });

  it("scales a chart to a round top and draws its line in the box", () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(13)).toBe(20);
    expect(niceMax(120)).toBe(200);
    expect(niceMax(480)).toBe(500);
    expect(niceMax(1000)).toBe(1000);
    expect(linePoints([0, 5, 10], 10, 100, 50)).toBe("0,50 50,25 100,0");
    expect(linePoints([3], 10, 100, 50)).toBe("0,35");
  });

  it("says a row's 30-day figures in Russian", () => {
    expect(figuresLine({ views30: 1250, contacts30: 4 })).toBe(
      "За 30 дней: 1\u00a0250 просмотров, 4 обращения",
    );
    expect(figuresLine({ views30: 1, contacts30: 0 })).toBe("За 30 дней: 1 просмотр, 0 обращений");
  });

  it("asks the list sorted by views or contacts", () => {
    const base = { q: "", page: 1, perPage: 24, condition: "all", published: "all" } as const;
    expect(adminCarsUrl({ ...base, sort: "contacts" })).toBe(
      "/api/admin/cars?page=1&perPage=24&sort=contacts",
    );
    expect(adminCarsUrl({ ...base, sort: "newest" })).toBe("/api/admin/cars?page=1&perPage=24");
  });

  it("checks the quiet cars' settings as the server does", () => {
    expect(quietRules.quietCarDays.validate("2")).toBe(
      "Период «Смотрят, но не звонят» — от 3 до 90 дней",
    );
    expect(quietRules.quietCarDays.validate("14")).toBe(true);
    expect(quietRules.quietCarViews.validate("100 001")).toBe(
      "Порог просмотров «Смотрят, но не звонят» — от 1 до 100 000",
    );
    expect(quietRules.quietCarViews.validate("10 000")).toBe(true);
    expect(quietPatch({ quietCarDays: " 7 ", quietCarViews: "1 000" })).toEqual({
      quietCarDays: 7,
      quietCarViews: 1000,
    });
  });
});
