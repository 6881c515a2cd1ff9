/** Previous/next buttons of a gallery; `step` moves the index with
 * wrap-around. On list cards they stay out of the Tab order (`tabbable`
 * false): the car page has the same photos within reach. */
export function GalleryArrows({
  step,
  tabbable = true,
}: {
  step: (delta: number) => void;
  tabbable?: boolean;
}) {
  const tabIndex = tabbable ? undefined : -1;
  return (
    <>
      <button
        type="button"
        class="gallery-arrow prev js-only"
        aria-label="Предыдущее фото"
        tabIndex={tabIndex}
        onClick={() => step(-1)}
      >
        ‹
      </button>
      <button
        type="button"
        class="gallery-arrow next js-only"
        aria-label="Следующее фото"
        tabIndex={tabIndex}
        onClick={() => step(1)}
      >
        ›
      </button>
    </>
  );
}
