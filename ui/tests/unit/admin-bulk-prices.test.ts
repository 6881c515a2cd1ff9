import { describe, expect, it } from "vitest";
import { bulkBody, bulkQuestion, bulkScope, undoneText } from "../../src/admin/lib/bulkPrices";

const ALL = { q: "", condition: "all", published: "all" } as const;

describe("the bulk price change says what it will touch", () => {
  it("names the list's search and filters as the server's summary does", () => {
    expect(bulkScope(ALL)).toBe("");
    expect(bulkScope({ q: " lada ", condition: "used", published: "false" })).toBe(
      "поиск «lada», с пробегом, черновики",
    );
    expect(bulkScope({ ...ALL, published: "true" })).toBe("опубликованные");
  });

  it("sends the filters only when they filter", () => {
    expect(bulkBody("1.05", ALL)).toEqual({ priceMultiplier: "1.05" });
    expect(bulkBody("0.9", { q: " Веста ", condition: "new", published: "true" })).toEqual({
      priceMultiplier: "0.9",
      q: "Веста",
      condition: "new",
      published: "true",
    });
  });

  it("asks with the way, the percent, the count and the scope", () => {
    expect(bulkQuestion("raise", "5", 128, "")).toEqual({
      title: "Повысить цены на 5%?",
      message:
        "Изменятся цены всех автомобилей: 128 автомобилей. Изменение можно будет отменить одной кнопкой.",
      confirmLabel: "Повысить цены",
    });
    const lower = bulkQuestion("lower", "2.5", 21, "с пробегом");
    expect(lower.title).toBe("Понизить цены на 2,5%?");
    expect(lower.message).toMatch(
      /^Изменятся цены 21 автомобиль, которые найдены в списке: с пробегом\./,
    );
  });

  it("says what an undo put back and what it left", () => {
    expect(undoneText({ restoredCount: 3, skippedCount: 0 })).toBe("Цены возвращены: 3 автомобиля");
    expect(undoneText({ restoredCount: 11, skippedCount: 1 })).toBe(
      "Цены возвращены: 11 автомобилей. Не тронуты (цена менялась с тех пор): 1 автомобиль",
    );
  });
});
