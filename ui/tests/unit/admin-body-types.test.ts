// The body-types screen: a new type's code (the server's shape, not one the
// list has), what the add form sends, and which types may be deleted.
import { describe, expect, it } from "vitest";
import {
  BODY_TYPE_CODE_INVALID,
  BODY_TYPE_EXISTS,
  bodyTypeCodeRule,
  bodyTypeCreatePayload,
  canDelete,
  deleteMessage,
} from "../../src/admin/lib/bodyTypes";

const existing = [{ bodyType: "sedan" }, { bodyType: "minivan" }];

describe("a new body type's code", () => {
  const rule = bodyTypeCodeRule(existing);

  it("takes latin letters, digits and single hyphens, up to 50", () => {
    expect(rule("liftback")).toBe(true);
    expect(rule("pickup-2")).toBe(true);
    expect(rule("a".repeat(50))).toBe(true);
    expect(rule("  Cabriolet ")).toBe(true);
    for (const bad of ["", "  ", "кабриолет", "mini van", "mini_van", "-van", "van-", "a--b"]) {
      expect(rule(bad), bad).toBe(BODY_TYPE_CODE_INVALID);
    }
    expect(rule("a".repeat(51))).toBe(BODY_TYPE_CODE_INVALID);
  });

  it("refuses a code the list has already, whatever its case", () => {
    expect(rule("minivan")).toBe(BODY_TYPE_EXISTS);
    expect(rule(" Sedan")).toBe(BODY_TYPE_EXISTS);
    expect(BODY_TYPE_EXISTS).toBe("Такой тип кузова уже есть");
  });
});

describe("the add form's request", () => {
  it("sends the code in lower case and the names trimmed, banners only when chosen", () => {
    expect(
      bodyTypeCreatePayload({
        bodyType: " Liftback ",
        labelPlural: " Лифтбеки ",
        labelSingle: "Лифтбек",
        imageUrl: "",
        imageUrlMobile: "",
      }),
    ).toEqual({ bodyType: "liftback", labelPlural: "Лифтбеки", labelSingle: "Лифтбек" });
    expect(
      bodyTypeCreatePayload({
        bodyType: "van",
        labelPlural: "Фургоны",
        labelSingle: "Фургон",
        imageUrl: "/media/a.webp",
        imageUrlMobile: "/media/b.webp",
      }),
    ).toEqual({
      bodyType: "van",
      labelPlural: "Фургоны",
      labelSingle: "Фургон",
      imageUrl: "/media/a.webp",
      imageUrlMobile: "/media/b.webp",
    });
  });
});

describe("deleting", () => {
  it("is offered only for a type that is not built in, and names its page", () => {
    expect(canDelete({ builtIn: true })).toBe(false);
    expect(canDelete({ builtIn: false })).toBe(true);
    expect(deleteMessage({ bodyType: "van", labelPlural: "Фургоны" })).toBe(
      "Тип кузова «Фургоны» будет удалён, страница /body-type/van перестанет открываться.",
    );
  });
});
