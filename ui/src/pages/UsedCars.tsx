import type { BodyTypeInfo, BrandBrief } from "../api/types";
import * as urls from "../api/urls";
import { BrandStrip } from "../components/cars/BrandStrip";
import { CarGrid } from "../components/cars/CarGrid";
import { EmptyList } from "../components/cars/EmptyList";
import { FilterCard } from "../components/cars/FilterCard";
import { Banner } from "../components/ui/Banner";
import { Pagination } from "../components/ui/Pagination";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useAllCars } from "../hooks/useAllCars";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useFilters } from "../hooks/useFilters";
import { usePageSize } from "../hooks/useMediaQuery";
import { useSettings } from "../hooks/useSettings";
import { filterCars, hasActiveFilters, pageOf } from "../lib/filters";
import { foundCars } from "../lib/format";
import { pageCount } from "../lib/pagination";

/** Used cars: the whole list at once, filtered and paged in the browser. */
export function UsedCars() {
  useDocumentTitle("Автомобили с пробегом");
  const settings = useSettings();
  const { filters, update, clear } = useFilters();
  const pageSize = usePageSize();
  const brands = useApi<BrandBrief[]>(urls.BRANDS).data ?? [];
  const bodyTypes = useApi<BodyTypeInfo[]>(urls.BODY_TYPES).data ?? [];
  const { cars, error } = useAllCars(urls.carsByStatus("used"));
  const matching = cars ? filterCars(cars, filters) : [];
  const pages = pageCount(matching.length, pageSize);
  const shown = pageOf(matching, Math.min(filters.page, pages), pageSize);

  return (
    <>
      <Banner
        desktop={settings.usedCarsBanner}
        mobile={settings.usedCarsBannerMobile}
        alt="Автомобили с пробегом"
      >
        <h1>Автомобили с пробегом</h1>
      </Banner>
      <div class="container">
        <BrandStrip
          brands={brands}
          selected={filters.brand}
          onSelect={(slug) => update({ brand: slug })}
        />
        <FilterCard
          filters={filters}
          brands={brands}
          bodyTypes={bodyTypes}
          update={update}
          clear={clear}
        />
        <h2 class="visually-hidden">Список автомобилей</h2>
        <p class="count" data-testid="count">
          {cars ? foundCars(matching.length) : "\u00a0"}
        </p>
        {error ? (
          <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
        ) : !cars ? (
          <CardSkeletons count={8} />
        ) : shown.length === 0 ? (
          <EmptyList filtered={hasActiveFilters(filters)} onReset={clear} />
        ) : (
          <CarGrid cars={shown} priorityFirst />
        )}
        <Pagination
          page={Math.min(filters.page, pages)}
          pages={pages}
          onPage={(page) => {
            update({ page });
            window.scrollTo(0, 0);
          }}
        />
      </div>
    </>
  );
}
