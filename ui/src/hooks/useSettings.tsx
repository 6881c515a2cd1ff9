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
  phoneClass: "",
  callTrackingScript: "",
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

/** The salon's number as every page shows it (docs/calls.md, "Numbers per
 * source"): the digits in one element of class `salon-phone` and the
 * configured call-tracking class, which the vendor's script finds and
 * fills with the visit's own number; the salon's own number is what the
 * server draws, the fallback. `class` is the element's own class. */
export function SalonPhoneNumber({ number, class: own }: { number: string; class?: string }) {
  const { phoneClass } = useSettings();
  const classes = ["salon-phone", own, phoneClass].filter(Boolean).join(" ");
  return <span class={classes}>{number}</span>;
}

/** A link that calls the salon, its number in a {@link SalonPhoneNumber};
 * the link's href follows a substituted number (lib/callTracking.ts). */
export function SalonPhoneLink({ number, class: own }: { number: string; class?: string }) {
  return (
    <a class={own} href={telHref(number)}>
      <SalonPhoneNumber number={number} />
    </a>
  );
}
