import { useId } from "react";
import { legalHref } from "../../lib/salons";

interface Props {
  consent: boolean;
  advertising: boolean;
  onConsent: (value: boolean) => void;
  onAdvertising: (value: boolean) => void;
  /** The consent's message when it is missing. */
  error?: string;
  /** The advertising box's own words (a saved search's mailing); by default
   * the lead forms' offers. */
  advertisingLabel?: string;
  /** Required where the form exists to send advertising (a saved search). */
  advertisingRequired?: boolean;
  /** The advertising consent's message when it is required and missing. */
  advertisingError?: string;
  /** The salon the request goes to: one other than the main may be a
   * company of its own, whose texts the links open (issue 46). */
  salonId?: number | null;
}

/** The two unticked boxes of every lead form (152-FZ, 38-FZ art. 18). */
export function ConsentFields(props: Props) {
  const { consent, advertising, onConsent, onAdvertising, error, advertisingError } = props;
  const id = useId();
  const errorId = `${id}-consent-error`;
  const advertisingErrorId = `${id}-advertising-error`;
  return (
    <fieldset class="consent">
      <label>
        <input
          type="checkbox"
          name="consent"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          checked={consent}
          onChange={(e) => onConsent((e.target as HTMLInputElement).checked)}
        />
        <span>
          Я даю{" "}
          <a href={legalHref("consent", props.salonId)} target="_blank" rel="noopener">
            согласие на обработку персональных данных
          </a>{" "}
          и принимаю{" "}
          <a href={legalHref("privacy", props.salonId)} target="_blank" rel="noopener">
            политику обработки персональных данных
          </a>{" "}
          *
        </span>
      </label>
      {error && (
        <small id={errorId} class="field-error">
          {error}
        </small>
      )}
      <label>
        <input
          type="checkbox"
          name="advertisingConsent"
          required={props.advertisingRequired}
          aria-invalid={advertisingError ? true : undefined}
          aria-describedby={advertisingError ? advertisingErrorId : undefined}
          checked={advertising}
          onChange={(e) => onAdvertising((e.target as HTMLInputElement).checked)}
        />
        <span>
          {props.advertisingLabel ??
            "Согласен получать информацию об акциях и специальных предложениях"}
          {props.advertisingRequired && " *"}
        </span>
      </label>
      {advertisingError && (
        <small id={advertisingErrorId} class="field-error">
          {advertisingError}
        </small>
      )}
    </fieldset>
  );
}
