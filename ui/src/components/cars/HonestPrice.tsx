import type { CarBrief } from "../../api/types";
import { formatPrice, fromPrice } from "../../lib/format";
import { capApplies, discountCap, discounts, lowestPrice } from "../../lib/price";
import "./price.css";

const rubles = (kopecks: number) => formatPrice(kopecks / 100);

/** The car page's price (docs/pricing.md, "Conditional discounts"): with
 * no discounts 'от {price} ₽' as always; otherwise the price with no
 * conditions first, each discount with its condition, the lowest reachable
 * price and that nothing paid is required on top. */
export function HonestPrice({ car }: { car: CarBrief }) {
  const list = discounts(car);
  const lowest = lowestPrice(car);
  if (list.length === 0 || lowest === null)
    return <p class="detail-price">{fromPrice(car.price)}</p>;
  const cap = discountCap(car);
  return (
    <div class="honest-price" data-testid="honest-price">
      <p class="honest-label">Цена без условий</p>
      <p class="detail-price" data-testid="base-price">
        {formatPrice(car.price)}
      </p>
      <dl class="discount-list">
        {list.map((d) => (
          <div key={d.kind} data-testid={`discount-${d.kind}`}>
            <dt>{d.label}</dt>
            <dd>−{rubles(d.amount)}</dd>
          </div>
        ))}
        {cap !== null && capApplies(car) && (
          <div data-testid="discount-cap">
            <dt>Все скидки вместе — не больше</dt>
            <dd>{rubles(cap)}</dd>
          </div>
        )}
      </dl>
      <p class="lowest-price" data-testid="lowest-price">
        <span>Цена со всеми скидками</span> <strong>{rubles(lowest)}</strong>
      </p>
      <p class="no-extras">Без обязательных дополнительных услуг и оборудования</p>
    </div>
  );
}

/** A card's short form: the lowest reachable price, when the car has
 * discounts (nothing otherwise). */
export function CardLowestPrice({ car }: { car: CarBrief }) {
  const lowest = lowestPrice(car);
  if (lowest === null) return null;
  return (
    <p class="car-card-discount" data-testid="card-lowest-price">
      {rubles(lowest)} со всеми скидками
    </p>
  );
}
