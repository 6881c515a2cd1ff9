import { Link } from "wouter";
import type { CarBrief } from "../../api/types";
import { useSettings } from "../../hooks/useSettings";
import { dailyPrice, formatPrice, monthlyPrice } from "../../lib/format";
import { DRIVETRAIN_LABELS, STATUS_LABELS, TRANSMISSION_LABELS } from "../../lib/labels";
import { type Salon, salonOf } from "../../lib/salons";
import { carTitle } from "../../lib/saved";
import { drawnOnceOnServer, fingerprint } from "../../lib/serverFragments";
import { carPath } from "../../routes";
import { SaveToggles } from "../saved/SaveToggles";
import { HydrateLater } from "../ui/HydrateLater";
import { NeedsScript } from "../ui/NeedsScript";
import { CardGallery } from "./CardGallery";
import { CarSalon } from "./CarSalon";
import { CardLowestPrice } from "./HonestPrice";

export { carTitle };

interface Props {
  car: CarBrief;
  /** Opens the credit dialog (lease cards: the booking dialog). */
  onRequest: (car: CarBrief) => void;
  priority?: boolean;
}

interface DrawnProps extends Props {
  /** The salon's phone: what the card says without JavaScript. */
  phone: string;
  /** The car's salon on a site with several (issue 46), else null. */
  salon: Salon | null;
}

/** A car in a list: gallery, badges, fields, Details and Credit (fixed 580 px). */
function CarCardMarkup({ car, onRequest, priority, phone, salon }: DrawnProps) {
  const lease = car.status === "lease";
  const title = carTitle(car);
  return (
    <article class="car-card" data-testid="car-card">
      <div class="car-card-media">
        <CardGallery images={car.images.slice(0, 6)} alt={title} priority={priority} />
        <div class="badges">
          <span class={`badge badge-${car.status}`}>{STATUS_LABELS[car.status]}</span>
          {car.inStock && <span class="badge badge-stock">В наличии</span>}
        </div>
        <SaveToggles car={car} compact title={title} />
      </div>
      <div class="car-card-body">
        <h3 class="car-card-title">
          <Link href={carPath(car.slug)}>{title}</Link>
        </h3>
        <p class="car-card-price">{formatPrice(car.price)}</p>
        <CardLowestPrice car={car} />
        {car.monthlyPayment && (
          <p class="car-card-monthly" data-testid="card-monthly">
            {monthlyPrice(car.monthlyPayment)}
          </p>
        )}
        {lease && car.dailyPrice && <p class="car-card-daily">{dailyPrice(car.dailyPrice)}</p>}
        <dl class="car-card-specs">
          <div>
            <dt>Год</dt>
            <dd>{car.year}</dd>
          </div>
          <div>
            <dt>Двигатель</dt>
            <dd>{car.engine}</dd>
          </div>
          <div>
            <dt>КПП</dt>
            <dd>{TRANSMISSION_LABELS[car.transmission] ?? car.transmission}</dd>
          </div>
          {car.drivetrain && (
            <div>
              <dt>Привод</dt>
              <dd>{DRIVETRAIN_LABELS[car.drivetrain] ?? car.drivetrain}</dd>
            </div>
          )}
        </dl>
        {salon && <CarSalon salon={salon} card />}
        <div class="car-card-actions">
          <Link
            href={carPath(car.slug)}
            class="secondary"
            role="button"
            aria-label={`Подробнее: ${title}`}
          >
            Подробнее
          </Link>
          <button
            type="button"
            class="js-only"
            onClick={() => onRequest(car)}
            aria-label={`${lease ? "Забронировать" : "Кредит"}: ${title}`}
          >
            {lease ? "Забронировать" : "Кредит"}
          </button>
        </div>
        <NeedsScript
          to={lease ? "забронировать" : "оформить кредит"}
          phone={salon?.phone || phone}
          phoneClass={salon?.phone ? salon.phoneClass : undefined}
          class="card-needs-script"
        />
      </div>
    </article>
  );
}

/** The card; the server draws each car's card once per its data (a list
 * page of twenty cards is mostly cards: docs/rendering.md). */
const DrawnCard = drawnOnceOnServer(
  "CarCard",
  CarCardMarkup,
  ({ car, phone, salon }) =>
    `${phone}\u0001${salon ? JSON.stringify(salon) : ""}\u0001${fingerprint(car)}`,
  {
    wants: (props) => props.priority === true,
    without: (props) => ({ ...props, priority: false }),
  },
);

/** The HTML of a car's card as [`CarCard`] draws it on the server, with the
 * phone and salons it reads from the settings given (a grid's cards are
 * joined as strings: `CarGrid.tsx`). Server only. */
export function cardHtml(
  props: Props & { phone: string; salons: Salon[] | undefined },
  context: object,
): string {
  const { phone, salons, ...card } = props;
  const drawn = { ...card, phone, salon: salonOf(salons, card.car.salonId) };
  return DrawnCard.html ? DrawnCard.html(drawn, context) : "";
}

/** A car's card, taken over after the page's first screen (lib/hydration.ts). */
export function CarCard(props: Props) {
  const { phone, salons } = useSettings();
  return (
    <HydrateLater>
      <DrawnCard {...props} phone={phone} salon={salonOf(salons, props.car.salonId)} />
    </HydrateLater>
  );
}
