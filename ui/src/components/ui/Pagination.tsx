import { pageWindow } from "../../lib/pagination";

interface Props {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/** Previous/next and numbered pages: first, last, current ±1, ellipses. */
export function Pagination({ page, pages, onPage }: Props) {
  if (pages <= 1) return null;
  return (
    <nav class="pagination" aria-label="Страницы">
      <button
        type="button"
        class="outline secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label="Предыдущая страница"
      >
        ‹
      </button>
      {pageWindow(page, pages).map((item) =>
        typeof item === "number" ? (
          <button
            type="button"
            key={item}
            class={item === page ? "" : "outline secondary"}
            aria-current={item === page ? "page" : undefined}
            aria-label={`Страница ${item}`}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ) : (
          <span key={item} class="ellipsis" aria-hidden="true">
            …
          </span>
        ),
      )}
      <button
        type="button"
        class="outline secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label="Следующая страница"
      >
        ›
      </button>
    </nav>
  );
}
