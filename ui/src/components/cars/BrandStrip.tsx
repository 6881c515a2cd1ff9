import type { BrandBrief } from "../../api/types";
import { inPlace } from "../../lib/links";
import { drawnOnceOnServer } from "../../lib/serverFragments";
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

/** The strip; the server draws it once per brands, choice and links. */
export const BrandStrip = drawnOnceOnServer("BrandStrip", BrandStripMarkup, (p) =>
  JSON.stringify([p.brands, p.selected, p.href(null), p.brands.map((b) => p.href(b.slug))]),
);
