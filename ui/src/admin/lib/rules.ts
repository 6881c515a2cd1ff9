/** Validation rules of the admin forms for react-hook-form, with the same
 * Russian messages the server answers with (field by field). */
import { isEmail } from "../../lib/email";

type Value = unknown;

/** Required text: a value of only spaces counts as empty (the server trims). */
export function filled(message: string) {
  return (value: Value) =>
    (typeof value === "string" ? value.trim() !== "" : value != null) || message;
}

/** The server's e-mail check, shared with the public forms. */
export { isEmail };

export const EMAIL_FORMAT = "Неверный формат email";

/** An e-mail; `optional` lets the empty string through. */
export function email(optional: boolean) {
  return (value: Value) => {
    const v = typeof value === "string" ? value.trim() : "";
    if (v === "" && optional) return true;
    return isEmail(v) || EMAIL_FORMAT;
  };
}

/** The server's length message for a field, named as its form labels it. */
export function tooLong(label: string, max: number) {
  return { value: max, message: `Поле «${label}» не должно быть длиннее ${max} символов` };
}

export const REVIEW_MESSAGES = {
  customerName: "Имя клиента обязательно",
  text: "Текст отзыва обязателен",
  rating: "Оценка должна быть от 1 до 5",
} as const;

export const reviewRules = {
  customerName: {
    validate: filled(REVIEW_MESSAGES.customerName),
    maxLength: tooLong("Имя клиента", 255),
  },
  text: { validate: filled(REVIEW_MESSAGES.text), maxLength: tooLong("Текст отзыва", 5000) },
  rating: {
    validate: (v: Value) => {
      const n = Number(v);
      return (Number.isInteger(n) && n >= 1 && n <= 5) || REVIEW_MESSAGES.rating;
    },
  },
  carModel: { maxLength: tooLong("Модель автомобиля", 255) },
};

export const PROMOTION_MESSAGES = {
  title: "Название акции обязательно",
  description: "Описание акции обязательно",
  validUntil: "Укажите дату окончания, например 31.12.2026",
} as const;

export const promotionRules = {
  title: { validate: filled(PROMOTION_MESSAGES.title), maxLength: tooLong("Название", 255) },
  description: {
    validate: filled(PROMOTION_MESSAGES.description),
    maxLength: tooLong("Описание", 5000),
  },
  discount: { maxLength: tooLong("Скидка", 100) },
  /** The last day from a date input ("2026-12-31"), or none: the server's
   * rule (src/domain/promotions.rs, parse_valid_until). */
  validUntil: {
    validate: (v: string) =>
      v.trim() === "" || /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) || PROMOTION_MESSAGES.validUntil,
  },
};

export const BANK_MESSAGES = {
  name: "Название банка обязательно",
  logo: "Логотип обязателен",
  requirements: "Требования обязательны",
  advantages: "Преимущества обязательны",
} as const;

export const bankRules = {
  name: { validate: filled(BANK_MESSAGES.name), maxLength: tooLong("Название", 255) },
  logo: { validate: filled(BANK_MESSAGES.logo) },
  requirements: {
    validate: filled(BANK_MESSAGES.requirements),
    maxLength: tooLong("Требования", 5000),
  },
  advantages: {
    validate: filled(BANK_MESSAGES.advantages),
    maxLength: tooLong("Преимущества", 5000),
  },
};

export const SETTINGS_MESSAGES = {
  salonName: "Название салона обязательно",
  phone: "Телефон обязателен",
  address: "Адрес обязателен",
} as const;

export const settingsRules = {
  salonName: { validate: filled(SETTINGS_MESSAGES.salonName) },
  phone: { validate: filled(SETTINGS_MESSAGES.phone) },
  address: { validate: filled(SETTINGS_MESSAGES.address) },
  email: { validate: email(false) },
  notificationEmail: { validate: email(true) },
  fromEmail: { validate: email(true) },
};

export const BODY_TYPE_LABEL_REQUIRED = "Название обязательно";

export const bodyTypeRules = {
  labelPlural: {
    validate: filled(BODY_TYPE_LABEL_REQUIRED),
    maxLength: tooLong("Название во множественном числе", 100),
  },
  labelSingle: {
    validate: filled(BODY_TYPE_LABEL_REQUIRED),
    maxLength: tooLong("Название в единственном числе", 100),
  },
};
