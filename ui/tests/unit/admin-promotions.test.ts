import { describe, expect, it } from "vitest";
import { promotionState, promotionStateClass } from "../../src/admin/lib/promotions";
import { promotionRules } from "../../src/admin/lib/rules";

describe("a promotion's last day", () => {
  const today = "2026-11-25";
  it("is over the day after it, not on it", () => {
    expect(promotionState({ isActive: true, validUntil: "2026-11-25" }, today)).toBe("Активна");
    expect(promotionState({ isActive: true, validUntil: "2026-11-24" }, today)).toBe("Закончилась");
    expect(promotionStateClass({ isActive: true, validUntil: "2026-11-24" }, today)).toBe(
      "badge-red",
    );
    expect(promotionState({ isActive: true, validUntil: "" }, today)).toBe("Активна");
    expect(promotionState({ isActive: false, validUntil: "2026-11-24" }, today)).toBe("Неактивна");
  });

  it("is a date or nothing, as the server says", () => {
    const check = promotionRules.validUntil.validate;
    expect(check("")).toBe(true);
    expect(check("2026-12-31")).toBe(true);
    expect(check("вчера")).toBe("Укажите дату окончания, например 31.12.2026");
  });
});
