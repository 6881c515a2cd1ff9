/** Small text helpers of the admin screens. */

/** The text cut to `max` characters with an ellipsis; whitespace runs (line
 * breaks too) become single spaces. */
export function truncate(text: string | null | undefined, max = 120): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** A partner bank's advantages, "a, b, c" → ["a", "b", "c"]: split by commas,
 * trimmed, empty pieces dropped. */
export function splitAdvantages(text: string | null | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Lower-case text with ё as е, for search boxes. */
export function fold(text: string | null | undefined): string {
  return (text ?? "").toLocaleLowerCase("ru-RU").replace(/ё/g, "е");
}

/** Whether any of the texts contains the query (case-insensitive, Cyrillic
 * too); an empty query matches everything. */
export function matches(query: string, ...texts: (string | null | undefined)[]): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  return texts.some((t) => fold(t).includes(q));
}
