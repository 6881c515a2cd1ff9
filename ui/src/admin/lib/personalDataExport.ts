/** The export of a person's data as a file download
 * (docs/personal-data.md): the file's name from the answer, the request
 * with the CSRF token, and saving it in the browser. */
import { ApiError, CSRF_HEADER, csrf, NetworkError } from "../../api/client";
import type { components } from "../../api/schema";
import { moscowToday } from "./personalDataDates";

type Schemas = components["schemas"];
type ExportInput = Schemas["ExportInput"];
type ExportFormat = ExportInput["format"];

export const EXPORT_URL = "/api/admin/personal-data/export";

// ---- the export download ----------------------------------------------------------------

/** The file name of `Content-Disposition` (`filename*=UTF-8''…` or
 * `filename="…"`), a plain name only; else "personal-data-<today>.<format>". */
export function exportFileName(
  disposition: string | null | undefined,
  format: ExportFormat,
  today: string,
): string {
  const fallback = `personal-data-${today}.${format}`;
  if (!disposition) return fallback;
  let name: string | null = null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star) {
    try {
      name = decodeURIComponent(star[1].trim());
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(disposition);
    name = plain ? (plain[1] ?? plain[2] ?? null) : null;
  }
  name = name?.trim() ?? null;
  if (!name || /[/\\]/.test(name) || name.startsWith(".")) return fallback;
  return name;
}

/** Fetches the export (a POST: the subject is never in a URL) as a file. */
export async function fetchExport(
  body: ExportInput,
  today: string = moscowToday(),
): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = {
    Accept: body.format === "json" ? "application/json" : "text/html",
    "Content-Type": "application/json",
  };
  const token = csrf();
  if (token) headers[CSRF_HEADER] = token;
  let response: Response;
  try {
    response = await fetch(EXPORT_URL, {
      method: "POST",
      credentials: "same-origin",
      headers,
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new NetworkError(EXPORT_URL, e);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let message = `Ошибка HTTP ${response.status}`;
    let field: string | null = null;
    try {
      const parsed = JSON.parse(text) as { error?: unknown; field?: unknown };
      if (typeof parsed.error === "string" && parsed.error) message = parsed.error;
      if (typeof parsed.field === "string") field = parsed.field;
    } catch {
      // not our JSON
    }
    throw new ApiError(response.status, message, field, EXPORT_URL);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (e) {
    throw new NetworkError(EXPORT_URL, e);
  }
  const fileName = exportFileName(response.headers.get("Content-Disposition"), body.format, today);
  return { blob, fileName };
}

/** Hands a fetched file to the browser's download. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
