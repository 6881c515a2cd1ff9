/** The compare table's rows: a label and each car's value as text; a row
 * differs when the cars still on sale do not all have the same value. */
import type { CarBrief } from "../api/types";
import { formatMileage, formatPrice, monthlyPrice } from "./format";
import {
  bodyTypeName,
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
export function lowestPriceText(car: CarBrief): string | null {
  const lowest = lowestPrice(car);
  return lowest === null ? null : moneyText(lowest);
}

const label = (labels: Record<string, string>, code: string) => labels[code] ?? code;

/** A body type's name; the page passes the body-type table's (see
 * useBodyTypeNames), the six defaults and the code otherwise. */
export type BodyTypeNames = (code: string) => string | undefined;

const defaultNames: BodyTypeNames = (code) => bodyTypeName(code, undefined);

const FIELDS: [string, (car: CarBrief, bodyName: BodyTypeNames) => string][] = [
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
  ["Поколение", (c) => c.generation || NONE],
  ["Комплектация", (c) => c.trim || NONE],
  ["Год выпуска", (c) => String(c.year)],
  ["Пробег", (c) => (c.mileage > 0 ? formatMileage(c.mileage) : NONE)],
  ["Кузов", (c, bodyName) => bodyName(c.bodyType) ?? c.bodyType],
  ["Двери", (c) => (c.doors ? String(c.doors) : NONE)],
  ["Двигатель", (c) => c.engine],
  ["Топливо", (c) => label(FUEL_LABELS, c.fuelType)],
  ["Коробка передач", (c) => label(TRANSMISSION_LABELS, c.transmission)],
  // Not stated by the dealer: a dash.
  ["Привод", (c) => (c.drivetrain ? label(DRIVETRAIN_LABELS, c.drivetrain) : NONE)],
  ["Цвет", (c) => c.color || NONE],
];

/** The rows for the columns (a car, or null for a gone one). Rows where no
 * car has a value ("—" everywhere) are left out. A row differs when at least
 * two cars are on sale and their values are not all the same. */
export function compareRows(
  columns: (CarBrief | null)[],
  bodyName: BodyTypeNames = defaultNames,
): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const [name, value] of FIELDS) {
    const values = columns.map((c) => (c ? value(c, bodyName) : null));
    const present = values.filter((v): v is string => v !== null);
    if (present.length > 0 && present.every((v) => v === NONE)) continue;
    const differs = present.length >= 2 && new Set(present).size > 1;
    rows.push({ label: name, values, differs });
  }
  return rows;
}
