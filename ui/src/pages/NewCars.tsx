import { useEffect, useState } from "react";
import { apiGet } from "../api/client";
import type { BodyTypeInfo, BrandBrief, Car } from "../api/types";
import * as urls from "../api/urls";
import { BrandStrip } from "../components/cars/BrandStrip";
import { CarGrid } from "../components/cars/CarGrid";
import { EmptyList } from "../components/cars/EmptyList";
import { FilterCard } from "../components/cars/FilterCard";
import { Banner } from "../components/ui/Banner";
import { Pagination } from "../components/ui/Pagination";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useFilters } from "../hooks/useFilters";
import { usePageSize } from "../hooks/useMediaQuery";
import { useSettings } from "../hooks/useSettings";
import { hasActiveFilters, PRICE_MAX } from "../lib/filters";
import { foundCars } from "../lib/format";
import { pageCount } from "../lib/pagination";

/** New cars: server-side filters, pages of 20 (10 on phones), load-more in batches of 20. */
export function NewCars() {
  useDocumentTitle("Новые автомобили");
  const settings = useSettings();
  const { filters, update, clear } = useFilters();
  const pageSize = usePageSize();
  const brands = useApi<BrandBrief[]>(urls.BRANDS).data ?? [];
  const bodyTypes = useApi<BodyTypeInfo[]>(urls.BODY_TYPES).data ?? [];
  const brand = brands.find((b) => b.slug === filters.brand) ?? null;
  const brandsReady = brands.length > 0 || !filters.brand;
  const query: urls.NewCarsQuery = {
    brandId: brand?.id ?? null,
    bodyType: filters.body,
    maxPrice: filters.price < PRICE_MAX ? filters.price : null,
  };
  const start = (filters.page - 1) * pageSize;
  const first = useApi<Car[]>(brandsReady ? urls.newCarsPage(query, start) : null);
  const count = useApi<{ count: number }>(brandsReady ? urls.newCarsCount(query) : null);
  const total = count.data?.count ?? 0;

  const listKey = urls.newCarsPage(query, start);
  const [more, setMore] = useState<{ key: string; cars: Car[] }>({ key: listKey, cars: [] });
  const [loadingMore, setLoadingMore] = useState(false);
  const extra = more.key === listKey ? more.cars : [];
  useEffect(() => setMore({ key: listKey, cars: [] }), [listKey]);

  const shown = [...(first.data ?? []).slice(0, pageSize), ...extra];
  const canLoadMore = first.data !== undefined && start + shown.length < total;

  async function loadMore() {
    setLoadingMore(true);
    try {
      const batch = await apiGet<Car[]>(urls.newCarsPage(query, start + shown.length));
      setMore({ key: listKey, cars: [...extra, ...batch] });
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <>
      <Banner
        desktop={settings.newCarsBanner}
        mobile={settings.newCarsBannerMobile}
        alt="Новые автомобили"
      >
        <h1>Новые автомобили</h1>
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
          {count.data ? foundCars(total) : "\u00a0"}
        </p>
        {first.error ? (
          <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
        ) : first.data === undefined ? (
          <CardSkeletons count={Math.min(pageSize, 8)} />
        ) : shown.length === 0 ? (
          <EmptyList filtered={hasActiveFilters(filters)} onReset={clear} />
        ) : (
          <CarGrid cars={shown} priorityFirst />
        )}
        {canLoadMore && (
          <div class="load-more">
            <button
              type="button"
              class="outline"
              onClick={loadMore}
              aria-busy={loadingMore}
              disabled={loadingMore}
            >
              Показать ещё
            </button>
          </div>
        )}
        <Pagination
          page={filters.page}
          pages={pageCount(total, pageSize)}
          onPage={(page) => {
            update({ page });
            window.scrollTo(0, 0);
          }}
        />
      </div>
    </>
  );
}
