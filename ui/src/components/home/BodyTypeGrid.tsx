import { Link } from "wouter";
import type { BodyTypeInfo } from "../../api/types";
import { drawnOnceOnServer, propsKey } from "../../lib/serverFragments";
import { bodyTypePath } from "../../routes";
import { Img } from "../ui/Img";

/** A car's outline for a type without a banner: drawn, so it shows on every
 * device (an emoji needs a colour-emoji font, which many desktops lack). */
function CarOutline() {
  return (
    <svg class="body-icon" viewBox="0 0 64 32" width="72" height="36" aria-hidden="true">
      <path
        d="M4 23h5m14 0h18m14 0h5v-7l-9-3-8-7H21l-9 7-8 3z"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linejoin="round"
        stroke-linecap="round"
      />
      <circle cx="16" cy="23" r="5" fill="none" stroke="currentColor" stroke-width="2" />
      <circle cx="48" cy="23" r="5" fill="none" stroke="currentColor" stroke-width="2" />
    </svg>
  );
}

function BodyTypeGridMarkup({ types }: { types: BodyTypeInfo[] }) {
  return (
    <section class="section" aria-labelledby="body-types-title">
      <h2 id="body-types-title">Тип кузова</h2>
      <div class="body-grid">
        {types.map((t) => (
          <Link key={t.bodyType} href={bodyTypePath(t.bodyType)} class="body-tile">
            {t.imageUrl ? (
              <Img
                src={t.imageUrl}
                alt=""
                sizes="(max-width: 767px) 50vw, 16vw"
                width={400}
                height={300}
              />
            ) : (
              <CarOutline />
            )}
            <span class="body-label">{t.labelPlural}</span>
            <small class="muted">{t.carCount} авто</small>
          </Link>
        ))}
      </div>
    </section>
  );
}

export const BodyTypeGrid = drawnOnceOnServer("BodyTypeGrid", BodyTypeGridMarkup, propsKey);
