/** A lead's calls in its details: each call's time, who reported it, taken
 * or missed with its length, the number called, where the caller came from
 * and a link to the recording (played on the provider's side); and a
 * callback's outcome. Shown when the lead has calls or is a callback. */
import type { Lead, LeadCall } from "../../api/types";
import { DetailSection } from "../components/DetailSection";
import { errorMessage } from "../errors";
import { longDateTime } from "../lib/dates";
import { CALL_PROVIDERS, callbackWords, callSummary, callsUrl } from "../lib/lead-calls";
import { useAdminQuery } from "../query";

export function LeadCalls({ lead }: { lead: Lead }) {
  const calls = useAdminQuery<LeadCall[]>(callsUrl(lead.id), { retry: false });
  const list = calls.data ?? [];
  const callback = callbackWords(lead);
  if (!callback && !calls.isError && list.length === 0) return null;
  return (
    <DetailSection title="Звонки" class="lead-calls" testId="lead-calls" busy={calls.isPending}>
      {callback && (
        <p data-testid="lead-callback">
          <strong>Перезвоните мне:</strong> {callback}
        </p>
      )}
      {calls.isError && (
        <p class="muted">{errorMessage(calls.error, "Не удалось загрузить звонки")}</p>
      )}
      {list.length > 0 && (
        <ul class="lead-call-list">
          {list.map((call) => (
            <li key={`${call.provider}-${call.callId}`} data-testid="lead-call">
              <span>{longDateTime(call.at)}</span> ·{" "}
              <span>{CALL_PROVIDERS[call.provider] ?? call.provider}</span> ·{" "}
              <strong>{callSummary(call)}</strong>
              {call.called && <> · на номер {call.called}</>}
              {call.source && <> · источник: {call.source}</>}
              {call.recordUrl && (
                <>
                  {" "}
                  ·{" "}
                  <a href={call.recordUrl} target="_blank" rel="noopener noreferrer">
                    Запись разговора
                  </a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </DetailSection>
  );
}
