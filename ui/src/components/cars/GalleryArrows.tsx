/** Previous/next buttons of a gallery; `step` moves the index with wrap-around. */
export function GalleryArrows({ step }: { step: (delta: number) => void }) {
  return (
    <>
      <button
        type="button"
        class="gallery-arrow prev"
        aria-label="Предыдущее фото"
        onClick={() => step(-1)}
      >
        ‹
      </button>
      <button
        type="button"
        class="gallery-arrow next"
        aria-label="Следующее фото"
        onClick={() => step(1)}
      >
        ›
      </button>
    </>
  );
}
