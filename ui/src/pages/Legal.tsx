import type { LegalDocument } from "../api/types";
import * as urls from "../api/urls";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { legalParagraphs } from "../lib/legalText";

/** The consent text or the privacy policy, as edited in the settings. */
export function Legal({ doc }: { doc: "consent" | "privacy" }) {
  const { data, error } = useApi<LegalDocument>(urls.legal(doc));
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
