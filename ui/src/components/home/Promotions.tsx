import type { Promotion } from "../../api/types";
import { formatDate } from "../../lib/format";
import { drawnOnceOnServer, propsKey } from "../../lib/serverFragments";
import { AdLabel } from "../ui/AdLabel";
import { Img } from "../ui/Img";

/** Up to three active promotions, an ad among them marked; nothing when
 * there are none. */
function PromotionsMarkup({
  items,
  title = "Популярные акции",
}: {
  items: Promotion[];
  title?: string;
}) {
  const shown = items.slice(0, 3);
  if (shown.length === 0) return null;
  return (
    <section class="section" aria-labelledby="promotions-title">
      <h2 id="promotions-title">{title}</h2>
      <div class="promo-grid">
        {shown.map((p) => (
          <article class="promo-card" key={p.id} data-testid="promotion">
            <div class="promo-media">
              {p.image ? (
                <Img
                  src={p.image}
                  alt={p.title}
                  sizes="(max-width: 767px) 100vw, 33vw"
                  width={800}
                  height={450}
                />
              ) : (
                <span class="promo-placeholder" role="img" aria-label="Акция">
                  🎁
                </span>
              )}
              {p.discount && <span class="badge badge-discount">{p.discount}</span>}
            </div>
            <h3>{p.title}</h3>
            <p>{p.description}</p>
            {p.validUntil && <p class="muted">Действует до: {formatDate(p.validUntil)}</p>}
            <AdLabel erid={p.adErid} advertiser={p.adAdvertiser} />
          </article>
        ))}
      </div>
    </section>
  );
}

export const Promotions = drawnOnceOnServer("Promotions", PromotionsMarkup, propsKey);
