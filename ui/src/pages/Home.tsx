import { useState } from "react";
import { Link } from "wouter";
import type { BodyTypeInfo, BrandBrief, CarBrief, Promotion, Review } from "../api/types";
import * as urls from "../api/urls";
import { CarRow } from "../components/cars/CarGrid";
import { BodyTypeGrid } from "../components/home/BodyTypeGrid";
import { HomeBrands } from "../components/home/HomeBrands";
import { Promotions } from "../components/home/Promotions";
import { Reviews } from "../components/home/Reviews";
import { CatalogueModal } from "../components/layout/CatalogueModal";
import { LeadDialog } from "../components/leads/LeadDialog";
import { Banner } from "../components/ui/Banner";
import { Carousel } from "../components/ui/Carousel";
import { HydrateLater } from "../components/ui/HydrateLater";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePhoneScreen } from "../hooks/usePageSize";
import { useSettings } from "../hooks/useSettings";
import { inPlace } from "../lib/links";
import { ROUTES } from "../routes";

/** The cars a row of the home page shows on a phone's screen, where one
 * card is seen at a time (12 elsewhere): a phone's main thread drew and
 * took over 23 cards it mostly never showed (docs/rendering.md, "A phone's
 * own page"). */
const PHONE_ROW_CARS = 6;

export function Home() {
  useDocumentTitle(null);
  const settings = useSettings();
  const phone = usePhoneScreen();
  const row = (cars: CarBrief[]) => (phone ? cars.slice(0, PHONE_ROW_CARS) : cars);
  const [catalogue, setCatalogue] = useState(false);
  const [callback, setCallback] = useState(false);
  const brands = useApi<BrandBrief[]>(urls.BRANDS).data ?? [];
  const bodyTypes = useApi<BodyTypeInfo[]>(urls.BODY_TYPES).data ?? [];
  const featured = row(useApi<CarBrief[]>(urls.HOME_FEATURED).data ?? []);
  const catalogueCars = row(useApi<CarBrief[]>(urls.HOME_CATALOGUE).data ?? []);
  const promotions = useApi<Promotion[]>(urls.PROMOTIONS).data ?? [];
  const reviews = useApi<Review[]>(urls.REVIEWS);

  return (
    <>
      <Banner
        home
        desktop={settings.homeBanner}
        mobile={settings.homeBannerMobile}
        alt={settings.salonName}
        ad={settings.bannerAds?.homeBanner}
      >
        <h1>{settings.heroTitle || settings.salonName}</h1>
        {settings.heroSubtitle && <p class="hero-subtitle">{settings.heroSubtitle}</p>}
        <div class="hero-actions">
          {/* Without JavaScript a link to the new cars; a plain click asks
              which catalogue. */}
          <a href={ROUTES.newCars} role="button" {...inPlace(() => setCatalogue(true))}>
            Выбрать автомобиль
          </a>
          <Link href={ROUTES.autoCredit} role="button" class="secondary">
            Автокредит
          </Link>
          {/* A dialog: without JavaScript the phone in the header serves. */}
          <button type="button" class="secondary js-only" onClick={() => setCallback(true)}>
            Перезвоните мне
          </button>
        </div>
      </Banner>
      <CatalogueModal open={catalogue} onClose={() => setCatalogue(false)} />
      {callback && <LeadDialog kind="callback" open onClose={() => setCallback(false)} />}
      <div class="container">
        {brands.length > 0 && (
          <HydrateLater>
            <HomeBrands brands={brands} />
          </HydrateLater>
        )}
        {bodyTypes.length > 0 && (
          <HydrateLater>
            <BodyTypeGrid types={bodyTypes} />
          </HydrateLater>
        )}
        {/* A row's section is taken over in a task of its own, then each
            of its cards in one of their own (lib/hydration.ts). */}
        {featured.length > 0 && (
          <HydrateLater>
            <section class="section" aria-labelledby="popular-title">
              <h2 id="popular-title">Популярные модели</h2>
              <Carousel label="Популярные модели" step={400} arrows={featured.length > 1}>
                <CarRow cars={featured} />
              </Carousel>
            </section>
          </HydrateLater>
        )}
        <HydrateLater>
          <section class="section" aria-labelledby="catalogue-title">
            <div class="section-head">
              <h2 id="catalogue-title">Каталог автомобилей</h2>
              <div class="section-links">
                <Link href={ROUTES.newCars} role="button" class="outline">
                  Новые автомобили
                </Link>
                <Link href={ROUTES.usedCars} role="button" class="outline">
                  С пробегом
                </Link>
              </div>
            </div>
            {catalogueCars.length === 0 ? (
              <p class="empty">Автомобили не найдены</p>
            ) : (
              <Carousel label="Каталог автомобилей" step={400} arrows={catalogueCars.length > 1}>
                <CarRow cars={catalogueCars} />
              </Carousel>
            )}
          </section>
        </HydrateLater>
        {promotions.length > 0 && (
          <HydrateLater>
            <Promotions items={promotions} />
          </HydrateLater>
        )}
        {!reviews.loading && (
          <HydrateLater>
            <Reviews items={reviews.data ?? []} />
          </HydrateLater>
        )}
      </div>
    </>
  );
}
