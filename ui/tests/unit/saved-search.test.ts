// Saved searches (issue 15): the filter a catalogue page follows is its own
// API query's; the filters in words; the form's checks with the server's
// messages; the request body; the links' token and the way back to the page.
import { describe, expect, it } from "vitest";
import type { BrandBrief, SearchFilter } from "../../src/api/types";
import { carsCount } from "../../src/api/urls";
import { type CatalogueScope, catalogueQuery } from "../../src/lib/catalogue";
import { isEmail } from "../../src/lib/email";
import { parseFilters } from "../../src/lib/filters";
import { CONSENT_REQUIRED } from "../../src/lib/leads";
import {
  ADVERTISING_REQUIRED,
  confirmationSent,
  describeFilter,
  EMAIL_INVALID,
  savedSearchFilter,
  subscribeErrors,
  subscribeRequest,
} from "../../src/lib/savedSearch";
import { catalogueLink, linkToken } from "../../src/lib/savedSearchLink";

const brands: BrandBrief[] = [
  { id: "b-haval", slug: "haval", name: "Haval", logo: "", carCount: 3 },
  { id: "b-geely", slug: "geely", name: "Geely", logo: "", carCount: 2 },
];

/** The dealership's body-type table: the seeded six and one of its own. */
const bodyTypes = ["sedan", "crossover", "wagon", "pickup", "minivan"].map((bodyType) => ({
  bodyType,
}));

/** The filter a page URL follows, as the catalogue layout builds it. */
const follow = (scope: CatalogueScope, search: string) =>
  savedSearchFilter(catalogueQuery(scope, parseFilters(search), brands, bodyTypes));

/** The API's count URL of a filter: the same parameters in the same order. */
const countUrl = (f: SearchFilter) =>
  carsCount({
    status: f.status ? [f.status] : [],
    brandId: f.brandId ?? null,
    bodyType: f.bodyType ?? null,
    maxPrice: f.maxPrice ?? null,
    sort: null,
  });

describe("the filter a catalogue page follows", () => {
  it("is the catalogue's own API filter: status, brand id, body type, price", () => {
    expect(follow({ kind: "new" }, "?brand=haval&price=3000000")).toEqual({
      status: "new",
      brandId: "b-haval",
      maxPrice: 3_000_000,
    });
    expect(follow({ kind: "used" }, "?body=crossover&brand=geely")).toEqual({
      status: "used",
      brandId: "b-geely",
      bodyType: "crossover",
    });
    expect(follow({ kind: "body", code: "sedan" }, "?condition=used&price=1250000")).toEqual({
      status: "used",
      bodyType: "sedan",
      maxPrice: 1_300_000,
    });
  });

  it("leaves out what filters nothing: Все, any price, an unknown brand, the page", () => {
    expect(follow({ kind: "body", code: "pickup" }, "")).toEqual({ bodyType: "pickup" });
    expect(follow({ kind: "new" }, "?price=10000000&page=3")).toEqual({ status: "new" });
    expect(follow({ kind: "new" }, "?brand=nope")).toEqual({ status: "new" });
    expect(follow({ kind: "new" }, "?body=tank")).toEqual({ status: "new" });
    expect(follow({ kind: "new" }, "?price=12e5")).toEqual({ status: "new" });
  });

  it("asks for exactly what the page's count asks for", () => {
    for (const [scope, search] of [
      [{ kind: "new" }, "?brand=haval&body=crossover&price=2000000&page=2"],
      [{ kind: "used" }, "?price=700000"],
      [{ kind: "body", code: "wagon" }, "?condition=new&brand=geely"],
      [{ kind: "body", code: "wagon" }, ""],
    ] as [CatalogueScope, string][]) {
      const query = catalogueQuery(scope, parseFilters(search), brands, bodyTypes);
      expect(countUrl(savedSearchFilter(query))).toBe(carsCount(query));
    }
  });

  it("a query of several statuses follows every status", () => {
    expect(
      savedSearchFilter({
        status: ["new", "used"],
        brandId: null,
        bodyType: null,
        maxPrice: null,
        sort: "price_asc",
      }),
    ).toEqual({});
  });
});

describe("the filters in words", () => {
  const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

  it("status, brand, body type and price, in the server's order", () => {
    expect(
      nbsp(describeFilter({ status: "new", brandId: "b-haval", maxPrice: 3_000_000 }, brands)),
    ).toBe("Новые · Haval · до 3 000 000 ₽");
    expect(
      describeFilter({ status: "used", bodyType: "crossover", brandId: "b-geely" }, brands),
    ).toBe("С пробегом · Geely · Кроссовер");
  });

  it("names the body type by the table's singular label, or the default one", () => {
    expect(describeFilter({ bodyType: "coupe" }, brands, "Купе")).toBe("Купе");
    expect(describeFilter({ bodyType: "coupe" }, brands)).toBe("Внедорожник");
    expect(describeFilter({ status: "lease" }, brands)).toBe("Аренда с выкупом");
  });

  it("follows a body type of the dealership's own, named by the table or its code", () => {
    expect(follow({ kind: "used" }, "?body=minivan")).toEqual({
      status: "used",
      bodyType: "minivan",
    });
    expect(describeFilter({ status: "used", bodyType: "minivan" }, brands, "Минивэн")).toBe(
      "С пробегом · Минивэн",
    );
    expect(describeFilter({ bodyType: "minivan" }, brands)).toBe("minivan");
  });

  it("an unknown brand is left out; no filter at all is every car", () => {
    expect(describeFilter({ status: "new", brandId: "gone" }, brands)).toBe("Новые");
    expect(describeFilter({}, brands)).toBe("Все автомобили");
  });
});

describe("the form's checks", () => {
  const ok = { email: "ivan@example.ru", consent: true, advertisingConsent: true };

  it("passes a filled form", () => {
    expect(subscribeErrors(ok)).toEqual({});
    expect(subscribeErrors({ ...ok, email: "  ivan@example.ru " })).toEqual({});
  });

  it("an empty form: every field with the server's message, in the form's order", () => {
    const errors = subscribeErrors({ email: "", consent: false, advertisingConsent: false });
    expect(errors).toEqual({
      email: "Укажите корректный e-mail",
      consent: "Необходимо согласие на обработку персональных данных",
      advertisingConsent: "Необходимо согласие на получение рекламных рассылок",
    });
    expect(Object.keys(errors)).toEqual(["email", "consent", "advertisingConsent"]);
    expect([EMAIL_INVALID, CONSENT_REQUIRED, ADVERTISING_REQUIRED]).toEqual(Object.values(errors));
  });

  it("refuses an address the server refuses", () => {
    for (const bad of ["ivan", "ivan@mail", "@mail.ru", "a@@mail.ru", "iv an@mail.ru", "a@.ru"]) {
      expect(subscribeErrors({ ...ok, email: bad })).toEqual({ email: EMAIL_INVALID });
      expect(isEmail(bad)).toBe(false);
    }
  });

  it("the advertising consent is required on its own", () => {
    expect(subscribeErrors({ ...ok, advertisingConsent: false })).toEqual({
      advertisingConsent: ADVERTISING_REQUIRED,
    });
    expect(subscribeErrors({ ...ok, consent: false })).toEqual({ consent: CONSENT_REQUIRED });
  });
});

describe("the request", () => {
  it("carries the trimmed address, the filter, the page, both consents and the honeypot", () => {
    const filter = { status: "new", brandId: "b-haval", maxPrice: 3_000_000 } as const;
    const url = "https://dealer.example/new-cars?brand=haval&price=3000000";
    expect(
      subscribeRequest(
        { email: " a@b.ru ", consent: true, advertisingConsent: true },
        filter,
        url,
        "",
      ),
    ).toEqual({
      email: "a@b.ru",
      filter: { status: "new", brandId: "b-haval", maxPrice: 3_000_000 },
      pageUrl: url,
      consent: true,
      advertisingConsent: true,
      website: "",
    });
  });

  it("what the dialog says once sent", () => {
    expect(confirmationSent("a@b.ru")).toBe(
      "Мы отправили письмо на a@b.ru. Подтвердите подписку по ссылке из письма.",
    );
  });
});

describe("the confirm and unsubscribe links", () => {
  it("read the token; a missing or empty one is none", () => {
    expect(linkToken("?token=abc-123")).toBe("abc-123");
    expect(linkToken("token=x%2By")).toBe("x+y");
    expect(linkToken("")).toBeNull();
    expect(linkToken("?token=")).toBeNull();
    expect(linkToken("?token=%20")).toBeNull();
    expect(linkToken("?other=1")).toBeNull();
  });

  it("lead back to the followed page on this site only", () => {
    const origin = "https://dealer.example";
    expect(
      catalogueLink("https://dealer.example/new-cars?brand=haval#x", origin, "/new-cars"),
    ).toBe("/new-cars?brand=haval");
    expect(catalogueLink("/used-cars?price=900000", origin, "/new-cars")).toBe(
      "/used-cars?price=900000",
    );
    expect(catalogueLink("https://evil.example/new-cars", origin, "/new-cars")).toBe("/new-cars");
    expect(catalogueLink("javascript:alert(1)", origin, "/new-cars")).toBe("/new-cars");
    expect(catalogueLink("http://[bad", origin, "/new-cars")).toBe("/new-cars");
  });
});
