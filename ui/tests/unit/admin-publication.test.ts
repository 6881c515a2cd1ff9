// Publishing many cars in /admin/cars: the selection kept to the page, the
// bar's words and the answer's (src/admin/lib/publication.ts).
import { describe, expect, it } from "vitest";
import {
  chosenOnPage,
  chosenText,
  pageChoice,
  publicationBody,
  publicationText,
  toggled,
} from "../../src/admin/lib/publication";

describe("the chosen cars", () => {
  it("keeps to the cars on the page, in its order", () => {
    const chosen = toggled(toggled(new Set(["gone"]), "b", true), "a", true);
    expect(chosenOnPage(chosen, ["a", "b", "c"])).toEqual(["a", "b"]);
    expect(chosenOnPage(toggled(chosen, "a", false), ["a", "b", "c"])).toEqual(["b"]);
  });

  it("says whether the page is chosen all, in part or not at all", () => {
    expect(pageChoice(0, 24)).toBe("none");
    expect(pageChoice(3, 24)).toBe("some");
    expect(pageChoice(24, 24)).toBe("all");
  });

  it("names how many are chosen", () => {
    expect(chosenText(1)).toBe("Выбрано: 1 автомобиль");
    expect(chosenText(3)).toBe("Выбрано: 3 автомобиля");
    expect(chosenText(24)).toBe("Выбрано: 24 автомобиля");
    expect(chosenText(11)).toBe("Выбрано: 11 автомобилей");
    expect(chosenText(0)).toMatch(/^Отметьте автомобили/);
  });

  it("sends the ids and the publication asked", () => {
    expect(publicationBody(new Set(["a", "b"]), false)).toEqual({
      ids: ["a", "b"],
      published: false,
    });
  });
});

describe("the answer", () => {
  it("says how many changed and how many already were so", () => {
    expect(publicationText({ changedCount: 3, unchangedCount: 0 }, true)).toBe(
      "Опубликовано: 3 автомобиля",
    );
    expect(publicationText({ changedCount: 1, unchangedCount: 2 }, true)).toBe(
      "Опубликовано: 1 автомобиль; уже были опубликованы: 2",
    );
    expect(publicationText({ changedCount: 5, unchangedCount: 1 }, false)).toBe(
      "Снято с публикации: 5 автомобилей; уже были черновиками: 1",
    );
  });
});
