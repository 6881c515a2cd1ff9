import { lazy, type ReactNode, Suspense, useState } from "react";
import { ApiError, apiPost } from "../../api/client";
import type { Lead, LeadPayload, LeadType } from "../../api/types";
import { LEADS } from "../../api/urls";
import { SalonPhoneLink, useSettings } from "../../hooks/useSettings";
import { reachLeadGoals } from "../../lib/analytics";
import { contactErrors, LEAD_FAILED, withVisit } from "../../lib/leads";
import { MAIN_SALON, salonOf, severalSalons } from "../../lib/salons";
import { NeedsScript } from "../ui/NeedsScript";
import { type ToastMessage, useToast } from "../ui/Toast";
import { ConsentFields } from "./ConsentFields";
import { FieldErrors, Honeypot, LeadField, RequiredNote } from "./LeadField";
import { usePublicForm } from "./usePublicForm";

export type Extra = Partial<Omit<LeadPayload, "type" | "name" | "phone" | "consent">>;

interface Props {
  type: LeadType;
  /** Fields sent beside name and phone (car info, trade-in car, selection). */
  extra: () => Extra;
  /** The toast once stored; a function reads it off the stored lead (a
   * callback's answer says when the salon calls). */
  success: ToastMessage | ((lead: Lead) => ToastMessage);
  submitLabel: string;
  nameLabel?: string;
  phoneLabel?: string;
  /** Extra inputs shown above name and phone (LeadField shows their errors). */
  children?: ReactNode;
  /** Called after the server stored the lead, after the fields were cleared. */
  onSent?: () => void;
  /** The trade-in page keeps its button disabled until name and phone are filled. */
  disableUntilFilled?: boolean;
  /** Messages of the extra inputs' wrong values, by input name (they come
   * first in the form, so before name and phone). */
  validate?: () => Record<string, string>;
  /** The car the request is about: it goes to the car's salon (its phone,
   * its texts). Without one, a site with several salons asks which. */
  car?: { salonId?: number | null };
}

const NO_SALON = "Выберите салон";
/** Only a site with several salons loads the choice (its own chunk). */
const SalonSelect = lazy(() => import("./SalonSelect"));

/** Name, phone, consents and the submit button of every request form. The
 * fields are cleared only when the server stored the lead. A wrong field
 * gets its message below it and focus goes to the first one; the toast says
 * the first problem as a summary. */
export function LeadForm(props: Props) {
  const { type, extra, success, submitLabel, children, onSent } = props;
  const toast = useToast();
  const [name, setName] = useState("");
  const [phone, setPhone] = useState("");
  const state = usePublicForm(toast);
  const { consent, setConsent, advertising, setAdvertising, honeypot, setHoneypot } = state;
  const { sending, errors, dropError } = state;
  // The server could not store the lead (503): its message, shown in the
  // form with the phone to call until the next try.
  const [unsaved, setUnsaved] = useState<string | null>(null);
  const settings = useSettings();
  // Several salons (issue 46): a general form's choice, a car's own salon.
  const [chosen, setChosen] = useState<number | null>(null);
  const choice = props.car ? null : severalSalons(settings.salons);
  const salonId = props.car ? (props.car.salonId ?? MAIN_SALON) : chosen;
  const salon = salonOf(settings.salons, salonId);
  const phoneToCall = (salon?.phone || settings.phone).trim();

  function submit(e: Event) {
    e.preventDefault();
    if (sending) return;
    const problems: Record<string, string> = {
      ...props.validate?.(),
      ...(choice && chosen === null ? { salonId: NO_SALON } : {}),
      ...contactErrors(type, { name, phone, consent }),
    };
    const post = async () => {
      setUnsaved(null);
      const payload = withVisit(
        {
          ...extra(),
          ...(choice ? { salonId: chosen } : {}),
          type,
          name: name.trim(),
          phone: phone.trim(),
          consent,
          advertisingConsent: advertising,
        },
        honeypot,
      );
      const lead = await apiPost<Lead>(LEADS, payload);
      // Metrika's goals, while the visitor's accepted counters run.
      reachLeadGoals(type);
      setName("");
      setPhone("");
      setConsent(false);
      setAdvertising(false);
      toast({ ...(typeof success === "function" ? success(lead) : success), variant: "success" });
      onSent?.();
    };
    void state.send(e.currentTarget as HTMLFormElement, problems, post, LEAD_FAILED, (error) => {
      if (error instanceof ApiError && error.status === 503) setUnsaved(error.message);
    });
  }

  // Typing in a field clears its message. Not for a checkbox: a render
  // between its input and change events would undo the tick (the consent
  // clears its message in its own change handler).
  const clear = (e: Event) => {
    const input = e.target as HTMLInputElement;
    if (input.type !== "checkbox" && input.name) dropError(input.name);
  };

  const blocked = props.disableUntilFilled && (!name.trim() || !phone.trim());
  return (
    <FieldErrors.Provider value={errors}>
      <form class="lead-form" onSubmit={submit} onInput={clear} noValidate data-lead-type={type}>
        <NeedsScript phone={salon?.phone || undefined} phoneClass={salon?.phoneClass} />
        <RequiredNote />
        {children}
        {choice && (
          <Suspense fallback={null}>
            <SalonSelect salons={choice} value={chosen} onChange={setChosen} />
          </Suspense>
        )}
        <LeadField name="name" label={props.nameLabel ?? "ФИО *"} required>
          {(a) => (
            <input
              {...a}
              autocomplete="name"
              maxLength={255}
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          )}
        </LeadField>
        <LeadField name="phone" label={props.phoneLabel ?? "Номер телефона *"} required>
          {(a) => (
            <input
              {...a}
              type="tel"
              inputMode="tel"
              autocomplete="tel"
              placeholder="+7 (___) ___-__-__"
              maxLength={20}
              value={phone}
              onInput={(e) => setPhone((e.target as HTMLInputElement).value)}
            />
          )}
        </LeadField>
        <Honeypot value={honeypot} onChange={setHoneypot} />
        <ConsentFields {...state.consentProps} salonId={salonId} />
        {unsaved && (
          <div class="lead-unsaved" role="alert" data-testid="lead-unsaved">
            <p>{unsaved}</p>
            {phoneToCall && (
              <p>
                Позвонить:{" "}
                <SalonPhoneLink
                  number={phoneToCall}
                  phoneClass={salon?.phone ? salon.phoneClass : undefined}
                />
              </p>
            )}
          </div>
        )}
        <button type="submit" disabled={sending || blocked} aria-busy={sending}>
          {sending ? "Отправка..." : unsaved ? "Отправить ещё раз" : submitLabel}
        </button>
      </form>
    </FieldErrors.Provider>
  );
}
