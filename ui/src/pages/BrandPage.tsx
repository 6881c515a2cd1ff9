import { useLayoutEffect, useRef } from "react";
import { useLocation, useSearch } from "wouter";
import type { Brand, CarStatus } from "../api/types";
import * as urls from "../api/urls";
import { CarGrid } from "../components/cars/CarGrid";
import { BrandLogo } from "../components/ui/BrandLogo";
import { Pagination } from "../components/ui/Pagination";
import { CardSkeletons } from "../components/ui/Skeleton";
import { isNotFound, useApi } from "../hooks/useApi";
import { type CarPage, useCarPage } from "../hooks/useCarPage";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import {
  BRAND_SECTIONS,
  brandHref,
  parseBrandView,
  SECTION_SIZE,
  sortedModels,
} from "../lib/brandPage";
import { NotFound } from "./NotFound";

interface Section {
  /** The brand's cars of the status, every model (a counter). */
  count: number | undefined;
  /** The shown page of the section (the filter's model only), 8 cars. */
  page: CarPage;
}

/** One status of a brand's cars: its counter and its shown page, cheapest
 * first; reads nothing until `id` is known and `ready`. */
function useSection(
  id: string | null,
  status: CarStatus,
  model: string | null,
  page: number,
  ready: boolean,
): Section {
  const counter = useApi<{ count: number }>(
    id && urls.carsCount(urls.brandCars(id, status, null, null)),
  );
  const shown = useCarPage(
    id && ready ? urls.brandCars(id, status, model) : null,
    page,
    SECTION_SIZE,
  );
  return { count: counter.data?.count, page: shown };
}

/** A brand's page: counters of its cars by status, its model filter, and a
 * section per status, each its own numbered pages, cheapest first, drawn by
 * the server (docs/catalogue.md, "A brand's page"). */
export function BrandPage({ slug }: { slug: string }) {
  const [path, navigate] = useLocation();
  const view = parseBrandView(useSearch());
  const brand = useApi<Brand>(urls.brandBySlug(slug));
  const id = brand.data?.id ?? null;
  const modelList = useApi<string[]>(id && urls.brandModels(id));
  const models = sortedModels(modelList.data ?? []);
  // A model the brand lacks filters nothing; the list tells (the server's rule too).
  const model = view.model && models.includes(view.model) ? view.model : null;
  const ready = view.model === null || modelList.data !== undefined;
  const sections = {
    new: useSection(id, "new", model, view.pages.new, ready),
    used: useSection(id, "used", model, view.pages.used, ready),
    lease: useSection(id, "lease", model, view.pages.lease, ready),
  };
  useDocumentTitle(
    brand.data ? `Автомобили ${brand.data.name}` : brand.error ? "Марка не найдена" : null,
  );
  // A turned section comes to the top once its new page is drawn (scrolled
  // before, the browser's scroll anchoring undid it when the cards changed).
  const turned = useRef<CarStatus | null>(null);
  useLayoutEffect(() => {
    if (!turned.current) return;
    document.getElementById(`section-${turned.current}`)?.scrollIntoView();
    turned.current = null;
  });

  if (brand.error && isNotFound(brand.error)) {
    return <NotFound title="Марка не найдена" text="Марка с таким идентификатором не существует" />;
  }
  const failed = [sections.new, sections.used, sections.lease].some((s) => s.page.error);
  if (brand.error || failed || modelList.error)
    return <p class="container page empty">Не удалось загрузить марку. Обновите страницу.</p>;
  const b = brand.data;
  const counts = BRAND_SECTIONS.map(([status]) => sections[status].count);
  const shownTotals = BRAND_SECTIONS.map(([status]) => sections[status].page.total);
  if (!b || counts.includes(undefined) || shownTotals.includes(undefined)) {
    return (
      <div class="container page">
        <div class="skeleton skeleton-title" />
        <CardSkeletons count={8} />
      </div>
    );
  }
  const count = (status: CarStatus) => sections[status].count ?? 0;
  const total = count("new") + count("used") + count("lease");
  const shownAny = shownTotals.some((n) => (n ?? 0) > 0);
  const firstShown = BRAND_SECTIONS.find(([status]) => (sections[status].page.total ?? 0) > 0);

  function turn(status: CarStatus, page: number) {
    turned.current = status;
    navigate(brandHref(path, model, status, page));
  }

  return (
    <div class="container page">
      <header class="brand-header">
        <BrandLogo name={b.name} logo={b.logo} size={80} />
        <div>
          <h1>{b.name}</h1>
          {b.description && <p>{b.description}</p>}
        </div>
      </header>
      <ul class="counters" aria-label="Автомобили марки">
        <li>
          <strong>{total}</strong> всего автомобилей
        </li>
        <li>
          <strong>{count("new")}</strong> новых
        </li>
        <li>
          <strong>{count("used")}</strong> с пробегом
        </li>
        <li>
          <strong>{count("lease")}</strong> аренда с выкупом
        </li>
      </ul>
      {models.length > 1 && (
        // Without JavaScript «Показать» sends the choice; with it a change applies at once.
        <form method="get" class="model-filter" onSubmit={(e) => e.preventDefault()}>
          <label>
            Фильтр по модели:
            <select
              name="model"
              value={model ?? ""}
              onChange={(e) => navigate(brandHref(path, (e.target as HTMLSelectElement).value))}
            >
              <option value="">Все модели</option>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="nojs-only">
            Показать
          </button>
        </form>
      )}
      {!shownAny ? (
        <div class="empty">
          {model && total > 0 ? (
            <>
              <p>Автомобили модели {model} временно отсутствуют</p>
              <p class="muted">Попробуйте выбрать другую модель или свяжитесь с нами</p>
            </>
          ) : (
            <>
              <p>Автомобили {b.name} временно отсутствуют</p>
              <p class="muted">Свяжитесь с нами для уточнения наличия или предзаказа</p>
            </>
          )}
        </div>
      ) : (
        BRAND_SECTIONS.map(([status, label]) => {
          const { page } = sections[status];
          if (!page.total) return null;
          return (
            <section class="section" key={status} id={`section-${status}`} aria-label={label}>
              <h2>
                {label} <small class="muted">({page.total})</small>
              </h2>
              {page.cars ? (
                <CarGrid cars={page.cars} priorityFirst={firstShown?.[0] === status} />
              ) : (
                <CardSkeletons count={4} />
              )}
              <Pagination
                label={`Страницы: ${label}`}
                page={view.pages[status]}
                pages={page.pages}
                onPage={(to) => turn(status, to)}
                href={(to) => brandHref(path, model, status, to)}
              />
            </section>
          );
        })
      )}
    </div>
  );
}
