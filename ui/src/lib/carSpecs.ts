/** A car page's specs: the tiles beside the price and the two lists below
 * (main and technical), as label and value. A field the dealer did not state
 * (a drive of null, no complectation, generation or doors) is left out, and
 * so is a body-type name still on its way. */
import type { Car } from "../api/types";
import { formatMileage } from "./format";
import { DRIVETRAIN_LABELS, FUEL_LABELS, TRANSMISSION_LABELS } from "./labels";

export type SpecRow = [label: string, value: string];

export interface CarSpecs {
  tiles: SpecRow[];
  main: SpecRow[];
  tech: SpecRow[];
}

/** Label and value pairs, those without a value dropped. */
function rows(pairs: [string, string | null | undefined][]): SpecRow[] {
  return pairs.filter((r): r is SpecRow => !!r[1]);
}

export function carSpecs(c: Car, bodyName: (code: string) => string | undefined): CarSpecs {
  const drive = c.drivetrain ? (DRIVETRAIN_LABELS[c.drivetrain] ?? c.drivetrain) : null;
  const fuel = FUEL_LABELS[c.fuelType] ?? c.fuelType;
  const gearbox = TRANSMISSION_LABELS[c.transmission] ?? c.transmission;
  const tiles = rows([
    ["Год", String(c.year)],
    ["Пробег", c.status === "used" && c.mileage > 0 ? formatMileage(c.mileage) : null],
    ["Привод", c.status === "new" ? drive : null],
    ["Топливо", fuel],
    ["КПП", gearbox],
  ]);
  const main = rows([
    ["Марка", c.brandName],
    ["Модель", c.model],
    ["Поколение", c.generation],
    ["Комплектация", c.trim],
    ["Год выпуска", String(c.year)],
    ["Тип кузова", bodyName(c.bodyType)],
    ["Двери", c.doors ? String(c.doors) : null],
  ]);
  if (c.status === "used") main.push(["ДТП", "Нет"], ["Владельцев", "1"]);
  const tech = rows([
    ["Двигатель", c.engine],
    ["Тип топлива", fuel],
    ["Коробка передач", gearbox],
    ["Привод", drive],
  ]);
  return { tiles, main, tech };
}
