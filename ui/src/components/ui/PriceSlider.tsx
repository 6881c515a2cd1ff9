import { useEffect, useRef, useState } from "react";
import { PRICE_MAX, PRICE_MIN, PRICE_STEP } from "../../lib/filters";
import { formatNumber, shortPrice } from "../../lib/format";

interface Props {
  value: number;
  onChange: (value: number) => void;
  label?: string;
}

/** "Цена до": 500 тыс. to 10 млн. in steps of 100 000; applied when released. */
export function PriceSlider({ value, onChange, label = "Цена до" }: Props) {
  const [draft, setDraft] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    // The native change event fires when the thumb is released or a key
    // stepped it; a short pause lets several key presses make one change.
    let timer: number | undefined;
    const commit = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => latest.current(Number(el.value)), 350);
    };
    el.addEventListener("change", commit);
    return () => {
      window.clearTimeout(timer);
      el.removeEventListener("change", commit);
    };
  }, []);
  return (
    <label class="price-slider">
      <span>
        {label}: <strong>{draft >= PRICE_MAX ? "любая" : `${formatNumber(draft)} ₽`}</strong>
      </span>
      <input
        ref={input}
        type="range"
        min={PRICE_MIN}
        max={PRICE_MAX}
        step={PRICE_STEP}
        value={draft}
        data-testid="price-slider"
        onInput={(e) => setDraft(Number((e.target as HTMLInputElement).value))}
      />
      <span class="range-labels" aria-hidden="true">
        <span>{shortPrice(PRICE_MIN)}</span>
        <span>{shortPrice(PRICE_MAX)}</span>
      </span>
    </label>
  );
}
