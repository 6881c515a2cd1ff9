import type { ReactNode } from "react";
import type { AdMark } from "../../lib/format";
import { srcsetOf } from "../../lib/images";
import { AdLabel } from "./AdLabel";

interface Props {
  desktop: string;
  mobile: string;
  alt: string;
  children?: ReactNode;
  priority?: boolean;
  home?: boolean;
  /** The banner's ad mark (settings `bannerAds`), shown under it. */
  ad?: AdMark;
}

/** A page banner: desktop and mobile pictures, a gradient when there is none;
 * an ad's mark under it. */
export function Banner({ desktop, mobile, alt, children, priority = true, home, ad }: Props) {
  const image = desktop || mobile;
  const mobileImage = mobile || desktop;
  return (
    <>
      <section
        class={`banner${image ? "" : " banner-gradient"}${home ? " banner-home" : ""}`}
        data-testid="banner"
      >
        {image && (
          <picture>
            <source
              media="(max-width: 767px)"
              srcset={srcsetOf(mobileImage) ?? mobileImage}
              sizes="100vw"
            />
            <img
              src={image}
              srcset={srcsetOf(image)}
              sizes="100vw"
              alt={alt}
              width={1600}
              height={400}
              loading={priority ? "eager" : "lazy"}
              fetchpriority={priority ? "high" : "auto"}
            />
          </picture>
        )}
        {children && <div class="banner-content">{children}</div>}
      </section>
      {ad && <AdLabel {...ad} class="container" />}
    </>
  );
}
