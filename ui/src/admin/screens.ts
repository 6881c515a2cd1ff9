/** Every admin screen: its path under /admin, its navigation label and its
 * component, loaded when first opened. One line per screen, in the order of
 * the navigation; AdminApp routes them and AdminPage and the dashboard link
 * them. `/admin` itself shows the dashboard. */
import { type ComponentType, lazy } from "react";

export interface AdminScreen {
  /** Under /admin: "/cars" is /admin/cars. */
  path: string;
  label: string;
  component: ComponentType;
}

export const SCREENS: AdminScreen[] = [
  { path: "/dashboard", label: "Панель", component: lazy(() => import("./screens/dashboard")) },
  { path: "/cars", label: "Автомобили", component: lazy(() => import("./screens/cars")) },
  { path: "/brands", label: "Марки", component: lazy(() => import("./screens/brands")) },
  { path: "/reviews", label: "Отзывы", component: lazy(() => import("./screens/reviews")) },
  { path: "/leads", label: "Заявки", component: lazy(() => import("./screens/leads")) },
  { path: "/amocrm", label: "amoCRM", component: lazy(() => import("./screens/amocrm")) },
  {
    path: "/saved-searches",
    label: "Подписки на подборки",
    component: lazy(() => import("./screens/saved-searches")),
  },
  { path: "/promotions", label: "Акции", component: lazy(() => import("./screens/promotions")) },
  {
    path: "/partner-banks",
    label: "Банки",
    component: lazy(() => import("./screens/banks")),
  },
  {
    path: "/credit-programs",
    label: "Кредитные программы",
    component: lazy(() => import("./screens/credit-programs")),
  },
  {
    path: "/page-banners",
    label: "Баннеры",
    component: lazy(() => import("./screens/banners")),
  },
  {
    path: "/auto-selection-banner",
    label: "Баннер подбора",
    component: lazy(() => import("./screens/banners-auto-selection")),
  },
  { path: "/parser", label: "Парсер", component: lazy(() => import("./screens/parser")) },
  {
    path: "/body-types",
    label: "Типы кузова",
    component: lazy(() => import("./screens/body-types")),
  },
  { path: "/checks", label: "Проверка сайта", component: lazy(() => import("./screens/checks")) },
  { path: "/settings", label: "Настройки", component: lazy(() => import("./screens/settings")) },
];

export const DASHBOARD = "/dashboard";
/** The self-checks' screen: the navigation shows how many problems it lists. */
export const CHECKS = "/checks";
