import { describe, expect, it } from "vitest";
import {
  editParam,
  groupProblems,
  type Problem,
  panelHref,
  problemsText,
} from "../../src/admin/lib/checks";
import {
  axisLabel,
  callbackText,
  chartLayout,
  chartSummary,
  type DayStats,
  dayLabel,
  dayNumber,
  formatMinutes,
  HEIGHT,
  hasMissedCalls,
  type PeriodStats,
  phoneSummary,
  SLOT,
  scaleTop,
  userRows,
} from "../../src/admin/lib/responseTimes";
import {
  followersText,
  followerTotals,
  pagePath,
  type SavedSearch,
  sortSubscribers,
} from "../../src/admin/lib/savedSearches";
import {
  DEFAULT_THRESHOLD,
  THRESHOLD_MESSAGE,
  thresholdForm,
  thresholdRules,
  thresholdValue,
} from "../../src/admin/lib/settings";

describe("minutes as people read them", () => {
  it("minutes, hours and both", () => {
    expect(formatMinutes(0)).toBe("0 мин");
    expect(formatMinutes(7)).toBe("7 мин");
    expect(formatMinutes(59)).toBe("59 мин");
    expect(formatMinutes(60)).toBe("1 ч");
    expect(formatMinutes(80)).toBe("1 ч 20 мин");
    expect(formatMinutes(1501)).toBe("25 ч 1 мин");
  });

  it("a dash when there is no figure", () => {
    expect(formatMinutes(null)).toBe("—");
    expect(formatMinutes(undefined)).toBe("—");
    expect(formatMinutes(Number.NaN)).toBe("—");
  });

  it("the chart's axis labels", () => {
    expect(axisLabel(0)).toBe("0 мин");
    expect(axisLabel(45)).toBe("45 мин");
    expect(axisLabel(120)).toBe("2 ч");
    expect(axisLabel(90)).toBe("1,5 ч");
  });
});

const day = (date: string, median: number | null, p90: number | null, answered = 1): DayStats => ({
  date,
  answered: median == null ? 0 : answered,
  medianMinutes: median,
  p90Minutes: p90,
});

describe("the response chart", () => {
  it("the scale's top covers the largest figure and the threshold, in even steps", () => {
    expect(scaleTop([], 15)).toBe(20);
    expect(scaleTop([null, null], 0)).toBe(10);
    expect(scaleTop([5, 12, null], 15)).toBe(20);
    expect(scaleTop([31], 15)).toBe(40);
    expect(scaleTop([60], 15)).toBe(60);
    expect(scaleTop([61], 15)).toBe(90);
    expect(scaleTop([10], 480)).toBe(480);
    expect(scaleTop([481], 15)).toBe(960);
    expect(scaleTop([2000], 15)).toBe(2400);
  });

  it("bars in proportion to the scale, the median left of the 90th percentile", () => {
    const chart = chartLayout([day("2026-11-10", 10, 40), day("2026-11-11", 20, 30)], 15);
    expect(chart.top).toBe(40);
    expect(chart.width).toBe(2 * SLOT);
    const [first, second] = chart.days;
    expect(first?.median?.height).toBe(25);
    expect(first?.median?.y).toBe(75);
    expect(first?.p90?.height).toBe(HEIGHT);
    expect(first?.p90?.y).toBe(0);
    expect(second?.median?.height).toBe(50);
    expect(second?.p90?.height).toBe(75);
    // Side by side inside the day's slot.
    const m = first?.median;
    const p = first?.p90;
    expect(m && p && m.x + m.width).toBe(p?.x);
    expect((second?.median?.x ?? 0) >= SLOT).toBe(true);
    expect((second?.p90?.x ?? 0) + (second?.p90?.width ?? 0) <= 2 * SLOT).toBe(true);
    // Ticks at the bottom, the middle and the top; the threshold's line.
    expect(chart.ticks).toEqual([
      { minutes: 0, at: 0 },
      { minutes: 20, at: 50 },
      { minutes: 40, at: 100 },
    ]);
    expect(chart.threshold).toBe(37.5);
  });

  it("a day without answers has no bars; a 0-minute answer still shows", () => {
    const chart = chartLayout([day("2026-11-10", null, null), day("2026-11-11", 0, 0)], 15);
    expect(chart.days[0]?.median).toBeNull();
    expect(chart.days[0]?.p90).toBeNull();
    expect(chart.days[1]?.median?.height).toBeGreaterThan(0);
    expect(chart.days[1]?.median?.value).toBe(0);
  });

  it("says in words what it shows", () => {
    const daily = [
      day("2026-11-10", 5, 12, 3),
      day("2026-11-11", null, null),
      day("2026-11-23", 9, 31, 4),
    ];
    expect(chartSummary(daily, 15)).toBe(
      "Время ответа на заявки по дням с 10 ноября по 23 ноября: ответов 7; медиана за день от 5 мин до 9 мин; 90-й процентиль до 31 мин; порог 15 мин.",
    );
    expect(chartSummary([day("2026-11-10", null, null)], 15)).toBe(
      "Время ответа на заявки по дням с 10 ноября по 10 ноября: ответов не было.",
    );
    expect(chartSummary([day("2026-11-10", 80, 80)], 15)).toContain("медиана за день 1 ч 20 мин");
  });

  it("day labels", () => {
    expect(dayLabel("2026-11-01")).toBe("1 ноября");
    expect(dayNumber("2026-11-01")).toBe("1");
    expect(dayNumber("2026-11-23")).toBe("23");
  });
});

describe("response figures per staff user", () => {
  const stats = (answered: number, median: number | null, p90: number | null) => ({
    answered,
    medianMinutes: median,
    p90Minutes: p90,
    missedCalls: { missed: 0, calledBack: 0, inTime: 0 },
  });
  const phone = { calls: 0, missedCalls: 0, missed: 0, calledBack: 0, inTime: 0 };
  const periods: PeriodStats[] = [
    {
      period: "today",
      from: "2026-11-23",
      to: "2026-11-23",
      all: stats(1, 4, 4),
      phone,
      users: [{ username: "manager", ...stats(1, 4, 4) }],
    },
    {
      period: "thisWeek",
      from: "2026-11-23",
      to: "2026-11-29",
      all: stats(3, 5, 12),
      phone,
      users: [
        { username: "manager", ...stats(2, 4, 12) },
        { username: "anna", ...stats(1, 6, 6) },
      ],
    },
    {
      period: "lastWeek",
      from: "2026-11-16",
      to: "2026-11-22",
      all: stats(0, null, null),
      phone,
      users: [],
    },
  ];

  it("every user of any period, by name, with their figures or null", () => {
    const rows = userRows(periods);
    expect(rows.map((r) => r.username)).toEqual(["anna", "manager"]);
    expect(rows[0]?.periods.today).toBeNull();
    expect(rows[0]?.periods.thisWeek?.medianMinutes).toBe(6);
    expect(rows[1]?.periods.today?.answered).toBe(1);
    expect(rows[1]?.periods.lastWeek).toBeNull();
  });

  it("a period's calls in a line, and missed calls called back", () => {
    expect(phoneSummary(phone)).toBeNull();
    expect(phoneSummary({ ...phone, calls: 5, missedCalls: 0 })).toBe("Звонков: 5, пропущено: 0");
    const missed = { calls: 4, missedCalls: 3, missed: 3, calledBack: 2, inTime: 1 };
    expect(phoneSummary(missed)).toBe("Звонков: 4, пропущено: 3. Перезвонили 2 из 3, вовремя 1");
    // A missed call joined to an open lead is a missed call without a
    // call-back lead of its own.
    expect(phoneSummary({ ...phone, calls: 1, missedCalls: 1 })).toBe("Звонков: 1, пропущено: 1");
    expect(callbackText(undefined)).toBe("—");
    expect(callbackText({ missed: 0, calledBack: 0, inTime: 0 })).toBe("—");
    expect(callbackText({ missed: 2, calledBack: 1, inTime: 0 })).toBe(
      "Перезвонили 1 из 2, вовремя 0",
    );
    expect(hasMissedCalls(periods)).toBe(false);
    const withMissed = periods.map((p, i) => (i === 2 ? { ...p, phone: missed } : p));
    expect(hasMissedCalls(withMissed)).toBe(true);
  });
});

const problem = (check: Problem["check"], severity: Problem["severity"], id: string): Problem => ({
  check,
  severity,
  title: check,
  detail: "",
  link: `/admin/cars?edit=${id}`,
  objectId: id,
});

describe("self-checks", () => {
  it("groups errors first, then warnings, keeping the server's order", () => {
    const groups = groupProblems([
      problem("promotion_ending", "warning", "p1"),
      problem("car_zero_price", "error", "c1"),
      problem("car_without_vin", "warning", "c2"),
      problem("bank_without_psk", "error", "b1"),
    ]);
    expect(groups.map((g) => [g.title, g.problems.map((p) => p.objectId)])).toEqual([
      ["Ошибки", ["c1", "b1"]],
      ["Предупреждения", ["p1", "c2"]],
    ]);
  });

  it("leaves out an empty group", () => {
    expect(
      groupProblems([problem("promotion_ending", "warning", "p1")]).map((g) => g.severity),
    ).toEqual(["warning"]);
    expect(groupProblems([])).toEqual([]);
  });

  it("links inside the panel", () => {
    expect(panelHref("/admin/promotions?edit=abc")).toBe("/promotions?edit=abc");
    expect(panelHref("/admin/settings#consent")).toBe("/settings#consent");
    expect(panelHref("/admin")).toBe("/");
    expect(panelHref("/administrator")).toBe("~/administrator");
    expect(panelHref("/privacy")).toBe("~/privacy");
  });

  it("reads ?edit=", () => {
    expect(editParam("?edit=abc")).toBe("abc");
    expect(editParam("edit=a%20b")).toBe("a b");
    expect(editParam("?edit=")).toBeNull();
    expect(editParam("")).toBeNull();
  });

  it("counts problems in Russian", () => {
    expect(problemsText(1)).toBe("1 проблема");
    expect(problemsText(3)).toBe("3 проблемы");
    expect(problemsText(5)).toBe("5 проблем");
    expect(problemsText(11)).toBe("11 проблем");
    expect(problemsText(21)).toBe("21 проблема");
  });
});

describe("followers of saved searches", () => {
  const search = (followers: number, pending: number): SavedSearch => ({
    id: "s",
    filter: { status: "new" },
    description: "Новые",
    pageUrl: "https://site.ru/new-cars",
    followers,
    pending,
    subscribers: [],
  });

  it("says how many follow and wait", () => {
    expect(followersText(1, 0)).toBe("1 подписчик");
    expect(followersText(3, 1)).toBe("3 подписчика, 1 ждёт подтверждения");
    expect(followersText(5, 2)).toBe("5 подписчиков, 2 ждут подтверждения");
    expect(followersText(0, 5)).toBe("0 подписчиков, 5 ждут подтверждения");
  });

  it("adds up every filter", () => {
    expect(followerTotals([search(3, 1), search(2, 0)])).toEqual({ followers: 5, pending: 1 });
    expect(followerTotals([])).toEqual({ followers: 0, pending: 0 });
  });

  it("confirmed subscribers first, the newest first", () => {
    const sorted = sortSubscribers([
      { email: "p@x.ru", createdAt: "2026-11-23T10:00:00Z", confirmedAt: null, lastAlertAt: null },
      {
        email: "old@x.ru",
        createdAt: "2026-11-01T10:00:00Z",
        confirmedAt: "2026-11-01T10:05:00Z",
        lastAlertAt: null,
      },
      {
        email: "new@x.ru",
        createdAt: "2026-11-20T10:00:00Z",
        confirmedAt: "2026-11-20T10:05:00Z",
        lastAlertAt: null,
      },
    ]);
    expect(sorted.map((s) => s.email)).toEqual(["new@x.ru", "old@x.ru", "p@x.ru"]);
  });

  it("links the filter's page on this site, never a script", () => {
    expect(pagePath("https://site.ru/new-cars?brand=haval&price=3000000")).toBe(
      "/new-cars?brand=haval&price=3000000",
    );
    expect(pagePath("/used-cars")).toBe("/used-cars");
    expect(pagePath("javascript:alert(1)")).toBeNull();
  });
});

describe("the response threshold setting", () => {
  it("whole minutes from 1 to 480", () => {
    expect(thresholdValue("15")).toBe(15);
    expect(thresholdValue(" 1 ")).toBe(1);
    expect(thresholdValue("480")).toBe(480);
    expect(thresholdValue("0")).toBeNull();
    expect(thresholdValue("481")).toBeNull();
    expect(thresholdValue("7.5")).toBeNull();
    expect(thresholdValue("")).toBeNull();
    expect(thresholdValue("-3")).toBeNull();
  });

  it("refuses with the server's words; the form starts from the saved or the default", () => {
    expect(thresholdRules.validate("481")).toBe(THRESHOLD_MESSAGE);
    expect(thresholdRules.validate("30")).toBe(true);
    expect(THRESHOLD_MESSAGE).toBe("Порог ответа — от 1 до 480 минут");
    expect(thresholdForm(30)).toBe("30");
    expect(thresholdForm(undefined)).toBe(String(DEFAULT_THRESHOLD));
  });
});
