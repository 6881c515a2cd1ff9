import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { AdLabel } from "../../src/components/ui/AdLabel";
import { adLabel } from "../../src/lib/format";

describe("an ad's mark (38-FZ art. 18.1)", () => {
  it("names the advertiser and the token after «Реклама»", () => {
    expect(adLabel({ erid: "LjN8Kaaxi", advertiser: "ООО «Хавейл Мотор Рус»" })).toBe(
      "Реклама · ООО «Хавейл Мотор Рус» · erid: LjN8Kaaxi",
    );
  });

  it("leaves out what is empty", () => {
    expect(adLabel({ erid: "", advertiser: "Т-Банк" })).toBe("Реклама · Т-Банк");
    expect(adLabel({ erid: " 2VtzqwdWzZL ", advertiser: "  " })).toBe(
      "Реклама · erid: 2VtzqwdWzZL",
    );
    expect(adLabel({ erid: "2VtzqwdWzZL" })).toBe("Реклама · erid: 2VtzqwdWzZL");
  });

  it("is none when neither is set: the salon's own promotion", () => {
    expect(adLabel({ erid: "", advertiser: "" })).toBeNull();
    expect(adLabel({})).toBeNull();
    expect(adLabel({ erid: null, advertiser: null })).toBeNull();
    expect(adLabel({ erid: " ", advertiser: " " })).toBeNull();
  });

  it("draws a small paragraph, or nothing", () => {
    expect(renderToString(h(AdLabel, { erid: "LjN8Kaaxi", advertiser: "Т-Банк" }))).toBe(
      '<p class="ad-label" data-testid="ad-label">Реклама · Т-Банк · erid: LjN8Kaaxi</p>',
    );
    expect(renderToString(h(AdLabel, { erid: "a1", class: "container" }))).toContain(
      'class="ad-label container"',
    );
    expect(renderToString(h(AdLabel, { erid: "", advertiser: "" }))).toBe("");
  });
});
