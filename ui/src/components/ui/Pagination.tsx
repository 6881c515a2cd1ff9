import { followsInPlace, spaceActivates } from "../../lib/links";
import { pageWindow } from "../../lib/pagination";

interface Props {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** The address of a page: the numbers are then real links (crawlers, no
   * JavaScript) and a plain click turns the page in place; without it
   * (the admin lists), buttons. */
  href?: (page: number) => string;
  /** The navigation's name, when a page has several (default «Страницы»). */
  label?: string;
}

/** Previous/next and numbered pages: first, last, current ±1, ellipses. */
export function Pagination({ page, pages, onPage, href, label = "Страницы" }: Props) {
  if (pages <= 1) return null;
  const link = (to: number) => ({
    href: href?.(to),
    onClick: (e: MouseEvent) => {
      if (!followsInPlace(e)) return;
      e.preventDefault();
      onPage(to);
    },
    onKeyDown: href ? spaceActivates(() => onPage(to)) : undefined,
  });
  const Item = href ? "a" : "button";
  const kind = href ? { role: "button" as const } : { type: "button" as const };
  return (
    <nav class="pagination" aria-label={label}>
      {page > 1 ? (
        <a
          role="button"
          class="outline secondary"
          aria-label="Предыдущая страница"
          {...link(page - 1)}
        >
          ‹
        </a>
      ) : (
        <button type="button" class="outline secondary" disabled aria-label="Предыдущая страница">
          ‹
        </button>
      )}
      {pageWindow(page, pages).map((item) =>
        typeof item === "number" ? (
          <Item
            {...kind}
            key={item}
            class={item === page ? "" : "outline secondary"}
            aria-current={item === page ? "page" : undefined}
            aria-label={`Страница ${item}`}
            {...link(item)}
          >
            {item}
          </Item>
        ) : (
          <span key={item} class="ellipsis" aria-hidden="true">
            …
          </span>
        ),
      )}
      {page < pages ? (
        <a
          role="button"
          class="outline secondary"
          aria-label="Следующая страница"
          {...link(page + 1)}
        >
          ›
        </a>
      ) : (
        <button type="button" class="outline secondary" disabled aria-label="Следующая страница">
          ›
        </button>
      )}
    </nav>
  );
}
