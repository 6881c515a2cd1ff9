import { initials } from "../../lib/images";
import { Img } from "./Img";

/** A brand's logo, or its initials when it has none. */
export function BrandLogo({
  name,
  logo,
  size = 56,
}: {
  name: string;
  logo: string;
  size?: number;
}) {
  if (logo) {
    // A media-store logo is drawn from its smallest variant (400 px; the
    // 800 px one was 16 KB for a 24 px chip) and fetched after the page's
    // own pictures: a phone's first paint waited on a row of them.
    return (
      <Img
        class="brand-logo"
        src={logo}
        sizes={`${size}px`}
        alt={`Логотип ${name}`}
        width={size}
        height={size}
        low
      />
    );
  }
  return (
    <span
      class="brand-logo brand-initials"
      style={{ width: size, height: size }}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
