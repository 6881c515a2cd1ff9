/** What a public form with the consents keeps (a request's and a saved
 * search's): the two consents, the honeypot, the wait, the messages of its
 * wrong fields, and its submission checked first, then sent, a refusal shown
 * at its field (`showRefusal`) and in a toast. */
import { useState } from "react";
import type { useToast } from "../ui/Toast";
import { focusField, showRefusal } from "./LeadField";

/** `toast` is the caller's `useToast()`: imported here, Toast would leave
 * the entry chunk for a shared one (0.5 KB more of a public page's budget). */
export function usePublicForm(toast: ReturnType<typeof useToast>) {
  const [consent, setConsent] = useState(false);
  const [advertising, setAdvertising] = useState(false);
  const [honeypot, setHoneypot] = useState("");
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const dropError = (field: string) => {
    if (!errors[field]) return;
    const { [field]: _, ...rest } = errors;
    setErrors(rest);
  };

  const fail = (description: string) => toast({ title: "Ошибка", description, variant: "error" });

  /** The form's wrong fields marked (focus on the first, its message in a
   * toast); else `post`, its refusal told with `failed` when the server
   * gives no message of its own (`onError` sees the error first). */
  async function send(
    form: HTMLFormElement,
    problems: Record<string, string>,
    post: () => Promise<void>,
    failed: string,
    onError?: (error: unknown) => void,
  ) {
    const first = Object.keys(problems)[0];
    if (first) {
      setErrors(problems);
      focusField(form, first);
      fail(problems[first] ?? "");
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await post();
    } catch (error) {
      onError?.(error);
      fail(showRefusal(error, form, failed, setErrors));
    } finally {
      setSending(false);
    }
  }

  /** The consents' props of `ConsentFields` (a tick clears its message). */
  const consentProps = {
    consent,
    advertising,
    onConsent: (value: boolean) => {
      setConsent(value);
      dropError("consent");
    },
    onAdvertising: (value: boolean) => {
      setAdvertising(value);
      dropError("advertisingConsent");
    },
    error: errors.consent,
  };

  return {
    consentProps,
    consent,
    setConsent,
    advertising,
    setAdvertising,
    honeypot,
    setHoneypot,
    sending,
    errors,
    dropError,
    send,
  };
}
