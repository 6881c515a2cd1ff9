/** A partner bank's advantages are one comma-separated text, shown as chips
 * on /auto-credit and in the admin panel. */

/** "Ставка от 7,9%, без КАСКО" → ["Ставка от 7,9%", "без КАСКО"]: split at
 * commas, except a decimal comma between two digits; trimmed, empty pieces
 * dropped. */
export function splitAdvantages(text: string | null | undefined): string[] {
  const pieces: string[] = [];
  for (const part of (text ?? "").split(",")) {
    const last = pieces.length - 1;
    if (last >= 0 && /\d$/.test(pieces[last]) && /^\d/.test(part)) pieces[last] += `,${part}`;
    else pieces.push(part);
  }
  return pieces.map((s) => s.trim()).filter(Boolean);
}
