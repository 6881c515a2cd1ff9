import type { BodyTypeInfo } from "../api/types";
import { CatalogueLayout } from "../components/cars/CatalogueLayout";
import { EmptyList } from "../components/cars/EmptyList";
import { useCatalogue } from "../hooks/useCatalogue";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";

const SCOPE = { kind: "used" } as const;

/** Used cars: numbered pages of 20 (10 on phones), no load-more. */
export function UsedCars() {
  useDocumentTitle("Автомобили с пробегом");
  const settings = useSettings();
  const catalogue = useCatalogue<BodyTypeInfo[]>(SCOPE);
  return (
    <CatalogueLayout
      catalogue={catalogue}
      title="Автомобили с пробегом"
      banner={{
        desktop: settings.usedCarsBanner,
        mobile: settings.usedCarsBannerMobile,
        ad: settings.bannerAds?.usedCarsBanner,
      }}
      bodyTypes={catalogue.side.data ?? []}
      empty={(filtered) => (
        <EmptyList filtered={filtered} onReset={catalogue.clear} resetHref={catalogue.clearHref} />
      )}
    />
  );
}
