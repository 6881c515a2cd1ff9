/** Own advertising marked (38-FZ art. 18.1, docs/advertising.md): an ad on
 * the site carries «Реклама», its advertiser and the token (erid) the
 * advertising data operator gave it. */

/** A mark: a banner's as the settings hold it. */
export interface AdMark {
  erid?: string | null;
  advertiser?: string | null;
}

/** "Реклама · ООО «Хавейл Мотор Рус» · erid: LjN8Kaaxi"; the advertiser or
 * the token left out when empty; null when neither is set (not an ad). */
export function adLabel({ erid, advertiser }: AdMark): string | null {
  const parts = [advertiser?.trim(), erid?.trim() && `erid: ${erid.trim()}`].filter(Boolean);
  return parts.length > 0 ? ["Реклама", ...parts].join(" · ") : null;
}
