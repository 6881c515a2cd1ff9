/** Small text helpers of the admin screens. */

/** The text cut to `max` characters with an ellipsis; whitespace runs (line
 * breaks too) become single spaces. */
export function truncate(text: string | null | undefined, max = 120): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1).trimEnd()}…`;
}

export { splitAdvantages } from "../../lib/banks";
