import { describe, expect, it } from "vitest";
import {
  BAD_INN,
  BAD_OGRN,
  isInn,
  isOgrn,
  OPERATOR_FIELDS,
  OPERATOR_HINT,
  operatorFocus,
  operatorRules,
  PLACEHOLDERS,
} from "../../src/admin/lib/operator";
import {
  COMPANY_FORM_FIELDS,
  companyForm,
  companyPatch,
  type SettingsPatch,
} from "../../src/admin/lib/settings";

describe("ИНН with its control digits", () => {
  it("takes published organisations' numbers", () => {
    // ПАО «Сбербанк», ООО «Яндекс».
    expect(isInn("7707083893")).toBe(true);
    expect(isInn("7736207543")).toBe(true);
    // The demo dealer's.
    expect(isInn("7810453273")).toBe(true);
  });

  it("refuses a wrong control digit", () => {
    expect(isInn("7707083894")).toBe(false);
  });

  it("checks both control digits of a person's 12", () => {
    expect(isInn("500100732259")).toBe(true);
    expect(isInn("500100732258")).toBe(false);
    // The 11th digit wrong, the 12th then checked over it.
    expect(isInn("500100732269")).toBe(false);
  });

  it("takes only 10 or 12 digits and nothing else", () => {
    for (const text of [
      "",
      "77070838",
      "77070838930",
      "7707 083893",
      " 7707083893",
      "770708389a",
      "７７０７０８３８９３",
      "-707083893",
      "7707083893.",
    ]) {
      expect(isInn(text), text).toBe(false);
    }
  });
});

describe("ОГРН and ОГРНИП with the control digit", () => {
  it("takes a published ОГРН and refuses a wrong last digit", () => {
    expect(isOgrn("1027700132195")).toBe(true);
    // The demo dealer's.
    expect(isOgrn("1177847123453")).toBe(true);
    expect(isOgrn("1027700229193")).toBe(true);
    expect(isOgrn("1027700132196")).toBe(false);
  });

  it("takes an ОГРНИП (15 digits, modulo 13) and refuses a wrong one", () => {
    expect(isOgrn("304500116000157")).toBe(true);
    expect(isOgrn("304500116000158")).toBe(false);
  });

  it("agrees with BigInt arithmetic on every last digit", () => {
    for (const body of ["102770013219", "117784712345", "30450011600015", "99999999999999"]) {
      const modulus = body.length === 12 ? 11n : 13n;
      const right = Number((BigInt(body) % modulus) % 10n);
      for (let d = 0; d <= 9; d++) expect(isOgrn(`${body}${d}`), `${body}${d}`).toBe(d === right);
    }
  });

  it("takes only 13 or 15 digits", () => {
    for (const text of ["", "10277001321", "10277001321950", "1027700 132195", "1O27700132195"]) {
      expect(isOgrn(text), text).toBe(false);
    }
  });
});

describe("the operator's form rules", () => {
  const check = (field: keyof typeof operatorRules, value: string) =>
    operatorRules[field].validate(value);

  it("lets every field be empty (the self-check flags it)", () => {
    for (const f of OPERATOR_FIELDS) {
      expect(check(f, "")).toBe(true);
      expect(check(f, "  ")).toBe(true);
    }
  });

  it("says the server's words for a wrong ИНН or ОГРН", () => {
    expect(check("operatorInn", "7707083894")).toBe(BAD_INN);
    expect(check("operatorInn", "7707-083893")).toBe(BAD_INN);
    expect(check("operatorInn", " 7707083893 ")).toBe(true);
    expect(check("operatorOgrn", "1027700132196")).toBe(BAD_OGRN);
    expect(check("operatorOgrn", "304500116000157")).toBe(true);
    expect(BAD_INN).toBe(
      "ИНН: 10 цифр у организации или 12 у индивидуального предпринимателя, с верной контрольной цифрой",
    );
    expect(BAD_OGRN).toBe("ОГРН: 13 цифр у организации (ОГРНИП — 15), с верной контрольной цифрой");
  });

  it("keeps the name and the address within 500 characters, trimmed", () => {
    expect(check("operatorName", "я".repeat(500))).toBe(true);
    expect(check("operatorName", ` ${"я".repeat(500)} `)).toBe(true);
    expect(check("operatorName", "я".repeat(501))).toBe(
      "Поле «Полное наименование оператора» не должно быть длиннее 500 символов",
    );
    expect(check("operatorAddress", "д".repeat(501))).toBe(
      "Поле «Юридический адрес оператора» не должно быть длиннее 500 символов",
    );
  });

  it("lands a link to the section on the first empty field", () => {
    const all = {
      operatorName: "ООО «Тест»",
      operatorInn: "7707083893",
      operatorOgrn: "1027700132195",
      operatorAddress: "Москва",
    };
    expect(operatorFocus(all)).toBe("operatorName");
    expect(operatorFocus({ ...all, operatorOgrn: " " })).toBe("operatorOgrn");
    expect(operatorFocus({ ...all, operatorInn: "", operatorAddress: "" })).toBe("operatorInn");
    expect(operatorFocus({})).toBe("operatorName");
  });
});

describe("the placeholders", () => {
  it("names the five the server substitutes", () => {
    expect(PLACEHOLDERS.map((p) => p.code)).toEqual([
      "{оператор}",
      "{ИНН}",
      "{ОГРН}",
      "{адрес оператора}",
      "{обработчики}",
    ]);
    expect(OPERATOR_HINT).toBe(
      "Единственные реквизиты сайта: их называет подвал каждой страницы и выгрузки сведений, они подставляются в согласие и политику вместо {оператор}, {ИНН}, {ОГРН} и {адрес оператора}.",
    );
  });
});

describe("the company form sends the operator and the analytics switch", () => {
  const settings = {
    salonName: "Салон",
    operatorName: " ООО «Тест Оператор» ",
    operatorInn: "7707083893",
    operatorOgrn: "",
    googleAnalyticsEnabled: true,
  } as unknown as Parameters<typeof companyForm>[0];

  it("fills and trims the operator's fields", () => {
    const form = companyForm(settings);
    expect(form.operatorName).toBe(" ООО «Тест Оператор» ");
    expect(form.operatorAddress).toBe("");
    const patch: SettingsPatch = companyPatch(form);
    expect(patch.operatorName).toBe("ООО «Тест Оператор»");
    expect(patch.operatorInn).toBe("7707083893");
    expect(patch.operatorOgrn).toBe("");
    expect(patch.operatorAddress).toBe("");
  });

  it("sends the switch as it is, off when the server has none", () => {
    expect(companyPatch(companyForm(settings)).googleAnalyticsEnabled).toBe(true);
    const off = companyForm({ ...settings, googleAnalyticsEnabled: undefined } as never);
    expect(off.googleAnalyticsEnabled).toBe(false);
    expect(companyPatch({ ...off, googleAnalyticsEnabled: false }).googleAnalyticsEnabled).toBe(
      false,
    );
  });

  it("shows a refusal of any of them at its field", () => {
    for (const f of [...OPERATOR_FIELDS, "googleAnalyticsEnabled"]) {
      expect(COMPANY_FORM_FIELDS as readonly string[]).toContain(f);
    }
  });
});
