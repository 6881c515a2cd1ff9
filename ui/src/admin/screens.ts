/** Every admin screen: its path under /admin, its navigation label and its
 * component, loaded when first opened. One line per screen, in the order of
 * the navigation; AdminApp routes them and AdminPage and the dashboard link
 * them. `/admin` itself shows the dashboard. A screen whose feature has not
 * landed (CRM, parser) has no line, so no link points at it. */
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
];

export const DASHBOARD = "/dashboard";
