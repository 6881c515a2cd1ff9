/** Own advertising marked (38-FZ art. 18.1, docs/advertising.md) in the admin
 * forms: a promotion's, a partner bank's and each page banner's advertiser
 * and token (erid), the server's rules and messages, and the banners' marks
 * as PUT /api/settings takes them (`bannerAds`). */
import { BANNER_SECTIONS } from "./banners";
import { tooLong } from "./rules";

/** The server's message for a token it does not take (src/domain/ads.rs). */
export const BAD_ERID =
  "Токен рекламы (erid): латинские буквы и цифры, до 100 символов, как его выдал оператор рекламных данных";

export const AD_LEGEND = "Маркировка рекламы";
export const ADVERTISER_LABEL = "Рекламодатель";
export const ERID_LABEL = "Токен рекламы (erid)";
export const ERID_HINT =
  "Выдаёт оператор рекламных данных; без него реклама не показывается законно";
export const ADVERTISER_HINTS = {
  promotion: "Заполните, если акция — реклама другой компании, например производителя или банка",
  bank: "Если пусто — название банка",
  banner: "Заполните, если баннер — реклама другой компании, например производителя или банка",
} as const;

/** A pasted label before the token: "erid:", "ERID =", "erid " (a token
 * that merely starts with the letters "erid" keeps them). */
const PREFIX = /^erid(\s*[:=]\s*|\s+)/i;

/** The token as the server keeps it: trimmed, a pasted "erid:" (or "erid=",
 * "erid ") prefix dropped; "" is none. */
export function eridToken(value: string): string {
  return value.trim().replace(PREFIX, "").trim();
}

/** The server's rule: empty, or up to 100 Latin letters and digits. */
export function eridProblem(value: string): string | null {
  return /^[A-Za-z0-9]{0,100}$/.test(eridToken(value)) ? null : BAD_ERID;
}

/** react-hook-form rules of the two fields, with the server's messages. */
export const adRules = {
  adErid: { validate: (v: string) => eridProblem(v ?? "") ?? true },
  adAdvertiser: { maxLength: tooLong(ADVERTISER_LABEL, 255) },
};

/** A promotion's or a bank's mark fields, as the API answers and takes them. */
export interface AdValues {
  adErid: string;
  adAdvertiser: string;
}

/** The form's starting values of a promotion or a bank ("" for one without
 * a mark, or for a new one). */
export function adValues(from?: Partial<AdValues> | null): AdValues {
  return { adErid: from?.adErid ?? "", adAdvertiser: from?.adAdvertiser ?? "" };
}

/** What a save sends: trimmed (the server drops an "erid:" prefix itself). */
export function adPayload(v: AdValues): AdValues {
  return { adErid: v.adErid.trim(), adAdvertiser: v.adAdvertiser.trim() };
}

/** A banner's mark as the settings hold it. */
export interface BannerMark {
  erid: string;
  advertiser: string;
}

/** The banners' marks by the desktop picture's key ("homeBanner"). */
export type BannerAds = Record<string, BannerMark>;

/** The settings' `bannerAds` as the form shows them: every page, "" for an
 * unmarked one. */
export function bannerAdsForm(settings: object): BannerAds {
  const marks = (settings as { bannerAds?: Record<string, Partial<BannerMark>> | null }).bannerAds;
  return Object.fromEntries(
    BANNER_SECTIONS.map((s) => {
      const mark = marks?.[s.desktop];
      return [s.desktop, { erid: mark?.erid ?? "", advertiser: mark?.advertiser ?? "" }];
    }),
  );
}

/** What PUT /api/settings takes as `bannerAds`: the whole map (a page left
 * out is unmarked), trimmed, blank marks dropped, in the pages' order. */
export function bannerAdsPayload(form: BannerAds): BannerAds {
  const out: BannerAds = {};
  for (const s of BANNER_SECTIONS) {
    const mark = form[s.desktop];
    const erid = eridToken(mark?.erid ?? "");
    const advertiser = (mark?.advertiser ?? "").trim();
    if (erid || advertiser) out[s.desktop] = { erid, advertiser };
  }
  return out;
}

/** Whether the form's marks differ from the loaded ones (what a save would change). */
export function bannerAdsChanged(loaded: BannerAds, current: BannerAds): boolean {
  return JSON.stringify(bannerAdsPayload(loaded)) !== JSON.stringify(bannerAdsPayload(current));
}

/** A problem of each page's fields, keyed "homeBanner.erid" /
 * "homeBanner.advertiser"; empty when the form may be saved. */
export function bannerAdsProblems(form: BannerAds): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const s of BANNER_SECTIONS) {
    const mark = form[s.desktop];
    const erid = eridProblem(mark?.erid ?? "");
    if (erid) problems[`${s.desktop}.erid`] = erid;
    const advertiser = (mark?.advertiser ?? "").trim();
    if ([...advertiser].length > 255)
      problems[`${s.desktop}.advertiser`] = tooLong(ADVERTISER_LABEL, 255).message;
  }
  return problems;
}
