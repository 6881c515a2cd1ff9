import type { BodyTypeInfo } from "../api/types";
import { CatalogueLayout } from "../components/cars/CatalogueLayout";
import { isNotFound } from "../hooks/useApi";
import { useCatalogue } from "../hooks/useCatalogue";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { BODY_TYPE_LABELS, isBodyType } from "../lib/labels";
import { NotFound } from "./NotFound";

/** One body type's catalogue: brand, condition and price filters, numbered pages. */
export function BodyTypePage({ code }: { code: string }) {
  const valid = isBodyType(code);
  const catalogue = useCatalogue<BodyTypeInfo>(valid ? { kind: "body", code } : null);
  const info = catalogue.side;
  const title = valid ? info.data?.labelPlural || BODY_TYPE_LABELS[code][0] : null;
  useDocumentTitle(title);

  if (!valid || (info.error && isNotFound(info.error))) return <NotFound />;
  const typeName = (title ?? "").toLowerCase();
  return (
    <CatalogueLayout
      catalogue={catalogue}
      title={title}
      banner={{ desktop: info.data?.imageUrl ?? "", mobile: info.data?.imageUrlMobile ?? "" }}
      bodyTypePage
      typeLabel={info.data?.labelSingle}
      empty={(filtered) => (
        <div class="empty">
          <p>Автомобили типа {typeName} временно отсутствуют</p>
          {filtered && (
            <button type="button" class="secondary" onClick={catalogue.clear}>
              Сбросить фильтры
            </button>
          )}
        </div>
      )}
    />
  );
}
