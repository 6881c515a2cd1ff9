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
export function SalonPhoneNumber({
  number,
  class: own,
  phoneClass,
}: {
  number: string;
  class?: string;
  /** Another salon's call-tracking class (several salons, issue 46); by
   * default the main salon's. */
  phoneClass?: string;
}) {
  const settings = useSettings();
  const classes = ["salon-phone", own, phoneClass ?? settings.phoneClass].filter(Boolean).join(" ");
  return <span class={classes}>{number}</span>;
}

/** A link that calls the salon, its number in a {@link SalonPhoneNumber};
 * the link's href follows a substituted number (lib/callTracking.ts). */
export function SalonPhoneLink({
  number,
  class: own,
  phoneClass,
}: {
  number: string;
  class?: string;
  phoneClass?: string;
}) {
  return (
    <a class={own} href={telHref(number)}>
      <SalonPhoneNumber number={number} phoneClass={phoneClass} />
    </a>
  );
}
