import type { BodyTypeInfo, BrandBrief } from "../../api/types";
import { knownBodyType } from "../../lib/catalogue";
import {
  type CatalogueFilters,
  type Condition,
  hasActiveFilters,
  PRICE_MAX,
} from "../../lib/filters";
import { formatNumber } from "../../lib/format";
import { bodyTypeName } from "../../lib/labels";
import { type Salon, severalSalons } from "../../lib/salons";
import { drawnOnceOnServer, fingerprint } from "../../lib/serverFragments";
import { PriceSlider } from "../ui/PriceSlider";
import { ResetFilters } from "./ResetFilters";

interface Props {
  filters: CatalogueFilters;
  brands: BrandBrief[];
  /** Shown when the page is not of one body type already. */
  bodyTypes?: BodyTypeInfo[];
  /** The body-type page's Все/Новые/БУ buttons. */
  conditions?: boolean;
  update: (change: Partial<CatalogueFilters>) => void;
  clear: () => void;
  /** The list without filters: the reset's link. */
  clearHref: string;
  /** Every salon, on a site with several (issue 46): a «Салон» select. */
  salons?: Salon[];
}

const CONDITIONS: [Condition, string][] = [
  ["all", "Все"],
  ["new", "Новые"],
  ["used", "БУ"],
];

/** The prices the form offers without JavaScript (the slider needs it):
 * a rouble step a person would choose, and the page's own price. */
const PRICE_CHOICES = [
  500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 4_000_000, 5_000_000, 6_000_000,
  7_000_000, 8_000_000, 9_000_000,
];

function priceChoices(current: number): number[] {
  return current >= PRICE_MAX || PRICE_CHOICES.includes(current)
    ? PRICE_CHOICES
    : [...PRICE_CHOICES, current].sort((a, b) => a - b);
}

/** Brand, body type, condition and price-up-to; a reset when any is set.
 * A GET form of the page's own parameters (lib/filters.ts): without
 * JavaScript «Показать» sends it and the server draws the filtered page;
 * with it every change applies at once and the form is never sent. */
function FilterCardMarkup(props: Props) {
  const { filters, brands, bodyTypes, conditions, update, clear } = props;
  const salons = severalSalons(props.salons);
  return (
    <article class="filter-card" aria-label="Фильтры">
      <form method="get" onSubmit={(e) => e.preventDefault()}>
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
          {salons && (
            <label>
              Салон
              <select
                name="salon"
                value={salons.some((s) => s.id === filters.salon) ? String(filters.salon) : ""}
                onChange={(e) =>
                  update({ salon: Number((e.target as HTMLSelectElement).value) || null })
                }
              >
                <option value="">Все салоны</option>
                {salons.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {conditions && (
            <div class="condition-buttons" role="group" aria-label="Состояние">
              {/* Each sends the form with its condition without JavaScript. */}
              {CONDITIONS.map(([value, label]) => (
                <button
                  type="submit"
                  name="condition"
                  value={value}
                  key={value}
                  class={filters.condition === value ? "" : "outline secondary"}
                  aria-pressed={filters.condition === value}
                  onClick={(e) => {
                    e.preventDefault();
                    update({ condition: value });
                  }}
                >
                  {label}
                </button>
              ))}
            </div>
          )}
          <div class="js-only">
            <PriceSlider value={filters.price} onChange={(price) => update({ price })} />
          </div>
          <label class="nojs-only">
            Цена до
            <select name="price" value={String(filters.price)}>
              <option value={String(PRICE_MAX)}>любая</option>
              {priceChoices(filters.price).map((price) => (
                <option key={price} value={String(price)}>
                  {formatNumber(price)} ₽
                </option>
              ))}
            </select>
          </label>
        </div>
        <div class="filter-actions">
          {/* Sent with the page's condition, so a choice of the selects keeps it. */}
          <button
            type="submit"
            class="nojs-only"
            name={conditions ? "condition" : undefined}
            value={conditions ? filters.condition : undefined}
          >
            Показать
          </button>
          {hasActiveFilters(filters) && (
            <ResetFilters href={props.clearHref} onReset={clear} class="secondary clear-filters" />
          )}
        </div>
      </form>
    </article>
  );
}

/** The card; the server draws it once per filter state (the page number
 * changes nothing in it). */
export const FilterCard = drawnOnceOnServer("FilterCard", FilterCardMarkup, (p) =>
  [
    JSON.stringify([{ ...p.filters, page: 1 }, p.conditions ?? false, p.clearHref]),
    fingerprint(p.brands),
    fingerprint(p.bodyTypes ?? null),
    p.salons ? fingerprint(p.salons) : "",
  ].join("\u0001"),
);
