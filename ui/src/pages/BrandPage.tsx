import type { Brand, CarStatus } from "../api/types";
import * as urls from "../api/urls";
import { CarGrid } from "../components/cars/CarGrid";
import { BrandLogo } from "../components/ui/BrandLogo";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useAllCars } from "../hooks/useAllCars";
import { isNotFound, useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useFilters } from "../hooks/useFilters";
import { NotFound } from "./NotFound";

const SECTIONS: [CarStatus, string][] = [
  ["new", "Новые автомобили"],
  ["used", "Автомобили с пробегом"],
  ["lease", "Аренда с выкупом"],
];

/** A brand's page reads the brand's whole list, cheapest first (the server
 * sorts): its model list, counters and sections come from it, and the model
 * filter narrows it in place (docs/catalogue.md). */
export function BrandPage({ slug }: { slug: string }) {
  const brand = useApi<Brand>(urls.brandBySlug(slug));
  const { cars } = useAllCars(brand.data ? urls.brandCars(brand.data.id) : null);
  const { filters, update } = useFilters();
  useDocumentTitle(
    brand.data ? `Автомобили ${brand.data.name}` : brand.error ? "Марка не найдена" : null,
  );

  if (brand.error && isNotFound(brand.error)) {
    return <NotFound title="Марка не найдена" text="Марка с таким идентификатором не существует" />;
  }
  if (brand.error)
    return <p class="container page empty">Не удалось загрузить марку. Обновите страницу.</p>;
  const b = brand.data;
  if (!b || !cars) {
    return (
      <div class="container page">
        <div class="skeleton skeleton-title" />
        <CardSkeletons count={8} />
      </div>
    );
  }
  const models = [...new Set(cars.map((c) => c.model))].sort((x, y) => x.localeCompare(y, "ru"));
  const model = filters.model && models.includes(filters.model) ? filters.model : null;
  const shown = model ? cars.filter((c) => c.model === model) : cars;
  const count = (s: CarStatus) => cars.filter((c) => c.status === s).length;

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
          <strong>{cars.length}</strong> всего автомобилей
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
        <label class="model-filter">
          Фильтр по модели:
          <select
            name="model"
            value={model ?? ""}
            onChange={(e) => update({ model: (e.target as HTMLSelectElement).value || null })}
          >
            <option value="">Все модели</option>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.length === 0 ? (
        <div class="empty">
          {model ? (
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
        SECTIONS.map(([status, label]) => {
          const list = shown.filter((c) => c.status === status);
          if (list.length === 0) return null;
          return (
            <section class="section" key={status} aria-label={label}>
              <h2>
                {label} <small class="muted">({list.length})</small>
              </h2>
              <CarGrid cars={list} />
            </section>
          );
        })
      )}
    </div>
  );
}
