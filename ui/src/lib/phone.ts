/** The phone rule of every lead form (docs/leads.md). */
export const PHONE_RULE_MESSAGE = "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр";

/** Starts with +7 or 8 and has exactly 11 digits (spaces, dashes, brackets allowed). */
export function isValidPhone(value: string): boolean {
  const text = value.trim();
  if (!/^[\d\s()+-]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, "");
  if (digits.length !== 11) return false;
  if (text.startsWith("+7")) return true;
  return text.startsWith("8");
}
