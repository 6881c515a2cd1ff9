/** The marketplaces' car fields of the car form (docs/admin.md, "The car
 * form"): owners by ПТС, an accident and the state, for a used car; the
 * steering wheel, for every car. Their inputs' values, the owners' rule and
 * what the form sends. */
import type { components } from "../api/schema";
import type { Car, CarStatus } from "../api/types";

type CarState = components["schemas"]["CarState"];
type Wheel = components["schemas"]["Wheel"];

/** What the four inputs hold: "" is «Не указано». */
export interface MarketValues {
  owners: string;
  accident: "" | "yes" | "no";
  state: "" | CarState;
  wheel: Wheel;
}

/** The server's refusal (src/domain/cars/input.rs OWNERS_RANGE). */
export const OWNERS_RANGE = "Владельцев по ПТС — от 0 до 99";
export const OWNERS_MAX = 99;

export const ACCIDENT_LABELS: Record<MarketValues["accident"], string> = {
  "": "Не указано",
  no: "Нет",
  yes: "Да",
};

/** «Не указано» first, then the states. */
export const CAR_STATE_LABELS: Record<"" | CarState, string> = {
  "": "Не указано",
  excellent: "Отличное",
  good: "Хорошее",
  average: "Среднее",
  needs_repair: "Требует ремонта",
};

export const WHEEL_LABELS: Record<Wheel, string> = { left: "Левый", right: "Правый" };

/** The fields a used car shows (and sends). */
export const usedOnly = (status: CarStatus | "") => status === "used";

/** A car's values; a new car's are all «Не указано», the wheel left. */
export function marketValues(car: Car | null): MarketValues {
  const accident = car?.accident;
  return {
    owners: car?.owners == null ? "" : String(car.owners),
    accident: accident == null ? "" : accident ? "yes" : "no",
    state: car?.state ?? "",
    wheel: car?.wheel ?? "left",
  };
}

/** Owners: empty (not stated), or a whole number from 0 to 99. */
export function ownersRule(text: string): true | string {
  const t = text.trim();
  if (t === "") return true;
  if (!/^\d{1,2}$/.test(t)) return OWNERS_RANGE;
  return Number(t) <= OWNERS_MAX || OWNERS_RANGE;
}

/** What the form sends: the wheel always; owners, accident and state only
 * for a used car (a new or lease car's are kept by the server, docs/admin.md
 * "The car form's round trip"); «Не указано» is null. */
export function marketInput(v: MarketValues, status: CarStatus | "") {
  const used = usedOnly(status)
    ? {
        owners: v.owners.trim() === "" ? null : Number(v.owners.trim()),
        accident: v.accident === "" ? null : v.accident === "yes",
        state: v.state === "" ? null : v.state,
      }
    : {};
  return { ...used, wheel: v.wheel };
}
