import { lazy, type ReactNode, Suspense, useEffect, useRef } from "react";
import { Route, Switch, useLocation } from "wouter";
import { Footer } from "./components/layout/Footer";
import { Header } from "./components/layout/Header";
import { HydrateLater } from "./components/ui/HydrateLater";
import { ToastProvider } from "./components/ui/Toast";
import { trackPageView } from "./lib/analytics";
import { isAdminPath, quietInAdmin } from "./lib/consent";
import { BodyTypePage } from "./pages/BodyTypePage";
import { BrandPage } from "./pages/BrandPage";
import { CarPage } from "./pages/CarPage";
import { Home } from "./pages/Home";
import { LeaseCars } from "./pages/LeaseCars";
import { Legal } from "./pages/Legal";
import { NewCars } from "./pages/NewCars";
import { NotFound } from "./pages/NotFound";
import { UsedCars } from "./pages/UsedCars";
import { ROUTES } from "./routes";

/** The admin panel is its own chunk: public pages never download it. */
const AdminApp = lazy(() => import("./admin/AdminApp"));
/** The forms' pages load when visited (the server draws them, so a first
 * visit shows them at once; the browser takes them over when their code is
 * in): the public JavaScript budget (docs/rendering.md). */
const TradeIn = lazy(() => import("./pages/TradeIn").then((m) => ({ default: m.TradeIn })));
const AutoCredit = lazy(() =>
  import("./pages/AutoCredit").then((m) => ({ default: m.AutoCredit })),
);
const AutoSelection = lazy(() =>
  import("./pages/AutoSelection").then((m) => ({ default: m.AutoSelection })),
);
/** Favourites and compare load when visited. */
const Favorites = lazy(() => import("./pages/Favorites"));
const Compare = lazy(() => import("./pages/Compare"));
/** The confirm and unsubscribe links of the saved-search mails. */
const SavedSearchLink = lazy(() => import("./pages/SavedSearchLink"));
/** The withdrawal link of every visitor mail. */
const ForgetLink = lazy(() => import("./pages/ForgetLink"));

function Lazy({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p class="container page" aria-busy="true">
          Загрузка…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

/** Scrolls to the top on every route change, which counts as a page view. */
function ScrollToTop() {
  const [path] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    window.scrollTo(0, 0);
    if (first.current) first.current = false;
    else trackPageView(`${location.origin}${path}`);
  }, [path]);
  return null;
}

function PublicSite() {
  return (
    <ToastProvider>
      <ScrollToTop />
      <a class="skip-link" href="#main">
        Перейти к содержимому
      </a>
      {/* The header, like every part under the page's own heading, is
          taken over in a task of its own (lib/hydration.ts). */}
      <HydrateLater>
        <Header />
      </HydrateLater>
      <main id="main">
        <Switch>
          <Route path={ROUTES.home} component={Home} />
          <Route path={ROUTES.newCars} component={NewCars} />
          <Route path={ROUTES.usedCars} component={UsedCars} />
          <Route path={ROUTES.leaseCars} component={LeaseCars} />
          <Route path={ROUTES.tradeIn}>
            {() => (
              <Lazy>
                <TradeIn />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.autoCredit}>
            {() => (
              <Lazy>
                <AutoCredit />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.autoSelection}>
            {() => (
              <Lazy>
                <AutoSelection />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.car}>
            {(p: { slug: string }) => <CarPage key={p.slug} slug={p.slug} />}
          </Route>
          <Route path={ROUTES.brand}>
            {(p: { slug: string }) => <BrandPage key={p.slug} slug={p.slug} />}
          </Route>
          <Route path={ROUTES.bodyType}>
            {(p: { type: string }) => <BodyTypePage key={p.type} code={p.type} />}
          </Route>
          <Route path={ROUTES.consent}>{() => <Legal doc="consent" />}</Route>
          <Route path={ROUTES.privacy}>{() => <Legal doc="privacy" />}</Route>
          <Route path={ROUTES.favorites}>
            {() => (
              <Lazy>
                <Favorites />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.compare}>
            {() => (
              <Lazy>
                <Compare />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.savedSearchConfirm}>
            {() => (
              <Lazy>
                <SavedSearchLink action="confirm" />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.savedSearchUnsubscribe}>
            {() => (
              <Lazy>
                <SavedSearchLink action="unsubscribe" />
              </Lazy>
            )}
          </Route>
          <Route path={ROUTES.personalDataForget}>
            {() => (
              <Lazy>
                <ForgetLink />
              </Lazy>
            )}
          </Route>
          <Route component={NotFound} />
        </Switch>
      </main>
      <HydrateLater>
        <Footer />
      </HydrateLater>
    </ToastProvider>
  );
}

export function App() {
  const [path] = useLocation();
  const admin = isAdminPath(path);
  // No counter runs in the panel (lib/consent.ts), even one a public page
  // of this tab started before.
  useEffect(() => {
    if (admin) quietInAdmin();
  }, [admin]);
  if (admin) {
    return (
      <Suspense fallback={<p aria-busy="true">Загрузка…</p>}>
        <AdminApp />
      </Suspense>
    );
  }
  return <PublicSite />;
}
