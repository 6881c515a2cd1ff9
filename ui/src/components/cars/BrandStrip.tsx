import type { BrandBrief } from "../../api/types";
import { BrandLogo } from "../ui/BrandLogo";

interface Props {
  brands: BrandBrief[];
  selected: string | null;
  onSelect: (slug: string | null) => void;
}

/** The brand picker strip with an "All" option. */
export function BrandStrip({ brands, selected, onSelect }: Props) {
  return (
    <div class="brand-strip" role="group" aria-label="Марка">
      <button
        type="button"
        class={selected === null ? "chip active" : "chip"}
        aria-pressed={selected === null}
        onClick={() => onSelect(null)}
      >
        Все
      </button>
      {brands.map((b) => (
        <button
          type="button"
          key={b.id}
          class={selected === b.slug ? "chip active" : "chip"}
          aria-pressed={selected === b.slug}
          onClick={() => onSelect(b.slug)}
        >
          <BrandLogo name={b.name} logo={b.logo} size={24} />
          {b.name}
        </button>
      ))}
    </div>
  );
}
