import type { BodyTypeInfo } from "../api/types";
import { bodyType } from "../api/urls";
import { CatalogueLayout } from "../components/cars/CatalogueLayout";
import { ResetFilters } from "../components/cars/ResetFilters";
import { isNotFound, useApi } from "../hooks/useApi";
import { useCatalogue } from "../hooks/useCatalogue";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { bodyTypeName, isBodyTypeCode } from "../lib/labels";
import { NotFound } from "./NotFound";

/** One body type's catalogue: brand, condition and price filters, numbered pages.
 * Any type of the dealership's table has one; a code the table lacks is a 404
 * (known at once when the server embedded its null answer: nothing else is read). */
export function BodyTypePage({ code }: { code: string }) {
  const valid = isBodyTypeCode(code);
  const found = useApi<BodyTypeInfo>(valid ? bodyType(code) : null);
  const missing = !valid || isNotFound(found.error);
  const catalogue = useCatalogue<BodyTypeInfo>(missing ? null : { kind: "body", code });
  const info = catalogue.side;
  const title = missing
    ? null
    : info.data?.labelPlural || bodyTypeName(code, undefined, "plural") || null;
  useDocumentTitle(missing ? "Страница не найдена" : title);

  if (missing) return <NotFound />;
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
          {filtered && <ResetFilters href={catalogue.clearHref} onReset={catalogue.clear} />}
        </div>
      )}
    />
  );
}
