import { SalonPhoneLink } from "../../hooks/useSettings";
import { mapHref, type Salon } from "../../lib/salons";

/** Where a car stands, on a site with several salons (issue 46): the
 * salon's name, address (on the map when its place is known), phone (its
 * call-tracking class) and, on the car page, its hours. A pure function of
 * the salon: a card's markup is drawn once per its key on the server. */
export function CarSalon({ salon, card }: { salon: Salon; card?: boolean }) {
  const map = mapHref(salon);
  const text = salon.fullAddress || salon.address;
  const address = map ? (
    <a href={map} target="_blank" rel="noopener">
      {text}
      <span class="visually-hidden"> (на карте)</span>
    </a>
  ) : (
    text
  );
  const phone = salon.phone && (
    <SalonPhoneLink number={salon.phone} phoneClass={salon.phoneClass} />
  );
  if (card) {
    return (
      <div class="car-card-salon">
        <p>
          <span class="visually-hidden">Салон: </span>
          <strong>{salon.name}</strong>, {address}
        </p>
        {phone && <p>{phone}</p>}
      </div>
    );
  }
  return (
    <section class="car-salon">
      <h2>
        <small>Автомобиль в салоне</small> {salon.name}
      </h2>
      <p>Адрес: {address}</p>
      {phone && <p>Телефон: {phone}</p>}
      {salon.workingHours && <p class="car-salon-hours">Часы работы: {salon.workingHours}</p>}
    </section>
  );
}
