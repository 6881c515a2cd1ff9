/** The operator of personal data in the settings (docs/personal-data.md):
 * ИНН and ОГРН checked with their control digits as the server checks them
 * (`src/domain/legal.rs`), with the server's messages; the placeholders the
 * consent text and the privacy policy may hold; the Google Analytics
 * warning. */

/** The server's words for a wrong ИНН (422 on `operatorInn`). */
export const BAD_INN =
  "ИНН: 10 цифр у организации или 12 у индивидуального предпринимателя, с верной контрольной цифрой";
/** The server's words for a wrong ОГРН or ОГРНИП (422 on `operatorOgrn`). */
export const BAD_OGRN = "ОГРН: 13 цифр у организации (ОГРНИП — 15), с верной контрольной цифрой";

/** The operator's fields, in the order of the form. */
export const OPERATOR_FIELDS = [
  "operatorName",
  "operatorInn",
  "operatorOgrn",
  "operatorAddress",
] as const;
export type OperatorField = (typeof OPERATOR_FIELDS)[number];

/** The longest name and address the server keeps, in characters. */
export const OPERATOR_TEXT_MAX = 500;

/** Said under the section 'Оператор персональных данных'. */
export const OPERATOR_HINT =
  "Единственные реквизиты сайта: их называет подвал каждой страницы и выгрузки сведений, они подставляются в согласие и политику вместо {оператор}, {ИНН}, {ОГРН} и {адрес оператора}.";

/** What the consent text and the privacy policy may hold; the server
 * substitutes each wherever a visitor reads them. */
export const PLACEHOLDERS: readonly { code: string; meaning: string }[] = [
  { code: "{оператор}", meaning: "полное наименование оператора" },
  { code: "{ИНН}", meaning: "его ИНН" },
  { code: "{ОГРН}", meaning: "его ОГРН или ОГРНИП" },
  { code: "{адрес оператора}", meaning: "его юридический адрес" },
  {
    code: "{обработчики}",
    meaning:
      "список тех, кому передаются данные: владелец почтового сервера, amoCRM, Telegram, Яндекс Метрика, Google Analytics — из того, что подключено",
  },
];

/** Shown next to the switch of Google Analytics, always. */
export const ANALYTICS_WARNING =
  "Google Analytics передаёт данные посетителей за рубеж (в США). Трансграничная передача требует заранее уведомить Роскомнадзор (ст. 12 152-ФЗ). Без включения счётчик не запускается, даже если ID указан.";

/** The digits of `text`, or null when anything else is in it. */
function digits(text: string): number[] | null {
  return /^[0-9]+$/.test(text) ? [...text].map(Number) : null;
}

/** The weighted sum of the first digits modulo 11, then modulo 10. */
function control(d: readonly number[], weights: readonly number[]): number {
  return (weights.reduce((sum, w, i) => sum + w * d[i], 0) % 11) % 10;
}

const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** An ИНН: 10 digits (an organisation) or 12 (an individual entrepreneur)
 * with the tax service's control digits. */
export function isInn(text: string): boolean {
  const d = digits(text);
  if (d?.length === 10) return control(d, W10) === d[9];
  if (d?.length === 12) return control(d, W11) === d[10] && control(d, W12) === d[11];
  return false;
}

/** An ОГРН (13 digits: the first 12 as a number modulo 11, then modulo 10,
 * is the 13th) or an ОГРНИП (15 digits: the first 14 modulo 13, then
 * modulo 10), taken as a running remainder digit by digit. */
export function isOgrn(text: string): boolean {
  const d = digits(text);
  const modulus = d?.length === 13 ? 11 : d?.length === 15 ? 13 : null;
  if (!d || !modulus) return false;
  const last = d.length - 1;
  const rest = d.slice(0, last).reduce((acc, digit) => (acc * 10 + digit) % modulus, 0);
  return rest % 10 === d[last];
}

const tooLong = (label: string) =>
  `Поле «${label}» не должно быть длиннее ${OPERATOR_TEXT_MAX} символов`;

/** Within the server's length, counted in characters as it counts them. */
const fits = (v: unknown) => [...String(v ?? "").trim()].length <= OPERATOR_TEXT_MAX;

/** The form's rules, as the server's (it trims first; empty is allowed). */
export const operatorRules = {
  operatorName: {
    validate: (v: unknown) => fits(v) || tooLong("Полное наименование оператора"),
  },
  operatorInn: {
    validate: (v: unknown) => {
      const text = String(v ?? "").trim();
      return text === "" || isInn(text) || BAD_INN;
    },
  },
  operatorOgrn: {
    validate: (v: unknown) => {
      const text = String(v ?? "").trim();
      return text === "" || isOgrn(text) || BAD_OGRN;
    },
  },
  operatorAddress: {
    validate: (v: unknown) => fits(v) || tooLong("Юридический адрес оператора"),
  },
} satisfies Record<OperatorField, unknown>;

/** Where a link to the section lands (the self-check `operator_missing`):
 * the first field left empty, or the name when all are given. */
export function operatorFocus(values: Partial<Record<OperatorField, string>>): OperatorField {
  return OPERATOR_FIELDS.find((f) => !(values[f] ?? "").trim()) ?? "operatorName";
}
