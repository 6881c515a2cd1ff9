import { type ReactNode, useRef } from "react";

interface Props {
  label: string;
  /** Pixels one arrow click scrolls. */
  step: number;
  arrows: boolean;
  children: ReactNode;
}

/** A horizontally scrolling row with optional arrows. */
export function Carousel({ label, step, arrows, children }: Props) {
  const track = useRef<HTMLDivElement>(null);
  const scroll = (dx: number) => track.current?.scrollBy({ left: dx, behavior: "smooth" });
  return (
    <div class={arrows ? "carousel with-arrows" : "carousel"}>
      {arrows && (
        <button
          type="button"
          class="carousel-arrow prev"
          aria-label={`${label}: назад`}
          onClick={() => scroll(-step)}
        >
          ‹
        </button>
      )}
      <div class="carousel-track" ref={track} role="list" aria-label={label}>
        {children}
      </div>
      {arrows && (
        <button
          type="button"
          class="carousel-arrow next"
          aria-label={`${label}: вперёд`}
          onClick={() => scroll(step)}
        >
          ›
        </button>
      )}
    </div>
  );
}
