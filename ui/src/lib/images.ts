/** The media store keeps 400, 800 and 1600 px variants of every picture. */
export function srcsetOf(url: string): string | undefined {
  if (!url.endsWith("-800.webp")) return undefined;
  const stem = url.slice(0, -"-800.webp".length);
  return `${stem}-400.webp 400w, ${url} 800w, ${stem}-1600.webp 1600w`;
}

/** Two letters for a missing logo: "Land Rover" → "LR", "Haval" → "HA". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return (words[0][0] + words[1][0]).toUpperCase();
}
