/** The compare table's rows: a label and each car's value as text; a row
 * differs when the cars still on sale do not all have the same value. */
import type { Car } from "../api/types";
import { formatMileage, formatPrice, monthlyPrice } from "./format";
import {
  BODY_TYPE_LABELS,
  DRIVETRAIN_LABELS,
  FUEL_LABELS,
  STATUS_LABELS,
  TRANSMISSION_LABELS,
} from "./labels";
import { lowestPrice, moneyText } from "./price";

export interface CompareRow {
  label: string;
  /** One per column; null for a car that is gone. */
  values: (string | null)[];
  differs: boolean;
}

const NONE = "—";

/** The price with every conditional discount as money text
 * (`lib/price.ts`, docs/pricing.md); null when the car has none. */
export function lowestPriceText(car: Car): string | null {
  const lowest = lowestPrice(car);
  return lowest === null ? null : moneyText(lowest);
}

const label = (labels: Record<string, string>, code: string) => labels[code] ?? code;

const FIELDS: [string, (car: Car) => string][] = [
  ["Цена", (c) => formatPrice(c.price)],
  [
    "Цена со всеми скидками",
    (c) => {
      const low = lowestPriceText(c);
      return low ? formatPrice(low) : NONE;
    },
  ],
  ["Платёж в месяц", (c) => (c.monthlyPayment ? monthlyPrice(c.monthlyPayment) : NONE)],
  ["Состояние", (c) => STATUS_LABELS[c.status] ?? c.status],
  ["Наличие", (c) => (c.inStock ? "В наличии" : "Под заказ")],
  ["Марка", (c) => c.brandName],
  ["Модель", (c) => c.model],
  ["Год выпуска", (c) => String(c.year)],
  ["Пробег", (c) => (c.mileage > 0 ? formatMileage(c.mileage) : NONE)],
  ["Кузов", (c) => BODY_TYPE_LABELS[c.bodyType]?.[1] ?? c.bodyType],
  ["Двигатель", (c) => c.engine],
  ["Топливо", (c) => label(FUEL_LABELS, c.fuelType)],
  ["Коробка передач", (c) => label(TRANSMISSION_LABELS, c.transmission)],
  ["Привод", (c) => label(DRIVETRAIN_LABELS, c.drivetrain)],
  ["Цвет", (c) => c.color || NONE],
];

/** The rows for the columns (a car, or null for a gone one). Rows where no
 * car has a value ("—" everywhere) are left out. A row differs when at least
 * two cars are on sale and their values are not all the same. */
export function compareRows(columns: (Car | null)[]): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const [name, value] of FIELDS) {
    const values = columns.map((c) => (c ? value(c) : null));
    const present = values.filter((v): v is string => v !== null);
    if (present.length > 0 && present.every((v) => v === NONE)) continue;
    const differs = present.length >= 2 && new Set(present).size > 1;
    rows.push({ label: name, values, differs });
  }
  return rows;
}
