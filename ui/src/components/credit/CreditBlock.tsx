import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { CarBrief } from "../../api/types";
import { NeedsScript } from "../ui/NeedsScript";

/** The calculator is its own small chunk, loaded when its block comes near
 * the screen or its button is pressed. */
const CreditCalculator = lazy(() => import("./CreditCalculator"));

/** The credit calculator's place on the car page (the price less the
 * credit discount) and on /auto-credit (a price input). */
export function CreditBlock({ car }: { car?: CarBrief }) {
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || wanted) return;
    if (typeof IntersectionObserver === "undefined") {
      setWanted(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setWanted(true);
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [wanted]);
  return (
    <section
      ref={ref}
      id="credit-calculator"
      class="section credit-block"
      aria-labelledby={titleId}
      data-testid="credit-block"
    >
      <h2 id={titleId}>Кредитный калькулятор</h2>
      {wanted ? (
        <Suspense fallback={<p class="muted">Загрузка калькулятора…</p>}>
          <CreditCalculator car={car} />
        </Suspense>
      ) : (
        <>
          <button type="button" class="outline js-only" onClick={() => setWanted(true)}>
            Рассчитать платёж
          </button>
          <NeedsScript to="рассчитать платёж" />
        </>
      )}
    </section>
  );
}
