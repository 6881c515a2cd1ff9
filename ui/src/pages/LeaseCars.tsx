import { LEASE_CARS } from "../api/urls";
import { CarGrid } from "../components/cars/CarGrid";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useAllCars } from "../hooks/useAllCars";
import { useDocumentTitle } from "../hooks/useDocumentTitle";

const BENEFITS = [
  ["Минимальный взнос", "Первоначальный взнос — 0 рублей: садитесь за руль сразу"],
  ["Гибкие платежи", "Ежедневные или ежемесячные платежи под ваш доход"],
  ["Право выкупа", "Выкупите автомобиль в любой момент без переплат"],
];

export function LeaseCars() {
  useDocumentTitle("Аренда с выкупом");
  const { cars, error } = useAllCars(LEASE_CARS);
  return (
    <div class="container page">
      <h1>Аренда с выкупом</h1>
      <div class="benefits">
        {BENEFITS.map(([title, text]) => (
          <article key={title} class="benefit">
            <h2>{title}</h2>
            <p>{text}</p>
          </article>
        ))}
      </div>
      {error ? (
        <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
      ) : !cars ? (
        <CardSkeletons count={8} />
      ) : cars.length === 0 ? (
        <p class="empty">Автомобили для аренды с выкупом не найдены</p>
      ) : (
        <CarGrid cars={cars} priorityFirst />
      )}
    </div>
  );
}
