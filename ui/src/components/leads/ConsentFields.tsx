import { useId } from "react";

interface Props {
  consent: boolean;
  advertising: boolean;
  onConsent: (value: boolean) => void;
  onAdvertising: (value: boolean) => void;
  /** The consent's message when it is missing. */
  error?: string;
}

/** The two unticked boxes of every lead form (152-FZ, 38-FZ art. 18). */
export function ConsentFields({ consent, advertising, onConsent, onAdvertising, error }: Props) {
  const errorId = `${useId()}-consent-error`;
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
          <a href="/consent" target="_blank" rel="noopener">
            согласие на обработку персональных данных
          </a>{" "}
          и принимаю{" "}
          <a href="/privacy" target="_blank" rel="noopener">
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
          checked={advertising}
          onChange={(e) => onAdvertising((e.target as HTMLInputElement).checked)}
        />
        <span>Согласен получать информацию об акциях и специальных предложениях</span>
      </label>
    </fieldset>
  );
}
