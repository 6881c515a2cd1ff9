import { describe, expect, it } from "vitest";
import { legalParagraphs } from "../../src/lib/legalText";

const TITLE = "Политика обработки персональных данных";

describe("a legal page's paragraphs", () => {
  it("leave out a first paragraph that repeats the page's title", () => {
    expect(
      legalParagraphs(TITLE, `${TITLE}\n\n1. Настоящая политика…\n\n2. Мы обрабатываем…`),
    ).toEqual(["1. Настоящая политика…", "2. Мы обрабатываем…"]);
    expect(legalParagraphs(TITLE, "ПОЛИТИКА ОБРАБОТКИ  ПЕРСОНАЛЬНЫХ ДАННЫХ.\n\nТекст")).toEqual([
      "Текст",
    ]);
  });

  it("keep a first paragraph that says more than the title", () => {
    expect(legalParagraphs(TITLE, `${TITLE} ООО «Ромашка»\n\nТекст\n\n\n`)).toEqual([
      `${TITLE} ООО «Ромашка»`,
      "Текст",
    ]);
  });
});
