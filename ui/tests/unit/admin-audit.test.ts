import { describe, expect, it } from "vitest";
import { changeLine, fieldLabel, listedChanges, valueLabel } from "../../src/admin/lib/audit";
import { LEAD_STATUS_LABELS } from "../../src/admin/lib/leads";
import { STATUS_LABELS } from "../../src/lib/labels";

/** Intl puts (narrow) no-break spaces in places. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const change = (field: string, from: string | null, to: string | null) => ({ field, from, to });

describe("the audit trail in the panel's words", () => {
  it("says a lead's status by the leads screen's names", () => {
    expect(changeLine("lead", change("status", "new", "in_progress"))).toBe(
      "Статус: Новый → В работе",
    );
    expect(changeLine("lead", change("status", "completed", "cancelled"))).toBe(
      "Статус: Завершён → Отменён",
    );
    expect(valueLabel("lead", "status", "in_progress")).toBe(LEAD_STATUS_LABELS.in_progress);
  });

  it("says a car's condition, fuel, gearbox and drive by name", () => {
    expect(changeLine("car", change("status", "new", "used"))).toBe(
      "Состояние: Новый → С пробегом",
    );
    expect(valueLabel("car", "status", "lease")).toBe(STATUS_LABELS.lease);
    expect(changeLine("car", change("fuelType", "gasoline", "diesel"))).toBe(
      "Топливо: Бензин → Дизель",
    );
    expect(changeLine("car", change("transmission", "manual", "cvt"))).toBe(
      "Коробка передач: Механика → Вариатор",
    );
    expect(changeLine("car", change("drivetrain", null, "all"))).toBe("Привод: — → Полный");
    expect(changeLine("car", change("published", "false", "true"))).toBe(
      "Публикация: Черновик → Опубликован",
    );
    expect(changeLine("car", change("inStock", "true", "false"))).toBe("В наличии: Да → Нет");
  });

  it("says a body type by the dealership's table, or by the six defaults", () => {
    const types = [{ bodyType: "minivan", labelPlural: "Минивэны", labelSingle: "Минивэн" }];
    expect(changeLine("car", change("bodyType", "sedan", "minivan"), types)).toBe(
      "Тип кузова: Седан → Минивэн",
    );
    // Without the table: the default names, another code as it is.
    expect(changeLine("car", change("bodyType", "crossover", "minivan"))).toBe(
      "Тип кузова: Кроссовер → minivan",
    );
  });

  it("says a review's moderation as the reviews screen does", () => {
    expect(changeLine("review", change("approved", "false", "true"))).toBe(
      "Статус: На модерации → Одобрен",
    );
  });

  it("writes money in rubles, the mileage in km, a list by its length", () => {
    expect(plain(changeLine("car", change("price", "2500000.00", "2400000.00")))).toBe(
      "Цена: 2 500 000 ₽ → 2 400 000 ₽",
    );
    expect(plain(changeLine("car", change("mileage", "15000", "16500")))).toBe(
      "Пробег: 15 000 км → 16 500 км",
    );
    expect(changeLine("car", change("images", '["/a.webp"]', '["/a.webp","/b.webp"]'))).toBe(
      "Фото: 1 шт. → 2 шт.",
    );
    expect(changeLine("car", change("images", "[]", '["/a.webp"]'))).toBe("Фото: — → 1 шт.");
  });

  it("names the import's counts and the settings' fields", () => {
    expect(changeLine("import", change("new", null, "3"))).toBe("Добавлены: — → 3");
    expect(changeLine("import", change("gone", null, "1"))).toBe("Сняты с публикации: — → 1");
    expect(fieldLabel("settings", "salonName")).toBe("Название салона");
    expect(fieldLabel("banner", "homeBannerMobile")).toBe("Главная страница: баннер для телефона");
    expect(changeLine("settings", change("emailNotificationsEnabled", "false", "true"))).toBe(
      "Уведомления по e-mail: Нет → Да",
    );
  });

  it("keeps a field or value it does not know as it is", () => {
    expect(changeLine("car", change("somethingNew", "a", "b"))).toBe("somethingNew: a → b");
    expect(changeLine("promotion", change("title", "Весна", "Лето"))).toBe(
      "Заголовок: Весна → Лето",
    );
    expect(valueLabel("car", "status", "unknown")).toBe("unknown");
    expect(valueLabel("car", "name", "  ")).toBe("—");
    expect(valueLabel("car", "description", "[не список")).toBe("[не список");
  });

  it("says the operator's fields and the analytics switch by name", () => {
    expect(changeLine("settings", change("operatorInn", "7810453273", "7707083893"))).toBe(
      "ИНН оператора: 7810453273 → 7707083893",
    );
    expect(changeLine("settings", change("operatorOgrn", "", "1027700132195"))).toBe(
      "ОГРН оператора: — → 1027700132195",
    );
    expect(fieldLabel("settings", "operatorName")).toBe("Полное наименование оператора");
    expect(fieldLabel("settings", "operatorAddress")).toBe("Юридический адрес оператора");
    expect(changeLine("settings", change("googleAnalyticsEnabled", "false", "true"))).toBe(
      "Google Analytics включён: Нет → Да",
    );
  });
});

describe("the latest changes", () => {
  it("does not say a status change twice", () => {
    const status = {
      action: "status",
      changes: [{ field: "status", from: "new", to: "in_progress" }],
    } as never;
    expect(listedChanges(status)).toEqual([]);
    const update = {
      action: "update",
      changes: Array.from({ length: 8 }, (_, i) => ({ field: `f${i}`, from: "a", to: "b" })),
    } as never;
    expect(listedChanges(update)).toHaveLength(6);
  });
});
