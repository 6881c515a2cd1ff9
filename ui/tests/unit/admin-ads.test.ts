import { describe, expect, it } from "vitest";
import {
  ADVERTISER_HINTS,
  adPayload,
  adRules,
  adValues,
  BAD_ERID,
  bannerAdsChanged,
  bannerAdsForm,
  bannerAdsPayload,
  bannerAdsProblems,
  eridProblem,
  eridToken,
} from "../../src/admin/lib/ads";

describe("the admin forms' mark fields", () => {
  it("take the token as the operator gave it, as the server does", () => {
    expect(eridToken(" erid: LjN8Kaaxi ")).toBe("LjN8Kaaxi");
    expect(eridToken("ERID=Pb3XmBtzt5E9")).toBe("Pb3XmBtzt5E9");
    expect(eridToken("")).toBe("");
    expect(eridToken("erid 2VtzqwdWzZL")).toBe("2VtzqwdWzZL");
    // A token that starts with the letters keeps them.
    expect(eridToken("eridA1b2")).toBe("eridA1b2");
    expect(eridProblem("erid: 2VtzqwdWzZL")).toBeNull();
    expect(eridProblem("")).toBeNull();
    for (const bad of ["токен", "2Vtz qwd", "a-b", "a".repeat(101)]) {
      expect(eridProblem(bad), bad).toBe(BAD_ERID);
    }
    expect(eridProblem("a".repeat(100))).toBeNull();
    expect(adRules.adErid.validate("токен")).toBe(BAD_ERID);
    expect(adRules.adErid.validate("LjN8Kaaxi")).toBe(true);
    expect(adRules.adAdvertiser.maxLength).toEqual({
      value: 255,
      message: "Поле «Рекламодатель» не должно быть длиннее 255 символов",
    });
  });

  it("start from the object's mark and send it trimmed", () => {
    expect(adValues(null)).toEqual({ adErid: "", adAdvertiser: "" });
    expect(adValues({ adErid: "a1", adAdvertiser: "Х" })).toEqual({
      adErid: "a1",
      adAdvertiser: "Х",
    });
    expect(adPayload({ adErid: " a1 ", adAdvertiser: " ООО «Х» " })).toEqual({
      adErid: "a1",
      adAdvertiser: "ООО «Х»",
    });
  });

  it("hint at the bank's name as the advertiser by default", () => {
    expect(ADVERTISER_HINTS.bank).toBe("Если пусто — название банка");
  });
});

describe("the page banners' marks", () => {
  const saved = {
    homeBanner: "/h.webp",
    bannerAds: { homeBanner: { erid: "LjN8Kaaxi", advertiser: "ООО «Х»" } },
  };

  it("show every page, blank when unmarked", () => {
    const form = bannerAdsForm(saved);
    expect(Object.keys(form)).toEqual([
      "homeBanner",
      "newCarsBanner",
      "usedCarsBanner",
      "tradeInBanner",
      "autoCreditBanner",
      "autoSelectionBanner",
    ]);
    expect(form.homeBanner).toEqual({ erid: "LjN8Kaaxi", advertiser: "ООО «Х»" });
    expect(form.tradeInBanner).toEqual({ erid: "", advertiser: "" });
    expect(bannerAdsForm({}).homeBanner).toEqual({ erid: "", advertiser: "" });
  });

  it("are sent whole, trimmed, blank marks dropped", () => {
    const form = bannerAdsForm(saved);
    form.tradeInBanner = { erid: " erid: Pb3XmBtzt5E9 ", advertiser: " Т-Банк " };
    form.usedCarsBanner = { erid: " ", advertiser: "" };
    expect(bannerAdsPayload(form)).toEqual({
      homeBanner: { erid: "LjN8Kaaxi", advertiser: "ООО «Х»" },
      tradeInBanner: { erid: "Pb3XmBtzt5E9", advertiser: "Т-Банк" },
    });
    form.homeBanner = { erid: "", advertiser: "" };
    expect(Object.keys(bannerAdsPayload(form))).toEqual(["tradeInBanner"]);
  });

  it("count as changed only when what is sent differs", () => {
    const loaded = bannerAdsForm(saved);
    const same = bannerAdsForm(saved);
    same.homeBanner = { erid: " LjN8Kaaxi ", advertiser: "ООО «Х» " };
    same.newCarsBanner = { erid: "  ", advertiser: "" };
    expect(bannerAdsChanged(loaded, same)).toBe(false);
    expect(bannerAdsChanged(loaded, { ...same, homeBanner: { erid: "", advertiser: "" } })).toBe(
      true,
    );
  });

  it("name the page's field with a problem", () => {
    const form = bannerAdsForm(saved);
    expect(bannerAdsProblems(form)).toEqual({});
    form.autoCreditBanner = { erid: "токен", advertiser: "х".repeat(256) };
    expect(bannerAdsProblems(form)).toEqual({
      "autoCreditBanner.erid": BAD_ERID,
      "autoCreditBanner.advertiser": "Поле «Рекламодатель» не должно быть длиннее 255 символов",
    });
  });
});
