/** Alerts on new cars and price drops of a catalogue page's filters: an
 * e-mail, the personal-data consent and the advertising consent, then a
 * confirmation mail (double opt-in). A lazily loaded chunk: only the
 * catalogue's button opens it. */
import { useEffect, useRef, useState } from "react";
import { apiPost } from "../../api/client";
import type { BrandBrief } from "../../api/types";
import type { CarsQuery } from "../../api/urls";
import {
  ADVERTISING_LABEL,
  confirmationSent,
  describeFilter,
  SAVED_SEARCHES,
  SUBSCRIBE_FAILED,
  savedSearchFilter,
  subscribeErrors,
  subscribeRequest,
} from "../../lib/savedSearch";
import { ConsentFields } from "../leads/ConsentFields";
import { FieldErrors, Honeypot, LeadField, RequiredNote } from "../leads/LeadField";
import { usePublicForm } from "../leads/usePublicForm";
import { Dialog } from "../ui/Dialog";
import { useToast } from "../ui/Toast";

interface Props {
  /** The catalogue's API filters. */
  query: CarsQuery;
  brands: BrandBrief[];
  /** The body type as the page names it. */
  bodyLabel?: string;
  onClose: () => void;
}

export default function SavedSearchDialog({ query, brands, bodyLabel, onClose }: Props) {
  // Counted when the dialog opens: the page behind it cannot change meanwhile.
  const [filter] = useState(() => savedSearchFilter(query));
  const summary = describeFilter(filter, brands, bodyLabel);
  const [email, setEmail] = useState("");
  const state = usePublicForm(useToast());
  const { consent, advertising, honeypot, setHoneypot } = state;
  const { sending, errors, dropError } = state;
  /** The address the confirmation went to, once the server took it. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const done = useRef<HTMLParagraphElement>(null);

  // The form leaves with the focused button: focus goes to what replaced it,
  // and a screen reader reads it.
  useEffect(() => {
    if (sentTo) done.current?.focus();
  }, [sentTo]);

  function submit(e: Event) {
    e.preventDefault();
    if (sending) return;
    const input = { email, consent, advertisingConsent: advertising };
    void state.send(
      e.currentTarget as HTMLFormElement,
      subscribeErrors(input),
      async () => {
        const body = subscribeRequest(input, filter, location.href, honeypot);
        await apiPost(SAVED_SEARCHES, body);
        setSentTo(body.email);
      },
      SUBSCRIBE_FAILED,
    );
  }

  return (
    <Dialog open title="Сообщать о новых авто и снижении цен" onClose={onClose}>
      <p class="dialog-car" data-testid="saved-search-summary">
        Подборка: {summary}
      </p>
      {sentTo ? (
        <>
          <p ref={done} class="saved-search-sent" tabIndex={-1} data-testid="saved-search-sent">
            {confirmationSent(sentTo)}
          </p>
          <button type="button" onClick={onClose}>
            Готово
          </button>
        </>
      ) : (
        <FieldErrors.Provider value={errors}>
          <form
            class="lead-form"
            onSubmit={submit}
            onInput={(e) => {
              // Not for a checkbox: its own change handler clears its message.
              if ((e.target as HTMLInputElement).name === "email") dropError("email");
            }}
            noValidate
            data-testid="saved-search-form"
          >
            <p class="muted">
              Пришлём письмо, когда в подборке появятся новые автомобили или снизятся цены, не чаще
              раза в день. Отписаться можно по ссылке из любого письма.
            </p>
            <RequiredNote />
            <LeadField name="email" label="E-mail *" required>
              {(a) => (
                <input
                  {...a}
                  type="email"
                  inputMode="email"
                  autocomplete="email"
                  maxLength={254}
                  value={email}
                  onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
                />
              )}
            </LeadField>
            <Honeypot value={honeypot} onChange={setHoneypot} />
            <ConsentFields
              {...state.consentProps}
              advertisingLabel={ADVERTISING_LABEL}
              advertisingRequired
              advertisingError={errors.advertisingConsent}
            />
            <button type="submit" disabled={sending} aria-busy={sending}>
              {sending ? "Отправка..." : "Подписаться"}
            </button>
          </form>
        </FieldErrors.Provider>
      )}
    </Dialog>
  );
}
