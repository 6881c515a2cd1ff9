/** /favorites: the cars the visitor keeps in this browser. A car that is
 * sold or unpublished is shown from its snapshot, marked, with a remove
 * button. A lazily loaded chunk. */
import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { CarBrief } from "../api/types";
import { CarCard } from "../components/cars/CarCard";
import { LeadDialog } from "../components/leads/LeadDialog";
import { GoneCard } from "../components/saved/GoneCard";
import { NeedsScript } from "../components/ui/NeedsScript";
import { CardSkeletons } from "../components/ui/Skeleton";
import { useCarsBySlugs } from "../hooks/useCarsBySlugs";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useHydrated } from "../hooks/useHydrated";
import { useSaved } from "../hooks/useSaved";
import { readList, refreshed, removeSaved, writeList } from "../lib/saved";
import { ROUTES } from "../routes";

export default function Favorites() {
  useDocumentTitle("Избранное");
  const list = useSaved("favorites");
  // The list lives in this browser: the server's page shows where it goes.
  const hydrated = useHydrated();
  const { cars, missing, loading, error } = useCarsBySlugs(list.map((e) => e.slug));
  const [selected, setSelected] = useState<CarBrief | null>(null);

  // Snapshots follow the cars on sale (a new price, a new photo).
  useEffect(() => {
    if (cars.size === 0) return;
    const now = readList("favorites");
    const fresh = refreshed(now, [...cars.values()]);
    if (JSON.stringify(fresh) !== JSON.stringify(now)) writeList("favorites", fresh);
  }, [cars]);

  const gone = list.filter((e) => missing.has(e.slug)).length;
  return (
    <div class="container page">
      <h1>Избранное</h1>
      <p class="muted">
        Список хранится только в этом браузере: без регистрации, никуда не отправляется.
      </p>
      {/* The server draws «Загрузка…»; the list or the empty text replaces it
       * in a box tall enough that nothing below it moves on the screen. */}
      <div class="saved-area">
        {!hydrated ? (
          <>
            <p aria-busy="true" class="js-only">
              Загрузка…
            </p>
            <NeedsScript to="увидеть избранное, сохранённое в этом браузере" />
          </>
        ) : list.length === 0 ? (
          <div class="empty">
            <p>В избранном пока нет автомобилей.</p>
            <p>Нажмите на сердечко на карточке автомобиля, чтобы сохранить его здесь.</p>
            <Link href={ROUTES.newCars} role="button">
              Перейти в каталог
            </Link>
          </div>
        ) : error && cars.size === 0 ? (
          <p class="empty">Не удалось загрузить автомобили. Обновите страницу.</p>
        ) : loading && cars.size === 0 ? (
          <CardSkeletons count={Math.min(list.length, 4)} />
        ) : (
          <>
            <p data-testid="favorites-count">
              Автомобилей: {list.length}
              {gone > 0 && `, из них сняты с продажи: ${gone}`}
            </p>
            <div class="car-grid">
              {list.map((entry) => {
                const car = cars.get(entry.slug);
                if (car) return <CarCard key={entry.slug} car={car} onRequest={setSelected} />;
                if (!missing.has(entry.slug)) return null;
                return (
                  <GoneCard
                    key={entry.slug}
                    entry={entry}
                    removeLabel="Удалить из избранного"
                    onRemove={() => removeSaved("favorites", entry.slug)}
                  />
                );
              })}
            </div>
          </>
        )}
      </div>
      <LeadDialog
        kind={selected?.status === "lease" ? "lease" : "credit"}
        open={selected !== null}
        car={selected ?? undefined}
        onClose={() => setSelected(null)}
      />
    </div>
  );
}
