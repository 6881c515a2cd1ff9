/** Every admin screen for the router: each section of `navigation.ts` with
 * its component, loaded when first opened. AdminApp routes them (ScreenGate
 * refuses a screen the role may not open). Only the router imports this
 * module; the layout and the screens read `navigation.ts`, which imports no
 * screen. A new screen is a line in SECTIONS and a line here. */
import { type ComponentType, lazy } from "react";
import { type AdminSection, SECTIONS } from "./navigation";

export {
  allowedScreens,
  CHECKS,
  DASHBOARD,
  linkAllowed,
  screenAllowed,
  screenAt,
} from "./navigation";

export interface AdminScreen extends AdminSection {
  component: ComponentType;
}

const COMPONENTS: Record<string, ComponentType> = {
  "/dashboard": lazy(() => import("./screens/dashboard")),
  "/cars": lazy(() => import("./screens/cars")),
  "/brands": lazy(() => import("./screens/brands")),
  "/reviews": lazy(() => import("./screens/reviews")),
  "/leads": lazy(() => import("./screens/leads")),
  "/amocrm": lazy(() => import("./screens/amocrm")),
  "/marketplaces": lazy(() => import("./screens/marketplaces-connections")),
  "/calls": lazy(() => import("./screens/call-providers")),
  "/saved-searches": lazy(() => import("./screens/saved-searches")),
  "/personal-data": lazy(() => import("./screens/personal-data")),
  "/promotions": lazy(() => import("./screens/promotions")),
  "/partner-banks": lazy(() => import("./screens/banks")),
  "/credit-programs": lazy(() => import("./screens/credit-programs")),
  "/page-banners": lazy(() => import("./screens/banners")),
  "/auto-selection-banner": lazy(() => import("./screens/banners-auto-selection")),
  "/parser": lazy(() => import("./screens/parser")),
  "/body-types": lazy(() => import("./screens/body-types")),
  "/checks": lazy(() => import("./screens/checks")),
  "/salons": lazy(() => import("./screens/salons")),
  "/settings": lazy(() => import("./screens/settings")),
  "/users": lazy(() => import("./screens/users")),
};

export const SCREENS: AdminScreen[] = SECTIONS.map((s) => {
  const component = COMPONENTS[s.path];
  if (!component) throw new Error(`No component for the admin section ${s.path}`);
  return { ...s, component };
});
