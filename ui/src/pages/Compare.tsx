/** /compare?cars=a,b: up to four cars side by side. The URL is the state:
 * it can be shared, and opening it makes it this browser's compare list.
 * Rows whose values differ are marked (a colour, a sign and words for
 * screen readers). On a phone the table scrolls sideways with the row
 * names kept in view. A lazily loaded chunk. */
import { useEffect, useId, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { CarPlaceholder } from "../components/ui/CarPlaceholder";
import { Img } from "../components/ui/Img";
import { NeedsScript } from "../components/ui/NeedsScript";
import { useToast } from "../components/ui/Toast";
import { useBodyTypeNames } from "../hooks/useBodyTypeNames";
import { useCarsBySlugs } from "../hooks/useCarsBySlugs";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSaved } from "../hooks/useSaved";
import { compareRows } from "../lib/compare";
import {
  COMPARE_MAX,
  comparePath,
  compareSlugs,
  GONE,
  readList,
  type SavedCar,
  snapshot,
  writeList,
} from "../lib/saved";
import { carPath, ROUTES } from "../routes";
import "./compare.css";

export default function Compare() {
  useDocumentTitle("Сравнение автомобилей");
  const slugs = compareSlugs(useSearch());
  const [, navigate] = useLocation();
  const stored = useSaved("compare");
  const { cars, missing, loading, error } = useCarsBySlugs(slugs);
  const toast = useToast();
  const [onlyDiffers, setOnlyDiffers] = useState(false);
  const captionId = useId();
  const key = slugs.join(",");
  const bodyName = useBodyTypeNames([...cars.values()].map((c) => c.bodyType));

  // No cars in the URL: the ones kept in this browser, if any.
  useEffect(() => {
    if (!key && stored.length > 0)
      navigate(comparePath(stored.map((e) => e.slug)), { replace: true });
  }, [key, stored, navigate]);

  // The URL becomes this browser's compare list, with the freshest snapshots.
  useEffect(() => {
    if (!key) return;
    const known = new Map<string, SavedCar>();
    for (const e of [...readList("favorites"), ...readList("compare")]) known.set(e.slug, e);
    for (const car of cars.values()) known.set(car.slug, snapshot(car));
    const next = key
      .split(",")
      .map(
        (slug) =>
          known.get(slug) ?? { slug, title: slug, price: "", image: "", status: "new" as const },
      );
    if (JSON.stringify(next) !== JSON.stringify(readList("compare"))) writeList("compare", next);
  }, [key, cars]);

  const remove = (slug: string) => {
    const rest = slugs.filter((s) => s !== slug);
    writeList(
      "compare",
      readList("compare").filter((e) => e.slug !== slug),
    );
    navigate(comparePath(rest), { replace: true });
  };

  const copy = async () => {
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: "Ссылка скопирована", description: url });
    } catch {
      toast({ title: "Не удалось скопировать ссылку", description: url, variant: "error" });
    }
  };

  if (slugs.length === 0) {
    return (
      <div class="container page">
        <h1>Сравнение автомобилей</h1>
        <div class="empty">
          <p>В сравнении пока нет автомобилей.</p>
          <p>
            Нажмите «Сравнить» на карточке или странице автомобиля — до {COMPARE_MAX} машин рядом.
          </p>
          <Link href={ROUTES.newCars} role="button">
            Перейти в каталог
          </Link>
        </div>
      </div>
    );
  }

  const ready = !loading || cars.size > 0;
  const columns = slugs.map((s) => cars.get(s) ?? null);
  const rows = compareRows(columns, bodyName).filter((r) => !onlyDiffers || r.differs);
  const entryOf = (slug: string): SavedCar =>
    stored.find((e) => e.slug === slug) ??
    readList("favorites").find((e) => e.slug === slug) ?? {
      slug,
      title: slug,
      price: "",
      image: "",
      status: "new",
    };
  const differing = compareRows(columns, bodyName).filter((r) => r.differs).length;

  return (
    <div class="container page compare-page">
      <h1>Сравнение автомобилей</h1>
      <div class="compare-tools">
        <button type="button" class="outline js-only" onClick={copy}>
          Скопировать ссылку
        </button>
        <label>
          <input
            type="checkbox"
            checked={onlyDiffers}
            onChange={(e) => setOnlyDiffers((e.target as HTMLInputElement).checked)}
          />
          Только различия
        </label>
      </div>
      {error && cars.size === 0 ? (
        <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
      ) : !ready ? (
        <>
          <p aria-busy="true" class="js-only">
            Загрузка…
          </p>
          <NeedsScript to="сравнить автомобили" />
        </>
      ) : (
        <>
          {/* Above the scrolling table, not its caption: a caption is as wide
           * as the table, and on a phone its end was past the screen's edge. */}
          <p id={captionId} class="compare-summary">
            Автомобилей: {slugs.length}. Различающихся характеристик: {differing}
            {differing > 0 && <span aria-hidden="true"> (отмечены знаком ≠)</span>}
          </p>
          <div
            class="compare-scroll"
            role="region"
            aria-labelledby={captionId}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
          >
            <table class="compare-table" data-testid="compare-table" aria-labelledby={captionId}>
              <thead>
                <tr>
                  <td class="compare-corner" />
                  {slugs.map((slug) => {
                    const car = cars.get(slug);
                    const entry = car ? snapshot(car) : entryOf(slug);
                    const gone = !car && missing.has(slug);
                    return (
                      <th
                        scope="col"
                        key={slug}
                        class={gone ? "compare-car gone" : "compare-car"}
                        data-slug={slug}
                      >
                        <div class="compare-photo">
                          {entry.image ? (
                            <Img src={entry.image} alt="" sizes="200px" width={800} height={600} />
                          ) : (
                            <CarPlaceholder />
                          )}
                        </div>
                        {car ? (
                          <Link href={carPath(slug)}>{entry.title}</Link>
                        ) : (
                          <span>{entry.title}</span>
                        )}
                        {gone && (
                          <p class="gone-mark" data-testid="compare-gone">
                            {GONE}
                          </p>
                        )}
                        <button
                          type="button"
                          class="secondary outline compare-remove"
                          aria-label={`Убрать из сравнения: ${entry.title}`}
                          onClick={() => remove(slug)}
                        >
                          Убрать
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr
                    key={row.label}
                    class={row.differs ? "differs" : undefined}
                    data-differs={row.differs ? "true" : undefined}
                  >
                    <th scope="row">
                      {row.differs && (
                        <span class="differs-sign" aria-hidden="true">
                          ≠{" "}
                        </span>
                      )}
                      {row.label}
                      {row.differs && <span class="visually-hidden"> (различается)</span>}
                    </th>
                    {row.values.map((v, i) => (
                      <td key={slugs[i]}>{v ?? "—"}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {slugs.length < COMPARE_MAX && (
        <p class="muted">
          Можно добавить ещё {COMPARE_MAX - slugs.length} — кнопкой «Сравнить» в{" "}
          <Link href={ROUTES.newCars}>каталоге</Link>.
        </p>
      )}
    </div>
  );
}
