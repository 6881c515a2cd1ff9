import { useState } from "react";
import type { BodyTypeInfo, BrandBrief } from "../api/types";
import * as urls from "../api/urls";
import { BrandStrip } from "../components/cars/BrandStrip";
import { CarGrid } from "../components/cars/CarGrid";
import { FilterCard } from "../components/cars/FilterCard";
import { Banner } from "../components/ui/Banner";
import { Pagination } from "../components/ui/Pagination";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useAllCars } from "../hooks/useAllCars";
import { isNotFound, useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useFilters } from "../hooks/useFilters";
import { usePageSize } from "../hooks/useMediaQuery";
import { filterCars, hasActiveFilters, pageOf } from "../lib/filters";
import { foundCars } from "../lib/format";
import { BODY_TYPE_LABELS, isBodyType } from "../lib/labels";
import { pageCount } from "../lib/pagination";
import { NotFound } from "./NotFound";

export function BodyTypePage({ code }: { code: string }) {
  const valid = isBodyType(code);
  const info = useApi<BodyTypeInfo>(valid ? urls.bodyType(code) : null);
  const brands = useApi<BrandBrief[]>(urls.BRANDS).data ?? [];
  const { cars } = useAllCars(valid ? urls.carsOfBodyType(code) : null);
  const { filters, update, clear } = useFilters();
  const pageSize = usePageSize();
  const [showFilters, setShowFilters] = useState(false);
  const title = valid ? info.data?.labelPlural || BODY_TYPE_LABELS[code][0] : null;
  useDocumentTitle(title);

  if (!valid || (info.error && isNotFound(info.error))) return <NotFound />;
  const matching = cars ? filterCars(cars, { ...filters, body: null }) : [];
  const pages = pageCount(matching.length, pageSize);
  const page = Math.min(filters.page, pages);
  const shown = pageOf(matching, page, pageSize);
  const typeName = (info.data?.labelPlural || BODY_TYPE_LABELS[code][0]).toLowerCase();

  return (
    <>
      <Banner
        desktop={info.data?.imageUrl ?? ""}
        mobile={info.data?.imageUrlMobile ?? ""}
        alt={title ?? ""}
      >
        <h1>{title}</h1>
      </Banner>
      <div class="container">
        <BrandStrip
          brands={brands}
          selected={filters.brand}
          onSelect={(slug) => update({ brand: slug })}
        />
        <h2 class="visually-hidden">Список автомобилей</h2>
        <div class="count-row">
          <p class="count" data-testid="count">
            {cars ? foundCars(matching.length) : "\u00a0"}
          </p>
          <button
            type="button"
            class="outline filters-toggle"
            aria-expanded={showFilters}
            onClick={() => setShowFilters(!showFilters)}
          >
            {showFilters ? "Скрыть фильтры" : "Фильтры"}
          </button>
        </div>
        <div class={showFilters ? "filters-panel open" : "filters-panel"}>
          <FilterCard filters={filters} brands={brands} conditions update={update} clear={clear} />
        </div>
        {!cars ? (
          <CardSkeletons count={8} />
        ) : shown.length === 0 ? (
          <div class="empty">
            <p>Автомобили типа {typeName} временно отсутствуют</p>
            {hasActiveFilters(filters) && (
              <button type="button" class="secondary" onClick={clear}>
                Сбросить фильтры
              </button>
            )}
          </div>
        ) : (
          <CarGrid cars={shown} priorityFirst />
        )}
        <Pagination
          page={page}
          pages={pages}
          onPage={(p) => {
            update({ page: p });
            window.scrollTo(0, 0);
          }}
        />
      </div>
    </>
  );
}
