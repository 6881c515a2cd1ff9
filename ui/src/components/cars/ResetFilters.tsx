import { inPlace } from "../../lib/links";

/** «Сбросить фильтры»: a link to the list without filters (it works without
 * JavaScript); a plain click resets in place. */
export function ResetFilters({
  href,
  onReset,
  class: className = "secondary",
}: {
  href: string;
  onReset: () => void;
  class?: string;
}) {
  return (
    <a href={href} role="button" class={className} {...inPlace(onReset)}>
      Сбросить фильтры
    </a>
  );
}
