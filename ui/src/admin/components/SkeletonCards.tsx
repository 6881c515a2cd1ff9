/** Grey cards while a list loads (6 for cars and brands, 5 for reviews). */
export function SkeletonCards({
  count = 6,
  label = "Загрузка…",
}: {
  count?: number;
  label?: string;
}) {
  return (
    <div class="admin-grid" aria-busy="true" data-testid="skeletons">
      <span class="visually-hidden">{label}</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} class="admin-card skeleton" data-testid="skeleton" />
      ))}
    </div>
  );
}
