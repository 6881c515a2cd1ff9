import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import type { Car, CarBrief, Promotion } from "../api/types";
import * as urls from "../api/urls";
import { carTitle } from "../components/cars/CarCard";
import { CarGrid } from "../components/cars/CarGrid";
import { CarSalon } from "../components/cars/CarSalon";
import { DetailGallery } from "../components/cars/DetailGallery";
import { HonestPrice } from "../components/cars/HonestPrice";
import { CreditBlock } from "../components/credit/CreditBlock";
import { Promotions } from "../components/home/Promotions";
import { LeadDialog, type LeadDialogKind } from "../components/leads/LeadDialog";
import { CarTools } from "../components/saved/CarTools";
import { NeedsScript } from "../components/ui/NeedsScript";
import { isNotFound, useApi } from "../hooks/useApi";
import { useBodyTypeNames } from "../hooks/useBodyTypeNames";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";
import { carSpecs } from "../lib/carSpecs";
import { dailyPrice, monthlyPrice } from "../lib/format";
import { STATUS_LABELS } from "../lib/labels";
import { salonOf } from "../lib/salons";
import { brandPath } from "../routes";
import { NotFound } from "./NotFound";

function Skeleton() {
  return (
    <div class="container page" aria-busy="true" data-testid="car-skeleton">
      <div class="skeleton skeleton-title" />
      <div class="detail-layout">
        <div class="skeleton detail-main" />
        <div class="skeleton skeleton-panel" />
      </div>
    </div>
  );
}

export function CarPage({ slug }: { slug: string }) {
  const car = useApi<Car>(urls.carBySlug(slug));
  const similar = useApi<CarBrief[]>(car.data ? urls.similarCars(car.data.bodyType) : null);
  const promotions = useApi<Promotion[]>(car.data ? urls.PROMOTIONS : null).data ?? [];
  const [dialog, setDialog] = useState<LeadDialogKind | null>(null);
  const { salons } = useSettings();
  const bodyName = useBodyTypeNames(car.data ? [car.data.bodyType] : []);
  const title = car.data ? carTitle(car.data) : null;
  useDocumentTitle(title ?? (car.error ? "Автомобиль не найден" : null));

  if (car.error && isNotFound(car.error)) {
    return (
      <NotFound
        title="Автомобиль не найден"
        text="Автомобиль с таким идентификатором не существует"
      />
    );
  }
  if (car.error)
    return <p class="container page empty">Не удалось загрузить автомобиль. Обновите страницу.</p>;
  if (!car.data || !title) return <Skeleton />;
  const c = car.data;
  const { tiles, main, tech } = carSpecs(c, bodyName);
  const others = (similar.data ?? []).filter((s) => s.id !== c.id).slice(0, 4);
  // Several salons (issue 46): the car's own, its phone for the requests.
  const salon = salonOf(salons, c.salonId);

  return (
    <div class="container page">
      <p class="crumbs">
        <Link href="/">Главная</Link> /{" "}
        {c.brandSlug ? <Link href={brandPath(c.brandSlug)}>{c.brandName}</Link> : c.brandName} /{" "}
        {c.name}
      </p>
      <h1>{title}</h1>
      <p class="muted">
        {c.model}, {c.year} год
      </p>
      <div class="detail-layout">
        <DetailGallery
          images={c.images.length ? c.images : c.mainImage ? [c.mainImage] : []}
          alt={title}
        />
        <aside class="detail-panel">
          <div class="badges static">
            <span class={`badge badge-${c.status}`}>{STATUS_LABELS[c.status]}</span>
            {c.inStock && <span class="badge badge-stock">В наличии</span>}
          </div>
          <HonestPrice car={c} />
          {c.monthlyPayment && (
            <p class="detail-monthly" data-testid="car-monthly">
              {monthlyPrice(c.monthlyPayment)}
            </p>
          )}
          {c.status === "lease" && c.dailyPrice && (
            <p class="detail-monthly">{dailyPrice(c.dailyPrice)}</p>
          )}
          <ul class="spec-tiles">
            {tiles.map(([k, v]) => (
              <li key={k}>
                <small>{k}</small>
                <strong>{v}</strong>
              </li>
            ))}
          </ul>
          <NeedsScript phone={salon?.phone || undefined} phoneClass={salon?.phoneClass} />
          <div class="detail-actions js-only">
            <button type="button" class="outline" onClick={() => setDialog("trade_in")}>
              Trade-In
            </button>
            <button type="button" onClick={() => setDialog("credit")}>
              Кредит
            </button>
            <button type="button" class="secondary" onClick={() => setDialog("instalment")}>
              Рассрочка
            </button>
            <button
              type="button"
              class="secondary detail-callback"
              onClick={() => setDialog("callback")}
            >
              Перезвоните мне
            </button>
          </div>
          <CarTools car={c} />
          {salon && <CarSalon salon={salon} />}
        </aside>
      </div>
      <div class="spec-sections">
        <SpecSection id="main-specs" title="Основные характеристики" rows={main} />
        <SpecSection id="tech-specs" title="Технические характеристики" rows={tech} />
      </div>
      {c.status !== "lease" && <CreditBlock car={c} />}
      <Promotions items={promotions} />
      {others.length > 0 && (
        <section class="section" aria-labelledby="similar-title">
          <h2 id="similar-title">Похожие автомобили</h2>
          <CarGrid cars={others} />
        </section>
      )}
      {dialog && <LeadDialog kind={dialog} open car={c} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** A titled list of a car's specifications. */
function SpecSection({
  id,
  title,
  rows,
}: {
  id: string;
  title: string;
  rows: readonly (readonly [string, ReactNode])[];
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl class="spec-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
