import { describe, expect, it } from "vitest";
import {
  dailyPrice,
  decimal,
  formatDate,
  formatDateTime,
  formatNumber,
  formatPrice,
  foundCars,
  fromPrice,
  monthlyPrice,
  plural,
  shortPrice,
  toRubles,
} from "../../src/lib/format";

/** Intl puts a (narrow) no-break space between groups. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formats", () => {
  it("prints rubles the Russian way", () => {
    expect(plain(formatPrice("2500000.00"))).toBe("2 500 000 ₽");
    expect(plain(fromPrice("2500000.00"))).toBe("от 2 500 000 ₽");
    expect(plain(monthlyPrice("45000.50"))).toBe("от 45 000 ₽/мес");
    expect(plain(dailyPrice(3500))).toBe("3 500 ₽/сут");
    expect(toRubles("1750000.99")).toBe(1750000);
    expect(toRubles(null)).toBeNull();
  });

  it("prints dates in Russian", () => {
    expect(formatDate("2026-11-22T10:00:00.000Z")).toMatch(/22 ноября 2026/);
    expect(formatDate("до конца месяца")).toBe("до конца месяца");
  });

  it("chooses Russian plural forms", () => {
    const forms: [string, string, string] = ["автомобиль", "автомобиля", "автомобилей"];
    const cases: [number, string][] = [
      [0, "автомобилей"],
      [1, "автомобиль"],
      [2, "автомобиля"],
      [4, "автомобиля"],
      [5, "автомобилей"],
      [11, "автомобилей"],
      [12, "автомобилей"],
      [14, "автомобилей"],
      [21, "автомобиль"],
      [22, "автомобиля"],
      [25, "автомобилей"],
      [101, "автомобиль"],
      [111, "автомобилей"],
    ];
    for (const [n, form] of cases) expect(plural(n, forms)).toBe(form);
    expect(foundCars(21)).toBe("Найдено: 21 автомобиль");
    expect(foundCars(3)).toBe("Найдено: 3 автомобиля");
    expect(foundCars(0)).toBe("Найдено: 0 автомобилей");
  });

  it("labels the price slider ends", () => {
    expect(shortPrice(500_000)).toBe("500 тыс.");
    expect(shortPrice(10_000_000)).toBe("10 млн.");
    expect(shortPrice(2_500_000)).toBe("2,5 млн.");
  });
});

// The server draws pages in QuickJS, which has no Intl: the UI spells numbers
// and dates itself, and must spell them as Chrome's ru-RU Intl does.
describe("spelled without Intl, as ru-RU Intl spells them", () => {
  const values = [
    0, 1, 5, 999, 1000, 9999, 10000, 12345, 99999, 100000, 999999, 1000000, 2500000, 12345678,
    1234567890, 0.4, 0.5, 2.5, 1234.5, 1750000.5, -5, -2500.5, -1234567,
  ];

  it("whole numbers", () => {
    const intl = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 0 });
    for (const v of values) expect(formatNumber(v)).toBe(intl.format(v));
  });

  it("kopecks and percents", () => {
    const two = new Intl.NumberFormat("ru-RU", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const upTo3 = new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 3 });
    for (const v of [...values, 22244.45, 0.005, 1234.565, 5.9, 12.3456, 27.5, 0.0005, 16.999]) {
      expect(decimal(v, 2, 2)).toBe(two.format(v));
      expect(decimal(v, 0, 3)).toBe(upTo3.format(v));
    }
  });

  it("dates and moments in Moscow", () => {
    const date = new Intl.DateTimeFormat("ru-RU", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "Europe/Moscow",
    });
    const moment = new Intl.DateTimeFormat("ru-RU", {
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "Europe/Moscow",
    });
    // Every month, both sides of midnight in Moscow, and a day's last minute.
    for (let month = 0; month < 12; month++) {
      for (const at of [
        Date.UTC(2026, month, 1, 0, 0),
        Date.UTC(2026, month, 9, 20, 59),
        Date.UTC(2026, month, 9, 21, 0),
        Date.UTC(2027, month, 28, 23, 59),
      ]) {
        const iso = new Date(at).toISOString();
        expect(formatDate(iso)).toBe(date.format(new Date(at)));
        expect(formatDateTime(iso)).toBe(moment.format(new Date(at)));
      }
      const day = `2026-${String(month + 1).padStart(2, "0")}-15`;
      expect(formatDate(day)).toBe(date.format(new Date(day)));
    }
  });
});
