import { useEffect } from "react";
import { useSettings } from "./useSettings";

/** Keeps the title and description in step after client-side navigation
 * (the server renders them for the first load). */
export function useDocumentTitle(title: string | null, description?: string): void {
  const { salonName } = useSettings();
  useEffect(() => {
    const site = salonName || "Автосалон";
    document.title = title ? `${title} — ${site}` : `${site} — автосалон в Санкт-Петербурге`;
    if (description) {
      document.querySelector('meta[name="description"]')?.setAttribute("content", description);
    }
  }, [title, description, salonName]);
}
