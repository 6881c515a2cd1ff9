/** Grey placeholders while a list loads. */
export function CardSkeletons({ count }: { count: number }) {
  return (
    <div class="car-grid" aria-busy="true">
      <span class="visually-hidden">Загрузка…</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} class="car-card skeleton" data-testid="skeleton" />
      ))}
    </div>
  );
}
