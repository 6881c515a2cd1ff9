import { initials } from "../../lib/images";

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
    return (
      <img
        class="brand-logo"
        src={logo}
        alt={`Логотип ${name}`}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
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
