import { Link } from "wouter";
import type { BodyTypeInfo } from "../../api/types";
import { bodyTypePath } from "../../routes";
import { Img } from "../ui/Img";

const ICONS: Record<string, string> = {
  sedan: "🚘",
  hatchback: "🚗",
  crossover: "🚙",
  wagon: "🚐",
  coupe: "🛻",
  pickup: "🛻",
};

export function BodyTypeGrid({ types }: { types: BodyTypeInfo[] }) {
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
              <span class="body-icon" aria-hidden="true">
                {ICONS[t.bodyType] ?? "🚗"}
              </span>
            )}
            <span class="body-label">{t.labelPlural}</span>
            <small class="muted">{t.carCount} авто</small>
          </Link>
        ))}
      </div>
    </section>
  );
}
