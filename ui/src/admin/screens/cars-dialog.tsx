/** The add (id null) or edit dialog of a car: loads the car, the brands and
 * the body types, then shows the form (cars-form.tsx). */
import type { BodyTypeInfo, Brand, Car } from "../../api/types";
import { adminCarUrl, BODY_TYPES_URL, BRANDS_URL } from "../api";
import { ErrorPanel } from "../components/ErrorPanel";
import { FormDialog } from "../components/FormDialog";
import { useAdminQuery } from "../query";
import { CarForm } from "./cars-form";

/** The add (id null) or edit dialog of a car. */
export function CarDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const car = useAdminQuery<Car>(id ? adminCarUrl(id) : null, {
    // The form keeps its own copy once open: no refetch under the admin's hands.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
    // Dropped when the dialog closes: the next edit starts from the server.
    gcTime: 0,
  });
  const brands = useAdminQuery<Brand[]>(BRANDS_URL, { refetchOnWindowFocus: false });
  // The dealership's own body types (docs/admin.md).
  const bodyTypes = useAdminQuery<BodyTypeInfo[]>(BODY_TYPES_URL, { refetchOnWindowFocus: false });
  const title = id ? "Изменить автомобиль" : "Добавить автомобиль";
  const failure =
    (id && car.isError && car.error) ||
    (brands.isError && brands.error) ||
    (bodyTypes.isError && bodyTypes.error);
  const ready = brands.data && bodyTypes.data && (!id || car.data);
  if (failure || !ready) {
    return (
      <FormDialog open title={title} dirty={false} onClose={onClose} testId="car-dialog">
        {failure ? (
          <ErrorPanel
            error={failure}
            title="Не удалось загрузить автомобиль"
            onRetry={() => {
              void car.refetch();
              void brands.refetch();
              void bodyTypes.refetch();
            }}
          />
        ) : (
          <p aria-busy="true">Загрузка…</p>
        )}
      </FormDialog>
    );
  }
  return (
    <CarForm
      title={title}
      car={id ? (car.data ?? null) : null}
      brands={brands.data ?? []}
      bodyTypes={bodyTypes.data ?? []}
      onClose={onClose}
    />
  );
}
