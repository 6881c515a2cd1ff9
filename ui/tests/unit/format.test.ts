import { describe, expect, it } from "vitest";
import {
  dailyPrice,
  formatDate,
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
