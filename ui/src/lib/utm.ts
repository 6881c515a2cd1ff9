/** The visit's UTM parameters (from the landing URL, kept for the session)
 * and the analytics client id, sent with every lead. */
const KEY = "dealership.utm";
const FIELDS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

export interface UtmFields {
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
}

function camel(name: string): keyof UtmFields {
  return name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()) as keyof UtmFields;
}

/** Reads UTM parameters from a query string. */
export function parseUtm(search: string): UtmFields {
  const q = new URLSearchParams(search);
  const out: UtmFields = {};
  for (const name of FIELDS) {
    const value = q.get(name)?.trim();
    if (value) out[camel(name)] = value.slice(0, 255);
  }
  return out;
}

/** Keeps the landing URL's UTM parameters for this session (first touch wins). */
export function captureUtm(search: string, storage: Storage | undefined = safeSession()): void {
  const found = parseUtm(search);
  if (!storage || Object.keys(found).length === 0) return;
  if (storage.getItem(KEY)) return;
  storage.setItem(KEY, JSON.stringify(found));
}

export function storedUtm(storage: Storage | undefined = safeSession()): UtmFields {
  try {
    const text = storage?.getItem(KEY);
    return text ? (JSON.parse(text) as UtmFields) : {};
  } catch {
    return {};
  }
}

/** Yandex Metrika's _ym_uid or Google Analytics' _ga client id, if set. */
export function analyticsClientId(cookie: string): string | undefined {
  const jar = new Map(
    cookie
      .split(";")
      .map((part) => part.trim().split("="))
      .filter((pair) => pair.length >= 2)
      .map(([k, ...v]) => [k, decodeURIComponent(v.join("="))]),
  );
  const ym = jar.get("_ym_uid");
  if (ym) return ym;
  const ga = jar.get("_ga");
  if (ga) {
    // GA1.1.123456789.1700000000 → 123456789.1700000000
    const parts = ga.split(".");
    return parts.length >= 4 ? parts.slice(-2).join(".") : ga;
  }
  return undefined;
}

/** The session's storage; none where there is none (the server's drawing:
 * the name is undefined there and throws) or where it is refused. */
function safeSession(): Storage | undefined {
  try {
    return sessionStorage;
  } catch {
    return undefined;
  }
}
