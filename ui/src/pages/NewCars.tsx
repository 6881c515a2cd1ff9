import type { BodyTypeInfo } from "../api/types";
import { CatalogueLayout } from "../components/cars/CatalogueLayout";
import { EmptyList } from "../components/cars/EmptyList";
import { useCatalogue } from "../hooks/useCatalogue";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";

const SCOPE = { kind: "new" } as const;

/** New cars: pages of 20 (10 on phones), load-more in batches of 20. */
export function NewCars() {
  useDocumentTitle("Новые автомобили");
  const settings = useSettings();
  const catalogue = useCatalogue<BodyTypeInfo[]>(SCOPE);
  return (
    <CatalogueLayout
      catalogue={catalogue}
      title="Новые автомобили"
      banner={{
        desktop: settings.newCarsBanner,
        mobile: settings.newCarsBannerMobile,
        ad: settings.bannerAds?.newCarsBanner,
      }}
      bodyTypes={catalogue.side.data ?? []}
      loadMore
      empty={(filtered) => (
        <EmptyList filtered={filtered} onReset={catalogue.clear} resetHref={catalogue.clearHref} />
      )}
    />
  );
}
