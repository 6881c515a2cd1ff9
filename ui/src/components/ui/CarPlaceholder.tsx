/** Drawn where a car has no picture. */
export function CarPlaceholder() {
  return (
    <svg class="car-placeholder" viewBox="0 0 64 32" aria-hidden="true" fill="currentColor">
      <path d="M4 22l4-9a5 5 0 0 1 4.6-3h26.8a5 5 0 0 1 4.2 2.3L49 18l8 2a4 4 0 0 1 3 3.9V26a1 1 0 0 1-1 1h-4a6 6 0 0 0-12 0H21a6 6 0 0 0-12 0H5a1 1 0 0 1-1-1z" />
      <circle cx="15" cy="27" r="4" />
      <circle cx="49" cy="27" r="4" />
    </svg>
  );
}
