import type { ReactNode } from "react";

/** A table that may be wider than a phone: it scrolls sideways inside this
 * region, which keyboard users can reach (and scroll with the arrows). */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
