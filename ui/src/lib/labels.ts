import type { BodyTypeCode, BodyTypeInfo, CarStatus } from "../api/types";

export const STATUS_LABELS: Record<CarStatus, string> = {
  new: "Новый",
  used: "С пробегом",
  lease: "Аренда с выкупом",
};

export const TRANSMISSION_LABELS: Record<string, string> = {
  manual: "Механика",
  automatic: "Автомат",
  cvt: "Вариатор",
  robotic: "Робот",
};

export const DRIVETRAIN_LABELS: Record<string, string> = {
  front: "Передний",
  rear: "Задний",
  all: "Полный",
};

export const FUEL_LABELS: Record<string, string> = {
  gasoline: "Бензин",
  diesel: "Дизель",
  hybrid: "Гибрид",
  electric: "Электро",
};

/** The names of the six body types every dealership starts with (list /
 * single): shown while the body-type table (`GET /api/body-types`) is not at
 * hand. Any other type's names come from the table only. */
export const BODY_TYPE_LABELS: Readonly<Record<string, readonly [string, string]>> = {
  sedan: ["Седаны", "Седан"],
  hatchback: ["Хэтчбеки", "Хэтчбек"],
  crossover: ["Кроссоверы", "Кроссовер"],
  wagon: ["Универсалы", "Универсал"],
  coupe: ["Внедорожники", "Внедорожник"],
  pickup: ["Пикапы", "Пикап"],
};

const DEFAULT_NAMES = new Map(Object.entries(BODY_TYPE_LABELS));

/** A body type's code as the server takes it: latin letters and digits in
 * words joined by single hyphens, at most 50 characters (`minivan`). */
export function isBodyTypeCode(code: string | null | undefined): code is BodyTypeCode {
  return !!code && code.length <= 50 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(code);
}

/** A body type's name: the table's (when it holds the type), else one of
 * the six defaults; undefined for another type the table is not at hand for. */
export function bodyTypeName(
  code: string,
  types: readonly Pick<BodyTypeInfo, "bodyType" | "labelPlural" | "labelSingle">[] | undefined,
  form: "single" | "plural" = "single",
): string | undefined {
  const info = types?.find((t) => t.bodyType === code);
  const own = info && (form === "single" ? info.labelSingle : info.labelPlural);
  if (own) return own;
  const fallback = DEFAULT_NAMES.get(code);
  return fallback?.[form === "single" ? 1 : 0];
}
