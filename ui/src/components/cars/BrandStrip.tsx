import type { BrandBrief } from "../../api/types";
import { inPlace } from "../../lib/links";
import { drawnOnceWithLinks, fingerprint } from "../../lib/serverFragments";
import { BrandLogo } from "../ui/BrandLogo";

interface Props {
  brands: BrandBrief[];
  selected: string | null;
  onSelect: (slug: string | null) => void;
  /** The list's address with that brand: each choice is a real link
   * (crawlers, no JavaScript); a plain click filters in place. */
  href: (slug: string | null) => string;
}

/** The brand picker strip with an "All" option. */
function BrandStripMarkup({ brands, selected, onSelect, href }: Props) {
  const choice = (slug: string | null) => ({
    role: "button" as const,
    href: href(slug),
    class: selected === slug ? "chip active" : "chip",
    "aria-pressed": selected === slug,
    ...inPlace(() => onSelect(slug)),
  });
  return (
    <div class="brand-strip" role="group" aria-label="Марка">
      <a {...choice(null)}>Все</a>
      {brands.map((b) => (
        <a key={b.id} {...choice(b.slug)}>
          <BrandLogo name={b.name} logo={b.logo} size={24} />
          {b.name}
        </a>
      ))}
    </div>
  );
}

/** The strip; the server draws it once per brands and choice, and puts in
 * each page's links (they keep the page's other filters): a new combination
 * of filters drew its forty links and logos afresh, 1.5-2 ms of a cold
 * filtered page (docs/rendering.md). */
export const BrandStrip = drawnOnceWithLinks(
  "BrandStrip",
  BrandStripMarkup,
  (p) => `${fingerprint(p.brands)}\u0001${p.selected}`,
);
