/** The cars screen's side cards: the statistics of all cars and the bulk
 * price change on the list's search and filters, with its undo
 * (docs/pricing.md, "Bulk price change"). */
import { useState } from "react";
import { apiPost, apiPut } from "../../api/client";
import { CAR_FORMS, plural } from "../../lib/format";
import { BULK_PRICES_URL, type CarStats } from "../api";
import { BULK_PERCENT, bulkMultiplier } from "../carForm";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { Field } from "../components/Field";
import { errorMessage } from "../errors";
import {
  type BulkFilter,
  type BulkPriceAnswer,
  bulkBody,
  bulkQuestion,
  bulkScope,
  PRICE_CHANGES_URL,
  type PriceChange,
  type Undone,
  undoneText,
  undoUrl,
} from "../lib/bulkPrices";
import { shortDateTime } from "../lib/dates";
import { useAdminMutation, useAdminQuery } from "../query";
import { dismissToast, ERROR_TITLE, toastError } from "../toast";

export function StatsCard({ stats }: { stats: CarStats | null }) {
  const row = (label: string, n: number | undefined, id: string) => (
    <>
      <dt>{label}</dt>
      <dd data-testid={`stat-${id}`}>{n ?? "…"}</dd>
    </>
  );
  return (
    <article class="stats-card" aria-labelledby="car-stats-title">
      <h2 id="car-stats-title" class="card-title">
        Статистика
      </h2>
      <dl class="stats-list">
        {row("Новые", stats?.new, "new")}
        {row("С пробегом", stats?.used, "used")}
        {row("Аренда с выкупом", stats?.lease, "lease")}
        {row("В наличии", stats?.inStock, "in-stock")}
      </dl>
    </article>
  );
}

/** The price of every car the list finds (every car without a search or
 * filter) up or down by a percentage, after a confirmation naming how many
 * cars and which; the latest change can be undone with one click. */
export function BulkPriceCard({
  filter,
  matching,
}: {
  filter: BulkFilter;
  matching: number | null;
}) {
  const [percent, setPercent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ direction: "raise" | "lower"; multiplier: string } | null>(
    null,
  );
  const scope = bulkScope(filter);
  const changes = useAdminQuery<PriceChange[]>(PRICE_CHANGES_URL);
  const latest = changes.data?.[0] ?? null;
  const bulk = useAdminMutation(
    (priceMultiplier: string) =>
      apiPut<BulkPriceAnswer>(BULK_PRICES_URL, bulkBody(priceMultiplier, filter)),
    {
      success: (d) => `Обновлено ${d.updatedCount} ${plural(d.updatedCount, CAR_FORMS)}`,
      failure: "Не удалось обновить цены",
      onSuccess: () => {
        setPercent("");
        setAsking(null);
      },
      onFailure: (e) => {
        setAsking(null);
        const message = errorMessage(e, "Не удалось обновить цены");
        setError(message);
        toastError(message);
      },
    },
  );
  const undo = useAdminMutation((id: number) => apiPost<Undone>(undoUrl(id)), {
    success: (d) => undoneText(d),
    failure: "Не удалось отменить изменение цен",
  });
  const run = (direction: "raise" | "lower") => {
    const multiplier = bulkMultiplier(percent, direction);
    if (!multiplier) {
      setError(BULK_PERCENT);
      toastError(BULK_PERCENT);
      return;
    }
    // The refusal of an earlier try is no longer true: neither under the
    // field nor in the toast beside the confirmation.
    setError(null);
    dismissToast(ERROR_TITLE);
    setAsking({ direction, multiplier });
  };
  const question =
    asking && matching !== null ? bulkQuestion(asking.direction, percent, matching, scope) : null;
  return (
    <article class="bulk-card" aria-labelledby="bulk-title" data-testid="bulk-card">
      <h2 id="bulk-title" class="card-title">
        Изменение цен
      </h2>
      <p class="hint" data-testid="bulk-scope">
        {scope ? `Для найденных в списке: ${scope}` : "Для всех автомобилей"}
        {matching !== null && ` (${matching} ${plural(matching, CAR_FORMS)})`}
      </p>
      <div class="inline-row">
        <Field label="Процент" error={error}>
          {(a) => (
            <input
              {...a}
              inputMode="decimal"
              placeholder="Например, 5"
              value={percent}
              onInput={(e) => {
                setPercent(e.currentTarget.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <button type="button" disabled={bulk.isPending || !matching} onClick={() => run("raise")}>
          Повысить
        </button>
        <button
          type="button"
          class="secondary"
          disabled={bulk.isPending || !matching}
          onClick={() => run("lower")}
        >
          Понизить
        </button>
      </div>
      {latest && (
        <p class="bulk-last" data-testid="bulk-last">
          <span>
            Последнее изменение, {shortDateTime(latest.at)}: {latest.summary}
          </span>{" "}
          <button
            type="button"
            class="secondary outline"
            disabled={undo.isPending}
            aria-busy={undo.isPending || undefined}
            onClick={() => undo.mutate(latest.id)}
          >
            Отменить изменение
          </button>
        </p>
      )}
      <ConfirmDialog
        open={question !== null}
        title={question?.title ?? ""}
        message={question?.message}
        confirmLabel={question?.confirmLabel}
        destructive={false}
        busy={bulk.isPending}
        onConfirm={() => asking && bulk.mutate(asking.multiplier)}
        onCancel={() => setAsking(null)}
      />
    </article>
  );
}
