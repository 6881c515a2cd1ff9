import { SalonPhoneLink, useSettings } from "../../hooks/useSettings";

/** What a control that needs JavaScript says to a browser without it (shown
 * only there, by the shell's <noscript> style; the control itself is
 * `js-only`): what it does cannot be done here, the phone can be called.
 * `to` says what the control does ("отправить заявку"); `phone` is given
 * where the markup is drawn once for a key (a car's card), else read from
 * the settings. */
export function NeedsScript({
  to = "отправить заявку",
  phone,
  phoneClass,
  class: className,
}: {
  to?: string;
  phone?: string;
  /** The call-tracking class of `phone`'s salon (several salons). */
  phoneClass?: string;
  class?: string;
}) {
  const settings = useSettings();
  const number = phone ?? settings.phone;
  return (
    <p
      class={className ? `nojs-only notice ${className}` : "nojs-only notice"}
      data-testid="needs-script"
    >
      Чтобы {to}, включите JavaScript или позвоните нам
      {number ? (
        <>
          : <SalonPhoneLink number={number} phoneClass={phone ? phoneClass : undefined} />
        </>
      ) : (
        "."
      )}
    </p>
  );
}
