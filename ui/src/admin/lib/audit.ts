/** The audit trail as people read it: the changed fields and their values
 * in the words the rest of the panel uses ('Статус: Новый → В работе', not
 * 'status: new → in_progress'). The server records each field by its API
 * name and each value as the API writes it (codes, "true", "2500000.00",
 * lists as JSON); this is the one place that turns them into labels. */
import type { BodyTypeInfo } from "../../api/types";
import { formatMileage, formatNumber, formatPrice } from "../../lib/format";
import {
  bodyTypeName,
  DRIVETRAIN_LABELS,
  FUEL_LABELS,
  STATUS_LABELS,
  TRANSMISSION_LABELS,
} from "../../lib/labels";
import type { AuditEntry } from "../api";
import { BANNER_SECTIONS } from "./banners";
import { LEAD_STATUS_LABELS } from "./leads";
import { APPLIED_COUNT_LABELS, MONEY_FIELDS } from "./parser";
import { ASSIGNMENT_LABELS } from "./settings";

export type AuditObject = AuditEntry["objectType"];
export type AuditChange = AuditEntry["changes"][number];
type BodyTypes = readonly Pick<BodyTypeInfo, "bodyType" | "labelPlural" | "labelSingle">[];

/** Russian names of the fields, whatever the object (the API's name otherwise). */
export const FIELD_LABELS: Record<string, string> = {
  price: "Цена",
  monthlyPayment: "Ежемесячный платёж",
  dailyPrice: "Цена за сутки",
  creditDiscount: "Скидка в кредит",
  tradeinDiscount: "Скидка по трейд-ин",
  insuranceDiscount: "Скидка при страховании",
  maxDiscount: "Максимальная скидка",
  name: "Название",
  model: "Модель",
  slug: "Slug",
  year: "Год",
  status: "Статус",
  published: "Публикация",
  inStock: "В наличии",
  featured: "Рекомендуемый",
  mileage: "Пробег",
  engine: "Двигатель",
  images: "Фото",
  brandId: "Марка",
  brandName: "Марка",
  description: "Описание",
  logo: "Логотип",
  approved: "Статус",
  bodyType: "Тип кузова",
  transmission: "Коробка передач",
  drivetrain: "Привод",
  fuelType: "Топливо",
  color: "Цвет",
  vin: "VIN",
  trim: "Комплектация",
  trimLevels: "Комплектации",
  generation: "Поколение",
  doors: "Число дверей",
  externalId: "Номер в фиде",
  // reviews
  customerName: "Имя клиента",
  carModel: "Автомобиль",
  rating: "Оценка",
  text: "Текст отзыва",
  photo: "Фото",
  // promotions, banks, credit programmes, body types
  title: "Заголовок",
  discount: "Скидка",
  image: "Изображение",
  isActive: "Активна",
  validUntil: "Действует до",
  active: "Показывается на сайте",
  requirements: "Требования",
  advantages: "Преимущества",
  conditions: "Условия",
  labelPlural: "Название во множественном числе",
  labelSingle: "Название в единственном числе",
  imageUrl: "Баннер для компьютера",
  imageUrlMobile: "Баннер для телефона",
  // settings
  salonName: "Название салона",
  phone: "Телефон",
  phoneSecondary: "Дополнительный телефон",
  email: "E-mail",
  address: "Адрес",
  fullAddress: "Полный адрес",
  workingHours: "Часы работы",
  workSchedule: "График работы",
  legalEntity: "Реквизиты юридического лица",
  responseThresholdMinutes: "Порог ответа на заявку, рабочих минут",
  leadAssignment: "Распределение новых заявок",
  heroTitle: "Заголовок",
  heroSubtitle: "Подзаголовок",
  favicon: "Иконка сайта (favicon)",
  googleAnalyticsId: "Google Analytics ID",
  googleAnalyticsEnabled: "Google Analytics включён",
  yandexMetrikaId: "Яндекс Метрика ID",
  operatorName: "Полное наименование оператора",
  operatorInn: "ИНН оператора",
  operatorOgrn: "ОГРН оператора",
  operatorAddress: "Юридический адрес оператора",
  consentText: "Текст согласия на обработку персональных данных",
  privacyPolicy: "Политика конфиденциальности",
  notificationEmail: "E-mail для заявок",
  fromEmail: "Адрес отправителя",
  emailNotificationsEnabled: "Уведомления по e-mail",
  // the parser's schedule, the bulk price change
  feedUrl: "Адрес фида",
  intervalHours: "Интервал, часов",
  priceMultiplier: "Множитель цен",
  updatedCount: "Обновлено автомобилей",
  undoes: "Отменяет запись журнала №",
  restoredCount: "Возвращено цен",
  ...Object.fromEntries(
    BANNER_SECTIONS.flatMap((s) => [
      [s.desktop, `${s.title}: баннер для компьютера`],
      [s.mobile, `${s.title}: баннер для телефона`],
    ]),
  ),
};

/** Names that differ by object: a car's `status` is its condition. */
const OBJECT_FIELD_LABELS: Partial<Record<AuditObject, Record<string, string>>> = {
  car: { status: "Состояние" },
  import: {
    ...APPLIED_COUNT_LABELS,
    // a feed added, changed or reordered
    name: "Название фида",
    source: "Источник",
    condition: "Состояние машин, когда фид о нём молчит",
    order: "Порядок фидов",
  },
  user: {
    name: "Имя",
    role: "Роль",
    blocked: "Состояние",
    email: "E-mail",
    pbxNumber: "Номер в АТС",
    workSchedule: "Рабочие часы",
  },
};

/** A field's name as the panel says it. */
export function fieldLabel(objectType: AuditObject, field: string): string {
  return OBJECT_FIELD_LABELS[objectType]?.[field] ?? FIELD_LABELS[field] ?? field;
}

/** Codes the panel shows by name, per object and field. */
const VALUE_LABELS: Partial<Record<AuditObject, Record<string, Record<string, string>>>> = {
  car: {
    status: STATUS_LABELS,
    fuelType: FUEL_LABELS,
    transmission: TRANSMISSION_LABELS,
    drivetrain: DRIVETRAIN_LABELS,
    published: { true: "Опубликован", false: "Черновик" },
  },
  lead: { status: LEAD_STATUS_LABELS },
  review: { approved: { true: "Одобрен", false: "На модерации" } },
  settings: { leadAssignment: ASSIGNMENT_LABELS },
};

/** One side of a change as the panel shows it: a code by its label, yes or
 * no, money in rubles, the mileage in km, a list by its length; an empty
 * value as a dash, anything else as it is. */
export function valueLabel(
  objectType: AuditObject,
  field: string,
  value: string | null | undefined,
  bodyTypes?: BodyTypes,
): string {
  const text = (value ?? "").trim();
  if (!text) return "—";
  const named = VALUE_LABELS[objectType]?.[field]?.[text];
  if (named) return named;
  if (field === "bodyType" && (objectType === "car" || objectType === "body_type")) {
    return bodyTypeName(text, bodyTypes) ?? text;
  }
  if (text === "true") return "Да";
  if (text === "false") return "Нет";
  if (/^-?\d+(\.\d+)?$/.test(text)) {
    if (MONEY_FIELDS.has(field)) return formatPrice(text);
    if (field === "mileage") return formatMileage(Number(text));
  }
  if (text.startsWith("[")) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list)) return list.length === 0 ? "—" : `${formatNumber(list.length)} шт.`;
    } catch {
      // a text that only starts with a bracket
    }
  }
  return text;
}

/** "Статус: Новый → В работе" */
export function changeLine(
  objectType: AuditObject,
  change: AuditChange,
  bodyTypes?: BodyTypes,
): string {
  const from = valueLabel(objectType, change.field, change.from, bodyTypes);
  const to = valueLabel(objectType, change.field, change.to, bodyTypes);
  return `${fieldLabel(objectType, change.field)}: ${from} → ${to}`;
}

/** The changes listed under an entry's summary: none where the summary
 * already says them (a creation, a deletion, a status change: «Статус
 * заявки «Иван»: Новый → В работе» is not said twice), else the first six. */
export function listedChanges(entry: Pick<AuditEntry, "action" | "changes">): AuditChange[] {
  if (entry.action === "create" || entry.action === "delete" || entry.action === "status") {
    return [];
  }
  return entry.changes.slice(0, 6);
}
