/** The paragraphs of a legal text as its page shows them under its title:
 * a first paragraph that only repeats the title (the default policy starts
 * with «Политика обработки персональных данных») is left out. */
export function legalParagraphs(title: string, text: string): string[] {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
  const bare = (s: string) =>
    s
      .replace(/[.:]\s*$/, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
  return paragraphs.length > 0 && bare(paragraphs[0]) === bare(title)
    ? paragraphs.slice(1)
    : paragraphs;
}
