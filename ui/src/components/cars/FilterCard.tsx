import type { BodyTypeInfo, BrandBrief } from "../../api/types";
import { knownBodyType } from "../../lib/catalogue";
import { type CatalogueFilters, type Condition, hasActiveFilters } from "../../lib/filters";
import { bodyTypeName } from "../../lib/labels";
import { drawnOnceOnServer, fingerprint } from "../../lib/serverFragments";
import { PriceSlider } from "../ui/PriceSlider";

interface Props {
  filters: CatalogueFilters;
  brands: BrandBrief[];
  /** Shown when the page is not of one body type already. */
  bodyTypes?: BodyTypeInfo[];
  /** The body-type page's Все/Новые/БУ buttons. */
  conditions?: boolean;
  update: (change: Partial<CatalogueFilters>) => void;
  clear: () => void;
}

const CONDITIONS: [Condition, string][] = [
  ["all", "Все"],
  ["new", "Новые"],
  ["used", "БУ"],
];

/** Brand, body type, condition and price-up-to; a clear button when any is set. */
function FilterCardMarkup({ filters, brands, bodyTypes, conditions, update, clear }: Props) {
  return (
    <article class="filter-card" aria-label="Фильтры">
      <div class="filter-fields">
        <label>
          Марка
          <select
            name="brand"
            value={filters.brand ?? ""}
            onChange={(e) => update({ brand: (e.target as HTMLSelectElement).value || null })}
          >
            <option value="">Все марки</option>
            {brands.map((b) => (
              <option key={b.id} value={b.slug}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        {bodyTypes && (
          <label>
            Тип кузова
            <select
              name="body"
              value={knownBodyType(filters, bodyTypes) ?? ""}
              onChange={(e) => update({ body: (e.target as HTMLSelectElement).value || null })}
            >
              <option value="">Все типы кузова</option>
              {bodyTypes.map((t) => (
                <option key={t.bodyType} value={t.bodyType}>
                  {bodyTypeName(t.bodyType, bodyTypes) ?? t.bodyType}
                </option>
              ))}
            </select>
          </label>
        )}
        {conditions && (
          <div class="condition-buttons" role="group" aria-label="Состояние">
            {CONDITIONS.map(([value, label]) => (
              <button
                type="button"
                key={value}
                class={filters.condition === value ? "" : "outline secondary"}
                aria-pressed={filters.condition === value}
                onClick={() => update({ condition: value })}
              >
                {label}
              </button>
            ))}
          </div>
        )}
        <PriceSlider value={filters.price} onChange={(price) => update({ price })} />
      </div>
      {hasActiveFilters(filters) && (
        <button type="button" class="secondary clear-filters" onClick={clear}>
          Сбросить фильтры
        </button>
      )}
    </article>
  );
}

/** The card; the server draws it once per filter state (the page number
 * changes nothing in it). */
export const FilterCard = drawnOnceOnServer("FilterCard", FilterCardMarkup, (p) =>
  [
    JSON.stringify([{ ...p.filters, page: 1 }, p.conditions ?? false]),
    fingerprint(p.brands),
    fingerprint(p.bodyTypes ?? null),
  ].join("\u0001"),
);
