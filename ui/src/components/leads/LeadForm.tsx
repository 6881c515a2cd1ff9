import { type ReactNode, useId, useState } from "react";
import { ApiError, apiPost } from "../../api/client";
import type { LeadPayload, LeadType } from "../../api/types";
import { LEADS } from "../../api/urls";
import { checkContact, LEAD_FAILED, withVisit } from "../../lib/leads";
import { type ToastMessage, useToast } from "../ui/Toast";
import { ConsentFields } from "./ConsentFields";

export type Extra = Partial<Omit<LeadPayload, "type" | "name" | "phone" | "consent">>;

interface Props {
  type: LeadType;
  /** Fields sent beside name and phone (car info, trade-in car, selection). */
  extra: () => Extra;
  success: ToastMessage;
  submitLabel: string;
  nameLabel?: string;
  phoneLabel?: string;
  /** Extra inputs shown above name and phone. */
  children?: ReactNode;
  /** Called after the server stored the lead, after the fields were cleared. */
  onSent?: () => void;
  /** The trade-in page keeps its button disabled until name and phone are filled. */
  disableUntilFilled?: boolean;
}

/** Name, phone, consents and the submit button of every request form. The
 * fields are cleared only when the server stored the lead. */
export function LeadForm(props: Props) {
  const { type, extra, success, submitLabel, children, onSent } = props;
  const toast = useToast();
  const id = useId();
  const [name, setName] = useState("");
  const [phone, setPhone] = useState("");
  const [consent, setConsent] = useState(false);
  const [advertising, setAdvertising] = useState(false);
  const [honeypot, setHoneypot] = useState("");
  const [sending, setSending] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    if (sending) return;
    const problem = checkContact(type, { name, phone, consent });
    if (problem) {
      toast({ title: "Ошибка", description: problem, variant: "error" });
      return;
    }
    setSending(true);
    try {
      const payload = withVisit(
        {
          ...extra(),
          type,
          name: name.trim(),
          phone: phone.trim(),
          consent,
          advertisingConsent: advertising,
        },
        honeypot,
      );
      await apiPost(LEADS, payload);
      setName("");
      setPhone("");
      setConsent(false);
      setAdvertising(false);
      toast({ ...success, variant: "success" });
      onSent?.();
    } catch (error) {
      const message =
        error instanceof ApiError && (error.status === 422 || error.status === 429)
          ? error.message
          : LEAD_FAILED;
      toast({ title: "Ошибка", description: message, variant: "error" });
    } finally {
      setSending(false);
    }
  }

  const blocked = props.disableUntilFilled && (!name.trim() || !phone.trim());
  return (
    <form class="lead-form" onSubmit={submit} noValidate data-lead-type={type}>
      {children}
      <label for={`${id}-name`}>{props.nameLabel ?? "ФИО *"}</label>
      <input
        id={`${id}-name`}
        name="name"
        autocomplete="name"
        maxLength={255}
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <label for={`${id}-phone`}>{props.phoneLabel ?? "Номер телефона *"}</label>
      <input
        id={`${id}-phone`}
        name="phone"
        type="tel"
        inputMode="tel"
        autocomplete="tel"
        placeholder="+7 (___) ___-__-__"
        maxLength={20}
        value={phone}
        onInput={(e) => setPhone((e.target as HTMLInputElement).value)}
      />
      <div class="hp" aria-hidden="true">
        <label for={`${id}-website`}>Ваш сайт</label>
        <input
          id={`${id}-website`}
          name="website"
          tabIndex={-1}
          autocomplete="off"
          value={honeypot}
          onInput={(e) => setHoneypot((e.target as HTMLInputElement).value)}
        />
      </div>
      <ConsentFields
        consent={consent}
        advertising={advertising}
        onConsent={setConsent}
        onAdvertising={setAdvertising}
      />
      <button type="submit" disabled={sending || blocked} aria-busy={sending}>
        {sending ? "Отправка..." : submitLabel}
      </button>
    </form>
  );
}
