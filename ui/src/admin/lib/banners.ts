/** The page-banners screen: six pages, each with a desktop and a mobile
 * banner (the mobile one falls back to the desktop one on the site). */
import type { components } from "../../api/schema";

export type Banners = components["schemas"]["Banners"];

/** The banners as the site shows them (GET, public): what a role without
 * the other settings (an editor, who may change banners only) reads. */
export const PUBLIC_SETTINGS = "/api/settings";
export type BannerField = keyof Banners;

export interface BannerSection {
  key: string;
  title: string;
  /** The public page that shows it. */
  page: string;
  desktop: BannerField;
  mobile: BannerField;
}

export const BANNER_SECTIONS: BannerSection[] = [
  {
    key: "home",
    title: "Главная страница",
    page: "/",
    desktop: "homeBanner",
    mobile: "homeBannerMobile",
  },
  {
    key: "newCars",
    title: "Новые автомобили",
    page: "/new-cars",
    desktop: "newCarsBanner",
    mobile: "newCarsBannerMobile",
  },
  {
    key: "usedCars",
    title: "Автомобили с пробегом",
    page: "/used-cars",
    desktop: "usedCarsBanner",
    mobile: "usedCarsBannerMobile",
  },
  {
    key: "tradeIn",
    title: "Трейд-ин",
    page: "/trade-in",
    desktop: "tradeInBanner",
    mobile: "tradeInBannerMobile",
  },
  {
    key: "autoCredit",
    title: "Автокредит",
    page: "/auto-credit",
    desktop: "autoCreditBanner",
    mobile: "autoCreditBannerMobile",
  },
  {
    key: "autoSelection",
    title: "Подбор авто",
    page: "/auto-selection",
    desktop: "autoSelectionBanner",
    mobile: "autoSelectionBannerMobile",
  },
];

export const BANNER_FIELDS: BannerField[] = BANNER_SECTIONS.flatMap((s) => [s.desktop, s.mobile]);

/** The twelve fields of any settings-like object ("" for a missing one). */
export function pickBanners(
  from: Partial<Record<BannerField, string | null | undefined>>,
): Banners {
  return Object.fromEntries(BANNER_FIELDS.map((f) => [f, from[f] ?? ""])) as Banners;
}

/** Only the fields that differ from what was loaded: what "save all" sends
 * (empty when nothing changed). A removed banner is sent as "". */
export function changedBanners(loaded: Banners, current: Banners): Partial<Banners> {
  const patch: Partial<Banners> = {};
  for (const f of BANNER_FIELDS) {
    if ((loaded[f] ?? "") !== (current[f] ?? "")) patch[f] = current[f] ?? "";
  }
  return patch;
}

export const RECOMMENDED_BANNER = "Рекомендуемый размер: 2816×1536";
export const RECOMMENDED_MOBILE_BANNER =
  "Лучше вертикальный; без него на телефоне показывается баннер для компьютера";
