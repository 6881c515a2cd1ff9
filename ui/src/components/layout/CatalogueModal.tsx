import { Link } from "wouter";
import { ROUTES } from "../../routes";
import { Dialog } from "../ui/Dialog";

/** "Which catalogue?": new, used or lease cars, or cancel. */
export function CatalogueModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Выберите каталог" onClose={onClose}>
      <div class="catalogue-choice">
        <Link href={ROUTES.newCars} role="button" onClick={onClose}>
          Новые автомобили
        </Link>
        <Link href={ROUTES.usedCars} role="button" onClick={onClose}>
          Автомобили с пробегом
        </Link>
        <Link href={ROUTES.leaseCars} role="button" onClick={onClose}>
          Аренда с выкупом
        </Link>
      </div>
      <footer>
        <button type="button" class="secondary" onClick={onClose}>
          Отмена
        </button>
      </footer>
    </Dialog>
  );
}
