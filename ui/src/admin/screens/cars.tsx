import { keepPreviousData } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiDelete } from "../../api/client";
import type { Car } from "../../api/types";
import { Pagination } from "../../components/ui/Pagination";
import { CAR_FORMS, formatMileage, formatPrice, plural } from "../../lib/format";
import { STATUS_LABELS } from "../../lib/labels";
import { carPath } from "../../routes";
import {
  type AdminCar,
  adminCarsUrl,
  CARS_PER_PAGE,
  type CarsPage,
  type CarsSort,
  type ConditionFilter,
  carUrl,
  type PublishedFilter,
} from "../api";
import { useCan } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { SkeletonCards } from "../components/SkeletonCards";
import { useSalons } from "../components/useSalons";
import { useDebounced, useEditParam } from "../hooks";
import { figuresLine } from "../lib/marketplaces";
import { adminCarTitle } from "../lib/text";
import { useAdminMutation, useAdminQuery } from "../query";
import { CarDialog } from "./cars-dialog";
import { BulkPriceCard, StatsCard } from "./cars-prices";
import { ChooseBox, PublicationBar, type Selection, useSelection } from "./cars-publication";

type Editing = { id: string | null } | null;

/** Cars: count, search, filters and pages on the server, the bulk price
 * card, the statistics card, cards with edit and delete, and the chosen
 * cars published or unpublished at once; without `catalogueWrite` a
 * read-only list (no add, edit, delete, choice or price change). */
export default function CarsScreen() {
  const canWrite = useCan("catalogueWrite");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 300);
  const [condition, setCondition] = useState<ConditionFilter>("all");
  const [published, setPublished] = useState<PublishedFilter>("all");
  const [sort, setSort] = useState<CarsSort>("newest");
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Car | null>(null);
  // With several salons each card names its car's.
  const salons = useSalons();

  // A new search or filter starts at page 1.
  const key = `${q}|${condition}|${published}|${sort}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const setPage = (n: number) => setPaging({ key, page: n });
  const url = adminCarsUrl({ q, page, perPage: CARS_PER_PAGE, condition, published, sort });
  const cars = useAdminQuery<CarsPage>(url, { placeholderData: keepPreviousData });
  const data = cars.data;
  const selection = useSelection(url, data?.items.map((car) => car.id) ?? []);
  const filtered = q !== "" || condition !== "all" || published !== "all";

  // A self-check's link (?edit=<id>) opens that car (the dialog loads it).
  const [linked, dropEditLink] = useEditParam("/cars");
  useEffect(() => {
    if (linked && canWrite) setEditing({ id: linked });
  }, [linked, canWrite]);

  const remove = useAdminMutation((car: Car) => apiDelete(carUrl(car.id)), {
    success: "Автомобиль удален",
    failure: "Не удалось удалить автомобиль",
    onSuccess: () => setDeleting(null),
  });

  return (
    <AdminPage
      title="Автомобили"
      count={data?.stats.all ?? null}
      actions={
        canWrite ? (
          <button type="button" onClick={() => setEditing({ id: null })}>
            Добавить автомобиль
          </button>
        ) : null
      }
    >
      <div class="admin-tools">
        {canWrite && (
          <BulkPriceCard filter={{ q, condition, published }} matching={data?.total ?? null} />
        )}
        <StatsCard stats={data?.stats ?? null} />
      </div>
      <div role="search" class="inline-row car-filters" aria-label="Поиск и фильтры">
        <Field label="Поиск" class="grow">
          {(a) => (
            <input
              {...a}
              type="search"
              placeholder="Марка, название, модель или год"
              value={search}
              onInput={(e) => setSearch(e.currentTarget.value)}
              data-testid="car-search"
            />
          )}
        </Field>
        <Field label="Состояние">
          {(a) => (
            <select
              {...a}
              value={condition}
              onChange={(e) => setCondition(e.currentTarget.value as ConditionFilter)}
            >
              <option value="all">Все</option>
              <option value="new">Новые</option>
              <option value="used">С пробегом</option>
              <option value="lease">Аренда с выкупом</option>
            </select>
          )}
        </Field>
        <Field label="Публикация">
          {(a) => (
            <select
              {...a}
              value={published}
              onChange={(e) => setPublished(e.currentTarget.value as PublishedFilter)}
            >
              <option value="all">Все</option>
              <option value="true">Опубликованные</option>
              <option value="false">Черновики</option>
            </select>
          )}
        </Field>
        <Field label="Сортировка">
          {(a) => (
            <select
              {...a}
              value={sort}
              onChange={(e) => setSort(e.currentTarget.value as CarsSort)}
              data-testid="car-sort"
            >
              <option value="newest">Сначала новые</option>
              <option value="views">По просмотрам</option>
              <option value="contacts">По обращениям</option>
            </select>
          )}
        </Field>
      </div>
      {cars.isError && !data ? (
        <ErrorPanel
          error={cars.error}
          title="Не удалось загрузить автомобили"
          url={url}
          onRetry={() => void cars.refetch()}
        />
      ) : !data ? (
        <SkeletonCards count={6} label="Загрузка автомобилей…" />
      ) : data.items.length === 0 ? (
        <p class="empty-state" data-testid="empty">
          {filtered ? "Автомобили не найдены" : "Автомобили еще не добавлены"}
        </p>
      ) : (
        <>
          <p class="stat-note" aria-live="polite" data-testid="found">
            {filtered ? `Найдено: ${data.total} ${plural(data.total, CAR_FORMS)}` : ""}
            {cars.isFetching && <span aria-busy="true"> Обновление…</span>}
          </p>
          {canWrite && <PublicationBar selection={selection} onPage={data.items.length} />}
          <ul class="admin-grid" data-testid="cars">
            {data.items.map((car) => (
              <li key={car.id}>
                <CarCard
                  car={car}
                  salon={salons.several ? salons.name(car.salonId) : undefined}
                  selection={canWrite ? selection : undefined}
                  onEdit={canWrite ? () => setEditing({ id: car.id }) : undefined}
                  onDelete={canWrite ? () => setDeleting(car) : undefined}
                />
              </li>
            ))}
          </ul>
          <Pagination page={data.page} pages={data.pages} onPage={setPage} />
        </>
      )}
      {editing && canWrite && (
        <CarDialog
          id={editing.id}
          onClose={() => {
            setEditing(null);
            dropEditLink();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Удалить автомобиль?"
        message={deleting ? `${adminCarTitle(deleting)} будет удален.` : null}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </AdminPage>
  );
}

function CarCard({
  car,
  salon,
  selection,
  onEdit,
  onDelete,
}: {
  car: AdminCar;
  /** Its salon's name, when there are several. */
  salon?: string;
  /** Absent for a role that may not change the catalogue. */
  selection?: Selection;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const title = adminCarTitle(car);
  const titleId = `car-title-${car.id}`;
  return (
    <article class="admin-card car-admin-card" data-testid="car-card" data-slug={car.slug}>
      {selection && <ChooseBox titleId={titleId} selection={selection} id={car.id} />}
      {car.mainImage ? (
        <img src={car.mainImage} alt={title} loading="lazy" />
      ) : (
        <div class="no-photo" aria-hidden="true">
          Нет фото
        </div>
      )}
      <div class="badges">
        <span class={`badge badge-${car.status}`}>{STATUS_LABELS[car.status]}</span>
        {!car.published && <span class="badge badge-draft">Черновик</span>}
        {!car.inStock && <span class="badge">Нет в наличии</span>}
        {car.featured && <span class="badge">Рекомендуемый</span>}
      </div>
      <h3 id={titleId}>{title}</h3>
      <p>
        {car.year} г.{car.status === "used" && car.mileage > 0 && `, ${formatMileage(car.mileage)}`}
      </p>
      <p>
        <strong data-testid="car-price">{formatPrice(car.price)}</strong>
      </p>
      {salon && (
        <p class="muted" data-testid="car-salon-name">
          Салон: {salon}
        </p>
      )}
      <p class="muted" data-testid="car-figures">
        {figuresLine(car)}
      </p>
      <div class="card-actions">
        {onEdit && (
          <button type="button" class="secondary" aria-label={`Изменить ${title}`} onClick={onEdit}>
            Изменить
          </button>
        )}
        {onDelete && (
          <button type="button" class="danger" aria-label={`Удалить ${title}`} onClick={onDelete}>
            Удалить
          </button>
        )}
        {car.published && (
          <a
            href={carPath(car.slug)}
            target="_blank"
            rel="noopener"
            aria-label={`${title} на сайте`}
          >
            На сайте
          </a>
        )}
      </div>
    </article>
  );
}
