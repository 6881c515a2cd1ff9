import { useSearch } from "wouter";
import type { LegalDocument } from "../api/types";
import * as urls from "../api/urls";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { legalParagraphs } from "../lib/legalText";
import { MAIN_SALON, salonParam } from "../lib/salons";

/** The consent text or the privacy policy, as edited in the settings; with
 * `?salon=<id>` a salon's (a salon that is a company of its own names its
 * own operator: several salons, issue 46). */
export function Legal({ doc }: { doc: "consent" | "privacy" }) {
  const salon = salonParam(new URLSearchParams(useSearch()).get("salon"));
  const url = urls.legal(doc);
  const { data, error } = useApi<LegalDocument>(
    salon && salon !== MAIN_SALON ? `${url}?salon=${salon}` : url,
  );
  useDocumentTitle(data?.title ?? null);
  return (
    <div class="container page narrow legal">
      {error && <p class="empty">Не удалось загрузить документ. Обновите страницу.</p>}
      {data && (
        <>
          <h1>{data.title}</h1>
          {legalParagraphs(data.title, data.text).map((p) => (
            <p key={p}>{p}</p>
          ))}
          <p class="muted">Редакция № {data.version}</p>
        </>
      )}
    </div>
  );
}
