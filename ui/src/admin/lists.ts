/** Client-side list filters of the admin screens. */

/** Case-insensitive (Cyrillic too) match of every word of the query. */
export function matches(query: string, ...texts: (string | null | undefined)[]): boolean {
  const words = query.toLocaleLowerCase("ru").split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = texts.filter(Boolean).join(" ").toLocaleLowerCase("ru");
  return words.every((w) => hay.includes(w));
}
