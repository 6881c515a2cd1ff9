import { ResetFilters } from "./ResetFilters";

/** 'Автомобили не найдены', or with filters a reset link. */
export function EmptyList({
  filtered,
  onReset,
  resetHref,
}: {
  filtered: boolean;
  onReset: () => void;
  resetHref: string;
}) {
  if (!filtered) return <p class="empty">Автомобили не найдены</p>;
  return (
    <div class="empty">
      <p>По вашим фильтрам ничего не найдено</p>
      <ResetFilters href={resetHref} onReset={onReset} />
    </div>
  );
}
