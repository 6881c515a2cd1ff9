import { telHref, useSettings } from "../../hooks/useSettings";

/** What a form says to a browser without JavaScript (shown only there, by
 * the shell's <noscript> style): it cannot be sent, the phone can be called. */
export function NeedsScript() {
  const { phone } = useSettings();
  return (
    <p class="nojs-only notice" data-testid="needs-script">
      Чтобы отправить заявку, включите JavaScript или позвоните нам
      {phone ? (
        <>
          : <a href={telHref(phone)}>{phone}</a>
        </>
      ) : (
        "."
      )}
    </p>
  );
}
