import type { Review } from "../../api/types";
import { formatDate } from "../../lib/format";
import { drawnOnceOnServer, propsKey } from "../../lib/serverFragments";

/** The first six approved reviews. */
function ReviewsMarkup({ items }: { items: Review[] }) {
  const shown = items.slice(0, 6);
  return (
    <section class="section" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Отзывы клиентов</h2>
      {shown.length === 0 ? (
        <p class="empty">Пока нет отзывов</p>
      ) : (
        <div class="review-grid">
          {shown.map((r) => (
            <article class="review-card" key={r.id} data-testid="review">
              <p class="stars" role="img" aria-label={`Оценка ${r.rating} из 5`}>
                {"★".repeat(r.rating)}
                <span class="stars-off">{"★".repeat(5 - r.rating)}</span>
              </p>
              <p>{r.text}</p>
              <footer>
                <strong>{r.customerName}</strong>
                {r.carModel && <span> · {r.carModel}</span>}
                <br />
                <small class="muted">{formatDate(r.createdAt)}</small>
              </footer>
            </article>
          ))}
        </div>
      )}
    </section>
  );
}

export const Reviews = drawnOnceOnServer("Reviews", ReviewsMarkup, propsKey);
