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
import {
  FieldErrors,
  focusField,
  Honeypot,
  LeadField,
  RequiredNote,
  showRefusal,
} from "../leads/LeadField";
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
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [consent, setConsent] = useState(false);
  const [advertising, setAdvertising] = useState(false);
  const [honeypot, setHoneypot] = useState("");
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** The address the confirmation went to, once the server took it. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const done = useRef<HTMLParagraphElement>(null);

  // The form leaves with the focused button: focus goes to what replaced it,
  // and a screen reader reads it.
  useEffect(() => {
    if (sentTo) done.current?.focus();
  }, [sentTo]);

  async function submit(e: Event) {
    e.preventDefault();
    if (sending) return;
    const form = e.currentTarget as HTMLFormElement;
    const input = { email, consent, advertisingConsent: advertising };
    const problems: Record<string, string> = subscribeErrors(input);
    const first = Object.keys(problems)[0];
    if (first) {
      setErrors(problems);
      focusField(form, first);
      toast({ title: "Ошибка", description: problems[first], variant: "error" });
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const body = subscribeRequest(input, filter, location.href, honeypot);
      await apiPost(SAVED_SEARCHES, body);
      setSentTo(body.email);
    } catch (error) {
      const message = showRefusal(error, form, SUBSCRIBE_FAILED, setErrors);
      toast({ title: "Ошибка", description: message, variant: "error" });
    } finally {
      setSending(false);
    }
  }

  const dropError = (field: string) => {
    if (!errors[field]) return;
    const { [field]: _, ...rest } = errors;
    setErrors(rest);
  };

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
              consent={consent}
              advertising={advertising}
              onConsent={(value) => {
                setConsent(value);
                dropError("consent");
              }}
              onAdvertising={(value) => {
                setAdvertising(value);
                dropError("advertisingConsent");
              }}
              error={errors.consent}
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
