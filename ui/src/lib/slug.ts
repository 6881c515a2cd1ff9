/** Car slugs: Cyrillic transliterated to Latin, other characters to single hyphens. */
const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "h",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "sch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
};

export function slugify(text: string): string {
  const latin = Array.from(text.toLowerCase())
    .map((ch) => CYRILLIC[ch] ?? ch)
    .join("");
  return latin.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** A path segment from the URL, or null when it cannot be a slug. */
export function slugFromPath(segment: string | undefined): string | null {
  if (!segment) return null;
  const decoded = decodeURIComponent(segment);
  return /^[a-z0-9-]+$/i.test(decoded) ? decoded : null;
}
