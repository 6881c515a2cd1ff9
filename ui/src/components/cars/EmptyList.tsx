/** 'Автомобили не найдены', or with filters a reset button. */
export function EmptyList({ filtered, onReset }: { filtered: boolean; onReset: () => void }) {
  if (!filtered) return <p class="empty">Автомобили не найдены</p>;
  return (
    <div class="empty">
      <p>По вашим фильтрам ничего не найдено</p>
      <button type="button" class="secondary" onClick={onReset}>
        Сбросить фильтры
      </button>
    </div>
  );
}
