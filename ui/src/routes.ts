/** Every route of the site. */
export const ROUTES = {
  home: "/",
  newCars: "/new-cars",
  usedCars: "/used-cars",
  leaseCars: "/lease-cars",
  tradeIn: "/trade-in",
  autoCredit: "/auto-credit",
  autoSelection: "/auto-selection",
  car: "/car/:slug",
  brand: "/brand/:slug",
  bodyType: "/body-type/:type",
  consent: "/consent",
  privacy: "/privacy",
  favorites: "/favorites",
  compare: "/compare",
  /** The links of the saved-search mails (docs/saved-searches.md). */
  savedSearchConfirm: "/saved-searches/confirm",
  savedSearchUnsubscribe: "/saved-searches/unsubscribe",
  /** The withdrawal link of every visitor mail (docs/personal-data.md). */
  personalDataForget: "/personal-data/forget",
  admin: "/admin",
} as const;

export const carPath = (slug: string) => `/car/${encodeURIComponent(slug)}`;
export const brandPath = (slug: string) => `/brand/${encodeURIComponent(slug)}`;
export const bodyTypePath = (code: string) => `/body-type/${code}`;

/** The six links of the header, drawer and (partly) footer. */
export const NAV_LINKS: { href: string; label: string }[] = [
  { href: ROUTES.newCars, label: "Новые автомобили" },
  { href: ROUTES.usedCars, label: "С пробегом" },
  { href: ROUTES.leaseCars, label: "Аренда с выкупом" },
  { href: ROUTES.tradeIn, label: "Трейд-ин" },
  { href: ROUTES.autoCredit, label: "Автокредит" },
  { href: ROUTES.autoSelection, label: "Подбор авто (тест)" },
];
