import { Link } from "wouter";
import type { BrandBrief } from "../../api/types";
import { drawnOnceOnServer, propsKey } from "../../lib/serverFragments";
import { brandPath } from "../../routes";
import { BrandLogo } from "../ui/BrandLogo";
import { Carousel } from "../ui/Carousel";

/** The home page's strip of brands with cars on sale, each a link to its page. */
function HomeBrandsMarkup({ brands }: { brands: BrandBrief[] }) {
  return (
    <section class="section" aria-labelledby="brands-title">
      <h2 id="brands-title">Марки</h2>
      <Carousel label="Марки" step={300} arrows={brands.length > 6}>
        {brands.map((b) => (
          <div class="carousel-item brand-item" role="listitem" key={b.id}>
            <Link href={brandPath(b.slug)} class="brand-tile">
              <BrandLogo name={b.name} logo={b.logo} />
              <span>{b.name}</span>
            </Link>
          </div>
        ))}
      </Carousel>
    </section>
  );
}

export const HomeBrands = drawnOnceOnServer("HomeBrands", HomeBrandsMarkup, propsKey);
