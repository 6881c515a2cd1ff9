/** The admin panel's sections: each one's path under /admin, its
 * navigation label and the capability a role needs to open it, in the order
 * of the navigation. This module imports no screen: the layout (AdminPage),
 * the dashboard and the self-checks read it, and `screens.ts` pairs each
 * section with its component for the router, so nothing here loops back.
 * `/admin` itself shows the dashboard. */
import type { Capability } from "../api/types";

export interface AdminSection {
  /** Under /admin: "/cars" is /admin/cars. */
  path: string;
  label: string;
  /** What the role needs to open the screen (the server refuses its API
   * to the others anyway). */
  capability: Capability;
}

export const SECTIONS: readonly AdminSection[] = [
  { path: "/dashboard", label: "Панель", capability: "figures" },
  { path: "/cars", label: "Автомобили", capability: "catalogueRead" },
  { path: "/brands", label: "Марки", capability: "catalogueRead" },
  { path: "/reviews", label: "Отзывы", capability: "catalogueRead" },
  { path: "/leads", label: "Заявки", capability: "leads" },
  { path: "/amocrm", label: "amoCRM", capability: "settings" },
  { path: "/marketplaces", label: "Площадки", capability: "settings" },
  { path: "/calls", label: "Звонки", capability: "settings" },
  { path: "/saved-searches", label: "Подписки на подборки", capability: "personalData" },
  { path: "/personal-data", label: "Персональные данные", capability: "personalData" },
  { path: "/promotions", label: "Акции", capability: "catalogueRead" },
  { path: "/partner-banks", label: "Банки", capability: "catalogueRead" },
  { path: "/credit-programs", label: "Кредитные программы", capability: "catalogueRead" },
  { path: "/page-banners", label: "Баннеры", capability: "banners" },
  { path: "/auto-selection-banner", label: "Баннер подбора", capability: "banners" },
  { path: "/parser", label: "Парсер", capability: "imports" },
  { path: "/body-types", label: "Типы кузова", capability: "catalogueRead" },
  { path: "/checks", label: "Проверка сайта", capability: "figures" },
  { path: "/salons", label: "Салоны", capability: "settings" },
  { path: "/settings", label: "Настройки", capability: "settings" },
  { path: "/users", label: "Пользователи", capability: "users" },
];

export const DASHBOARD = "/dashboard";
/** The self-checks' screen: the navigation shows how many problems it lists. */
export const CHECKS = "/checks";

/** Whether a role with `capabilities` may open `screen`. */
export function screenAllowed(screen: AdminSection, capabilities: readonly Capability[]): boolean {
  return capabilities.includes(screen.capability);
}

/** The sections a role with `capabilities` may open, in the navigation's order. */
export function allowedScreens<S extends AdminSection = AdminSection>(
  capabilities: readonly Capability[],
  screens: readonly S[] = SECTIONS as readonly S[],
): S[] {
  return screens.filter((s) => screenAllowed(s, capabilities));
}

/** The section a link inside the panel leads to ("/cars?edit=1" is the cars
 * screen, "/" the dashboard); undefined for anything else. */
export function screenAt<S extends AdminSection = AdminSection>(
  href: string,
  screens: readonly S[] = SECTIONS as readonly S[],
): S | undefined {
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
