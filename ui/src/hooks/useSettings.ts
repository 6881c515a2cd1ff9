import type { Settings } from "../api/types";
import { SETTINGS } from "../api/urls";
import { useApi } from "./useApi";

export const DEFAULT_SETTINGS: Settings = {
  salonName: "Автосалон",
  phone: "",
  phoneSecondary: "",
  address: "Санкт-Петербург",
  fullAddress: "",
  email: "",
  workingHours: "",
  heroTitle: "",
  heroSubtitle: "",
  favicon: "",
  yandexMetrikaId: "",
  googleAnalyticsId: "",
  operatorName: "",
  operatorInn: "",
  operatorOgrn: "",
  operatorAddress: "",
  consentVersion: 1,
  updatedAt: "",
  homeBanner: "",
  homeBannerMobile: "",
  newCarsBanner: "",
  newCarsBannerMobile: "",
  usedCarsBanner: "",
  usedCarsBannerMobile: "",
  tradeInBanner: "",
  tradeInBannerMobile: "",
  autoCreditBanner: "",
  autoCreditBannerMobile: "",
  autoSelectionBanner: "",
  autoSelectionBannerMobile: "",
};

export function useSettings(): Settings {
  return useApi<Settings>(SETTINGS).data ?? DEFAULT_SETTINGS;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
