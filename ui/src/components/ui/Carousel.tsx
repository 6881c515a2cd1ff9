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
  const scroll = (dx: number) =>
    track.current?.scrollBy({
      left: dx,
      // No sliding for those who asked the system for less motion.
      behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth",
    });
  // A control reached by Tab in a half-shown item: the whole item (and the
  // focus ring around it) comes into view. Keyboard focus only: a mouse
  // press focuses its control too, and scrolling then would move the control
  // from under the pointer before the button is released, so the click would
  // land beside it and do nothing.
  const reveal = (e: FocusEvent) => {
    const target = e.target as HTMLElement;
    if (!target.matches(":focus-visible")) return;
    target.closest(".carousel-item")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  };
  return (
    <div class={arrows ? "carousel with-arrows" : "carousel"}>
      {arrows && (
        <button
          type="button"
          class="carousel-arrow prev js-only"
          aria-label={`${label}: назад`}
          onClick={() => scroll(-step)}
        >
          ‹
        </button>
      )}
      <div class="carousel-track" ref={track} role="list" aria-label={label} onFocusIn={reveal}>
        {children}
      </div>
      {arrows && (
        <button
          type="button"
          class="carousel-arrow next js-only"
          aria-label={`${label}: вперёд`}
          onClick={() => scroll(step)}
        >
          ›
        </button>
      )}
    </div>
  );
}
