/** Every admin screen: its path under /admin, its navigation label, the
 * capability a role needs to open it and its component, loaded when first
 * opened. One line per screen, in the order of the navigation; AdminApp
 * routes them (ScreenGate refuses a screen the role may not open) and
 * AdminPage and the dashboard link those the role may open. `/admin`
 * itself shows the dashboard. */
import { type ComponentType, lazy } from "react";
import type { Capability } from "../api/types";

export interface AdminScreen {
  /** Under /admin: "/cars" is /admin/cars. */
  path: string;
  label: string;
  /** What the role needs to open the screen (the server refuses its API
   * to the others anyway). */
  capability: Capability;
  component: ComponentType;
}

export const SCREENS: AdminScreen[] = [
  {
    path: "/dashboard",
    label: "Панель",
    capability: "figures",
    component: lazy(() => import("./screens/dashboard")),
  },
  {
    path: "/cars",
    label: "Автомобили",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/cars")),
  },
  {
    path: "/brands",
    label: "Марки",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/brands")),
  },
  {
    path: "/reviews",
    label: "Отзывы",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/reviews")),
  },
  {
    path: "/leads",
    label: "Заявки",
    capability: "leads",
    component: lazy(() => import("./screens/leads")),
  },
  {
    path: "/amocrm",
    label: "amoCRM",
    capability: "settings",
    component: lazy(() => import("./screens/amocrm")),
  },
  {
    path: "/saved-searches",
    label: "Подписки на подборки",
    capability: "personalData",
    component: lazy(() => import("./screens/saved-searches")),
  },
  {
    path: "/personal-data",
    label: "Персональные данные",
    capability: "personalData",
    component: lazy(() => import("./screens/personal-data")),
  },
  {
    path: "/promotions",
    label: "Акции",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/promotions")),
  },
  {
    path: "/partner-banks",
    label: "Банки",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/banks")),
  },
  {
    path: "/credit-programs",
    label: "Кредитные программы",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/credit-programs")),
  },
  {
    path: "/page-banners",
    label: "Баннеры",
    capability: "banners",
    component: lazy(() => import("./screens/banners")),
  },
  {
    path: "/auto-selection-banner",
    label: "Баннер подбора",
    capability: "banners",
    component: lazy(() => import("./screens/banners-auto-selection")),
  },
  {
    path: "/parser",
    label: "Парсер",
    capability: "imports",
    component: lazy(() => import("./screens/parser")),
  },
  {
    path: "/body-types",
    label: "Типы кузова",
    capability: "catalogueRead",
    component: lazy(() => import("./screens/body-types")),
  },
  {
    path: "/checks",
    label: "Проверка сайта",
    capability: "figures",
    component: lazy(() => import("./screens/checks")),
  },
  {
    path: "/settings",
    label: "Настройки",
    capability: "settings",
    component: lazy(() => import("./screens/settings")),
  },
  {
    path: "/users",
    label: "Пользователи",
    capability: "users",
    component: lazy(() => import("./screens/users")),
  },
];

export const DASHBOARD = "/dashboard";
/** The self-checks' screen: the navigation shows how many problems it lists. */
export const CHECKS = "/checks";

/** Whether a role with `capabilities` may open `screen`. */
export function screenAllowed(screen: AdminScreen, capabilities: readonly Capability[]): boolean {
  return capabilities.includes(screen.capability);
}

/** The screens a role with `capabilities` may open, in the navigation's order. */
export function allowedScreens(
  capabilities: readonly Capability[],
  screens: readonly AdminScreen[] = SCREENS,
): AdminScreen[] {
  return screens.filter((s) => screenAllowed(s, capabilities));
}

/** The screen a link inside the panel leads to ("/cars?edit=1" is the cars
 * screen, "/" the dashboard); undefined for anything else. */
export function screenAt(
  href: string,
  screens: readonly AdminScreen[] = SCREENS,
): AdminScreen | undefined {
  const path = href.split(/[?#]/)[0] || "/";
  const wanted = path === "/" ? DASHBOARD : path;
  return screens.find((s) => s.path === wanted);
}

/** Whether a role with `capabilities` may follow a link inside the panel
 * (a link to no screen is left to the "not found" screen: allowed). */
export function linkAllowed(href: string, capabilities: readonly Capability[]): boolean {
  const screen = screenAt(href);
  return !screen || screenAllowed(screen, capabilities);
}
