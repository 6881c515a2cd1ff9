import { LEASE_CARS } from "../api/urls";
import { CarGrid } from "../components/cars/CarGrid";
import { Pagination } from "../components/ui/Pagination";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useCarPage } from "../hooks/useCarPage";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useFilters } from "../hooks/useFilters";

const BENEFITS = [
  ["Минимальный взнос", "Первоначальный взнос — 0 рублей: садитесь за руль сразу"],
  ["Гибкие платежи", "Ежедневные или ежемесячные платежи под ваш доход"],
  ["Право выкупа", "Выкупите автомобиль в любой момент без переплат"],
];

/** Lease-to-own cars, newest first, in numbered pages of 20 (10 on phones)
 * the server draws (`?page=N`, docs/catalogue.md). */
export function LeaseCars() {
  useDocumentTitle("Аренда с выкупом");
  const { filters, update, href } = useFilters();
  const { cars, total, pages, error } = useCarPage(LEASE_CARS, filters.page);
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
      ) : total === 0 ? (
        <p class="empty">Автомобили для аренды с выкупом не найдены</p>
      ) : (
        <CarGrid cars={cars} priorityFirst />
      )}
      <Pagination
        page={filters.page}
        pages={pages}
        onPage={(page) => {
          update({ page });
          window.scrollTo(0, 0);
        }}
        href={(page) => href({ page })}
      />
    </div>
  );
}
