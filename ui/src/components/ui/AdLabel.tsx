import { type AdMark, adLabel } from "../../lib/format";

/** An ad's mark (adLabel in src/lib/format.ts): small, muted text; nothing when not an ad. */
export function AdLabel({ class: extra, ...mark }: AdMark & { class?: string }) {
  const text = adLabel(mark);
  return text ? (
    <p class={extra ? `ad-label ${extra}` : "ad-label"} data-testid="ad-label">
      {text}
    </p>
  ) : null;
}
