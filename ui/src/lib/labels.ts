import type { BodyTypeCode, CarStatus } from "../api/types";

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

/** Defaults when the body-type table is not at hand (list / single). */
export const BODY_TYPE_LABELS: Record<BodyTypeCode, [string, string]> = {
  sedan: ["Седаны", "Седан"],
  hatchback: ["Хэтчбеки", "Хэтчбек"],
  crossover: ["Кроссоверы", "Кроссовер"],
  wagon: ["Универсалы", "Универсал"],
  coupe: ["Внедорожники", "Внедорожник"],
  pickup: ["Пикапы", "Пикап"],
};

export const BODY_TYPE_CODES = Object.keys(BODY_TYPE_LABELS) as BodyTypeCode[];

export function isBodyType(code: string | null | undefined): code is BodyTypeCode {
  return !!code && code in BODY_TYPE_LABELS;
}
