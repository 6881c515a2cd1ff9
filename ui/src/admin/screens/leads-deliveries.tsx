/** A lead's notifications in its details: each channel's delivery (reminders
 * of a lead left new marked 'Напоминание'; queued
 * with the next try, sending, sent at, failed with the last error and the
 * tries made) and the retry of the failed ones (docs/notifications.md). */
import { apiPost } from "../../api/client";
import { DetailSection } from "../components/DetailSection";
import {
  CHANNEL_LABELS,
  type Channel,
  type Delivery,
  deliveriesUrl,
  deliveryView,
  failedChannels,
  inFlight,
  retryUrl,
} from "../lib/notifications";
import { queryClient, useAdminMutation, useAdminQuery } from "../query";

/** How often the details look again while a delivery is on its way. */
const WATCH_MS = 2000;

export function LeadDeliveries({ lead }: { lead: string }) {
  const url = deliveriesUrl(lead);
  const deliveries = useAdminQuery<Delivery[]>(url, {
    refetchInterval: (q) => (q.state.data && inFlight(q.state.data) ? WATCH_MS : false),
  });
  const retry = useAdminMutation(
    (channel: Channel | undefined) => apiPost<Delivery[]>(retryUrl(lead, channel)),
    {
      success: (_, channel) =>
        channel
          ? `${CHANNEL_LABELS[channel]}: отправка поставлена в очередь`
          : "Отправка поставлена в очередь",
      failure: "Не удалось повторить отправку",
      onSuccess: (list) => queryClient.setQueryData([url], list),
    },
  );
  const list = deliveries.data ?? [];
  const failed = failedChannels(list);
  return (
    <DetailSection title="Уведомления" testId="lead-deliveries" busy={deliveries.isPending}>
      {deliveries.isPending ? (
        <p class="muted">Загрузка…</p>
      ) : deliveries.isError && !deliveries.data ? (
        <p class="muted">
          Не удалось загрузить уведомления.{" "}
          <button type="button" class="secondary outline" onClick={() => void deliveries.refetch()}>
            Повторить
          </button>
        </p>
      ) : list.length === 0 ? (
        <p class="muted">Уведомления о заявке не отправлялись (каналы не настроены)</p>
      ) : (
        <>
          <ul class="delivery-list">
            {list.map((d) => {
              const v = deliveryView(d);
              const busy = retry.isPending && retry.variables === d.channel;
              return (
                <li
                  key={d.id}
                  data-testid="delivery"
                  data-channel={d.channel}
                  data-kind={d.kind}
                  data-state={d.state}
                >
                  <div class="delivery-head">
                    <strong>{v.channel}</strong>
                    {v.kind && (
                      <span class="badge badge-purple" data-testid="delivery-kind">
                        {v.kind}
                      </span>
                    )}
                    <span class={`badge badge-${v.badge}`} data-testid="delivery-state">
                      {v.state}
                    </span>
                    {v.retryable && (
                      <button
                        type="button"
                        class="secondary outline"
                        aria-label={`Повторить отправку: ${v.channel}`}
                        aria-busy={busy || undefined}
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d.channel)}
                      >
                        Повторить
                      </button>
                    )}
                  </div>
                  {v.lines.length > 0 && (
                    <p class="delivery-lines muted">
                      {v.lines.map((line, i) => (
                        <span key={line}>
                          {i > 0 && <br />}
                          {line}
                        </span>
                      ))}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          {failed.length > 1 && (
            <button
              type="button"
              class="secondary"
              aria-busy={(retry.isPending && retry.variables === undefined) || undefined}
              disabled={retry.isPending}
              onClick={() => retry.mutate(undefined)}
            >
              Повторить все неудачные
            </button>
          )}
        </>
      )}
    </DetailSection>
  );
}
