import { type ReactNode, useState } from "react";
import type { BodyTypeInfo } from "../../api/types";
import type { Catalogue } from "../../hooks/useCatalogue";
import { useSettings } from "../../hooks/useSettings";
import { hasActiveFilters } from "../../lib/filters";
import type { AdMark } from "../../lib/format";
import { foundCars } from "../../lib/format";
import { SavedSearchButton } from "../alerts/SavedSearchButton";
import { Banner } from "../ui/Banner";
import { HydrateLater } from "../ui/HydrateLater";
import { Pagination } from "../ui/Pagination";
import { CardSkeletons } from "../ui/Skeleton";
import { useToast } from "../ui/Toast";
import { BrandStrip } from "./BrandStrip";
import { CarGrid } from "./CarGrid";
import { FilterCard } from "./FilterCard";

interface Props {
  catalogue: Catalogue<unknown>;
  title: string | null;
  banner: { desktop: string; mobile: string; ad?: AdMark };
  /** The body-type select's choices; left out on a body type's own page. */
  bodyTypes?: BodyTypeInfo[];
  /** The body-type page: Все/Новые/БУ buttons and, on phones, a filters toggle. */
  bodyTypePage?: boolean;
  /** The body type's singular name (a body type's page), for a saved search. */
  typeLabel?: string;
  /** New cars: a load-more button above the page numbers. */
  loadMore?: boolean;
  /** What an empty list says (the filters are active or not). */
  empty: (filtered: boolean) => ReactNode;
}

/** The shell of every catalogue: banner, brand strip, filters, count, grid,
 * load-more and numbered pages. */
export function CatalogueLayout(props: Props) {
  const { catalogue: c, title, banner, bodyTypes, bodyTypePage } = props;
  const toast = useToast();
  const { salons } = useSettings();
  const [showFilters, setShowFilters] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);

  async function loadMore() {
    setLoadingMore(true);
    try {
      await c.loadMore();
    } catch {
      toast({
        title: "Ошибка",
        description: "Не удалось загрузить автомобили. Попробуйте еще раз.",
        variant: "error",
      });
    } finally {
      setLoadingMore(false);
    }
  }

  // The strip and the filters are taken over in tasks of their own, after
  // the page (lib/hydration.ts).
  const filterCard = (
    <HydrateLater>
      <FilterCard
        filters={c.filters}
        brands={c.brands}
        bodyTypes={bodyTypes}
        conditions={bodyTypePage}
        update={c.update}
        clear={c.clear}
        clearHref={c.clearHref}
        salons={salons}
      />
    </HydrateLater>
  );
  const count = (
    <p class="count" data-testid="count">
      {c.total !== undefined ? foundCars(c.total) : "\u00a0"}
    </p>
  );
  // A saved search follows the list's own API filters.
  const bodyCode = c.query?.bodyType;
  const bodyLabel = bodyTypePage
    ? props.typeLabel
    : bodyTypes?.find((t) => t.bodyType === bodyCode)?.labelSingle;
  const alerts = c.query && (
    <SavedSearchButton query={c.query} brands={c.brands} bodyLabel={bodyLabel} />
  );

  // One picture of the first screen is fetched first (`priority`), the one a
  // phone shows largest: the banner's when it has a picture; on a body
  // type's page the first card's, which is on a phone's first screen (its
  // filters folded away) and larger than the short banner. The server
  // preloads the same (src/http/pages/data/catalogue.rs); the banner there
  // waits for the paint on phones, its wide picture preloaded for wide screens.
  const bannerFirst = Boolean(banner.desktop || banner.mobile) && !bodyTypePage;
  return (
    <>
      <Banner {...banner} alt={title ?? ""} priority={bannerFirst}>
        <h1>{title}</h1>
      </Banner>
      <div class="container">
        <HydrateLater>
          <BrandStrip
            brands={c.brands}
            selected={c.filters.brand}
            onSelect={(slug) => c.update({ brand: slug })}
            href={(slug) => c.href({ brand: slug })}
          />
        </HydrateLater>
        {!bodyTypePage && filterCard}
        <h2 class="visually-hidden">Список автомобилей</h2>
        {bodyTypePage ? (
          <>
            <div class="count-row">
              {count}
              <button
                type="button"
                class="outline filters-toggle js-only"
                aria-expanded={showFilters}
                onClick={() => setShowFilters(!showFilters)}
              >
                {showFilters ? "Скрыть фильтры" : "Фильтры"}
              </button>
              {alerts}
            </div>
            <div class={showFilters ? "filters-panel open nojs-shown" : "filters-panel nojs-shown"}>
              {filterCard}
            </div>
          </>
        ) : (
          <div class="count-row">
            {count}
            {alerts}
          </div>
        )}
        {c.error ? (
          <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
        ) : c.cars === undefined ? (
          <CardSkeletons count={8} />
        ) : c.cars.length === 0 ? (
          props.empty(hasActiveFilters(c.filters))
        ) : (
          <CarGrid cars={c.cars} priorityFirst={!bannerFirst} />
        )}
        {/* Without JavaScript the page numbers below are the way on. */}
        {props.loadMore && c.hasMore && (
          <div class="load-more js-only">
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
          page={c.filters.page}
          pages={c.pages}
          onPage={c.goTo}
          href={(page) => c.href({ page })}
        />
      </div>
    </>
  );
}
