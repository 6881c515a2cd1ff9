/** The car form's values, rules and payload, apart from the form. */

import type { components } from "../api/schema";
import type { Car, CarStatus, TrimLevel } from "../api/types";
import { formatPrice } from "../lib/format";
import { lowestPrice } from "../lib/price";
import { slugify } from "../lib/slug";
import { type MarketValues, marketInput, marketValues } from "./carMarketFields";

export type CarInput = components["schemas"]["CarInput"];

export const MIN_YEAR = 1990;
export const maxYear = (now: Date = new Date()) => now.getFullYear() + 1;

/** What the inputs hold (text where people type numbers); the
 * marketplaces' fields in carMarketFields.ts. */
export interface CarValues extends MarketValues {
  brandId: string;
  name: string;
  model: string;
  slug: string;
  year: string;
  price: string;
  monthlyPayment: string;
  dailyPrice: string;
  /** Conditional discounts and their cap (docs/pricing.md). */
  creditDiscount: string;
  tradeinDiscount: string;
  insuranceDiscount: string;
  maxDiscount: string;
  status: CarStatus | "";
  bodyType: string;
  transmission: string;
  /** "" when not stated. */
  drivetrain: string;
  fuelType: string;
  engine: string;
  /** The car's own complectation ("Executive"), its generation ("III") and
   * doors (2–5), each optional. */
  trim: string;
  generation: string;
  doors: string;
  mileage: string;
  color: string;
  vin: string;
  images: string[];
  trimLevels: { name: string; description: string; link: string }[];
  published: boolean;
  inStock: boolean;
  featured: boolean;
}

/** The fields a server refusal may name, as the form calls them. */
export const CAR_FIELDS = [
  "brandId",
  "name",
  "model",
  "slug",
  "year",
  "price",
  "monthlyPayment",
  "dailyPrice",
  "creditDiscount",
  "tradeinDiscount",
  "insuranceDiscount",
  "maxDiscount",
  "status",
  "bodyType",
  "transmission",
  "drivetrain",
  "fuelType",
  "engine",
  "trim",
  "generation",
  "doors",
  "mileage",
  "color",
  "vin",
  "owners",
  "accident",
  "state",
  "wheel",
  "images",
  "trimLevels",
] as const;

export const MESSAGES = {
  price: "Цена обязательна",
  priceZero: "Укажите цену: автомобиль за 0 ₽ не публикуется",
  money: "Введите сумму числом, например 2500000 или 2500000,50",
  brandId: "Выберите марку",
  name: "Название обязательно",
  model: "Модель обязательна",
  slug: "Slug обязателен",
  slugChars: "Только латинские буквы, цифры и дефисы",
  engine: "Укажите двигатель",
  bodyType: "Выберите тип кузова",
  transmission: "Выберите коробку передач",
  fuelType: "Выберите тип топлива",
  status: "Выберите состояние",
  year: "Введите год числом",
  mileage: "Пробег: целое число километров",
  trimName: "Укажите название комплектации",
  trimLevels: "Не больше 20 комплектаций",
  trimNameLength: "Поле «Название комплектации» не должно быть длиннее 100 символов",
  trimDescriptionLength: "Поле «Описание комплектации» не должно быть длиннее 500 символов",
  trimLinkLength: "Поле «Ссылка комплектации» не должно быть длиннее 500 символов",
  images: "Не больше 6 фото",
  discount: "Скидка не может быть больше цены автомобиля",
  trim: "Комплектация — до 100 символов",
  generation: "Поколение — до 50 символов",
  doors: "Число дверей — от 2 до 5",
} as const;

export const TRIM_MAX = 100;
/** A car's trim levels: how many and how long, as the server checks them
 * (src/domain/cars/car.rs, docs/catalogue.md "Limits of a car"). */
export const TRIM_LEVELS_MAX = 20;
export const TRIM_NAME_MAX = 100;
export const TRIM_DESCRIPTION_MAX = 500;
export const TRIM_LINK_MAX = 500;

/** Over the limit (a car stored before it): what the form says. */
export const trimLevelsOver = (count: number) =>
  `У автомобиля ${count} комплектаций, а можно не больше ${TRIM_LEVELS_MAX}: удалите лишние, чтобы сохранить`;
export const GENERATION_MAX = 50;
export const DOORS_MIN = 2;
export const DOORS_MAX = 5;

export const yearMin = `Год не может быть раньше ${MIN_YEAR}`;
export const yearMax = (now?: Date) => `Год не может быть позже ${maxYear(now)}`;

/** A new car's empty form; an existing car's values. */
export function carValues(car: Car | null, now: Date = new Date()): CarValues {
  if (!car) {
    return {
      brandId: "",
      name: "",
      model: "",
      slug: "",
      year: String(now.getFullYear()),
      price: "",
      monthlyPayment: "",
      dailyPrice: "",
      creditDiscount: "",
      tradeinDiscount: "",
      insuranceDiscount: "",
      maxDiscount: "",
      status: "new",
      bodyType: "",
      transmission: "",
      drivetrain: "",
      fuelType: "",
      engine: "",
      trim: "",
      generation: "",
      doors: "",
      mileage: "",
      color: "",
      vin: "",
      images: [],
      trimLevels: [],
      published: true,
      inStock: true,
      featured: false,
      ...marketValues(null),
    };
  }
  const images = car.images.length > 0 ? car.images : car.mainImage ? [car.mainImage] : [];
  return {
    brandId: car.brandId,
    name: car.name,
    model: car.model,
    slug: car.slug,
    year: String(car.year),
    price: moneyText(car.price),
    monthlyPayment: car.monthlyPayment ? moneyText(car.monthlyPayment) : "",
    dailyPrice: car.dailyPrice ? moneyText(car.dailyPrice) : "",
    creditDiscount: car.creditDiscount ? moneyText(car.creditDiscount) : "",
    tradeinDiscount: car.tradeinDiscount ? moneyText(car.tradeinDiscount) : "",
    insuranceDiscount: car.insuranceDiscount ? moneyText(car.insuranceDiscount) : "",
    maxDiscount: car.maxDiscount ? moneyText(car.maxDiscount) : "",
    status: car.status,
    bodyType: car.bodyType,
    transmission: car.transmission,
    drivetrain: car.drivetrain ?? "",
    fuelType: car.fuelType,
    engine: car.engine,
    trim: car.trim ?? "",
    generation: car.generation ?? "",
    doors: car.doors == null ? "" : String(car.doors),
    mileage: car.mileage ? String(car.mileage) : "",
    color: car.color ?? "",
    vin: car.vin ?? "",
    images,
    trimLevels: car.trimLevels.map((t: TrimLevel) => ({
      name: t.name ?? "",
      description: t.description ?? "",
      link: t.link ?? "",
    })),
    published: car.published,
    inStock: car.inStock,
    featured: car.featured,
    ...marketValues(car),
  };
}

/** "2500000.00" → "2500000"; "2500000.50" → "2500000.50". */
function moneyText(value: string): string {
  return value.replace(/\.00$/, "");
}

/** What people type as money: spaces (also non-breaking) dropped, a comma
 * as the decimal point. */
export function normalizeMoney(text: string): string {
  return text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
}

/** Whole rubles with at most two decimals, up to 12 digits in all. */
export function isMoney(text: string, maxIntegerDigits = 10): boolean {
  return new RegExp(`^\\d{1,${maxIntegerDigits}}(\\.\\d{1,2})?$`).test(normalizeMoney(text));
}

/** The price: required, money, and above zero for a published car (the
 * server refuses the same, src/domain/cars.rs PRICE_ZERO). */
export function priceRule(text: string, values?: { published?: boolean }): true | string {
  if (normalizeMoney(text) === "") return MESSAGES.price;
  if (!isMoney(text)) return MESSAGES.money;
  if (values?.published && kopecks(text) === 0) return MESSAGES.priceZero;
  return true;
}

export function optionalMoneyRule(text: string): true | string {
  if (normalizeMoney(text) === "") return true;
  return isMoney(text, 8) || MESSAGES.money;
}

/** A discount: empty, or an amount no greater than the price (when the
 * price itself reads as money). */
export function discountRule(text: string, price: string): true | string {
  if (normalizeMoney(text) === "") return true;
  if (!isMoney(text)) return MESSAGES.money;
  if (!isMoney(price)) return true;
  return kopecks(text) <= kopecks(price) || MESSAGES.discount;
}

/** Money text (already checked with isMoney) as whole kopecks. */
function kopecks(text: string): number {
  const [whole, frac = ""] = normalizeMoney(text).split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

export function yearRule(text: string, now: Date = new Date()): true | string {
  const t = text.trim();
  if (!/^\d{4}$/.test(t)) return MESSAGES.year;
  const year = Number(t);
  if (year < MIN_YEAR) return yearMin;
  if (year > maxYear(now)) return yearMax(now);
  return true;
}

export function mileageRule(text: string): true | string {
  const t = text.replace(/[\s\u00a0\u202f]/g, "");
  return t === "" || /^\d{1,9}$/.test(t) || MESSAGES.mileage;
}

/** Optional text of at most `max` characters (the server trims). */
function optionalText(max: number, message: string) {
  return (text: string): true | string => text.trim().length <= max || message;
}

export const trimRule = optionalText(TRIM_MAX, MESSAGES.trim);
export const generationRule = optionalText(GENERATION_MAX, MESSAGES.generation);

/** Doors: empty, or a whole number from 2 to 5. */
export function doorsRule(text: string): true | string {
  const t = text.trim();
  if (t === "") return true;
  if (!/^\d+$/.test(t)) return MESSAGES.doors;
  const n = Number(t);
  return (n >= DOORS_MIN && n <= DOORS_MAX) || MESSAGES.doors;
}

export function slugRule(text: string): true | string {
  const t = text.trim();
  if (t === "") return MESSAGES.slug;
  return /^[a-z0-9-]+$/.test(t) || MESSAGES.slugChars;
}

/** A new car's slug: name and model, Cyrillic transliterated. */
export function carSlug(name: string, model: string): string {
  return slugify(`${name} ${model}`);
}

/** What the server takes: only what the form shows, so saving keeps what
 * it does not (the feed's `externalId`; the server keeps what a change
 * leaves out, docs/admin.md "The car form's round trip"). Mileage is shown
 * (and sent) only for a used car, the monthly payment and the daily price
 * only for a lease (a new or used car's monthly figure comes from the credit
 * programmes, docs/pricing.md); owners, accident and state only for a used
 * car (carMarketFields.ts). Empty
 * trim levels are dropped; an empty drive, complectation, generation or
 * doors is null (not stated). */
export function carInput(v: CarValues): CarInput {
  const optional = (text: string) => {
    const n = normalizeMoney(text);
    return n === "" ? null : n;
  };
  const images = v.images.slice(0, 6);
  return {
    brandId: v.brandId,
    name: v.name.trim(),
    model: v.model.trim(),
    slug: v.slug.trim(),
    year: Number(v.year.trim()),
    price: normalizeMoney(v.price),
    ...(v.status === "lease"
      ? { monthlyPayment: optional(v.monthlyPayment), dailyPrice: optional(v.dailyPrice) }
      : {}),
    creditDiscount: optional(v.creditDiscount),
    tradeinDiscount: optional(v.tradeinDiscount),
    insuranceDiscount: optional(v.insuranceDiscount),
    maxDiscount: optional(v.maxDiscount),
    status: v.status as CarStatus,
    bodyType: v.bodyType as CarInput["bodyType"],
    transmission: v.transmission as CarInput["transmission"],
    // Empty: the drive is not stated.
    drivetrain: (v.drivetrain || null) as CarInput["drivetrain"],
    fuelType: v.fuelType as CarInput["fuelType"],
    engine: v.engine.trim(),
    trim: v.trim.trim() || null,
    generation: v.generation.trim() || null,
    doors: v.doors.trim() === "" ? null : Number(v.doors.trim()),
    ...(v.status === "used" ? { mileage: Number(v.mileage.replace(/\D/g, "") || "0") } : {}),
    color: v.color.trim() || null,
    vin: v.vin.trim() || null,
    mainImage: images[0] ?? "",
    images,
    trimLevels: v.trimLevels
      .map((t) => ({ name: t.name.trim(), description: t.description.trim(), link: t.link.trim() }))
      .filter((t) => t.name !== ""),
    published: v.published,
    inStock: v.inStock,
    featured: v.featured,
    ...marketInput(v, v.status),
  };
}

export const BULK_PERCENT = "Введите корректный процент";

/** The bulk price change's multiplier as an exact decimal string: raise by
 * p % → 1 + p/100, lower → 1 − p/100; null when p is not a number above 0
 * (or would lower prices to nothing). */
export function bulkMultiplier(text: string, direction: "raise" | "lower"): string | null {
  const t = text.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const p = Number(t);
  if (!(p > 0) || (direction === "lower" && p >= 100) || p > 1000) return null;
  // Hundredths of a percent, in integers: no floating-point residue.
  const hundredths = Math.round(p * 100);
  if (hundredths === 0) return null;
  const scaled = direction === "raise" ? 10000 + hundredths : 10000 - hundredths;
  const whole = Math.floor(scaled / 10000);
  const frac = String(scaled % 10000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

/** The lowest price the form's discounts give, as shown on the site
 * ('2 325 000 ₽'); null while there is no discount or an amount is not
 * money yet. */
export function carDiscountPreview(
  v: Pick<
    CarValues,
    "price" | "creditDiscount" | "tradeinDiscount" | "insuranceDiscount" | "maxDiscount"
  >,
): string | null {
  const texts = [v.price, v.creditDiscount, v.tradeinDiscount, v.insuranceDiscount, v.maxDiscount];
  if (!isMoney(v.price) || texts.some((t) => normalizeMoney(t) !== "" && !isMoney(t))) return null;
  const money = (t: string) => (normalizeMoney(t) === "" ? null : normalizeMoney(t));
  const lowest = lowestPrice({
    price: normalizeMoney(v.price),
    creditDiscount: money(v.creditDiscount),
    tradeinDiscount: money(v.tradeinDiscount),
    insuranceDiscount: money(v.insuranceDiscount),
    maxDiscount: money(v.maxDiscount),
  });
  return lowest === null ? null : formatPrice(lowest / 100);
}
