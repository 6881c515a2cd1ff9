interface Props {
  consent: boolean;
  advertising: boolean;
  onConsent: (value: boolean) => void;
  onAdvertising: (value: boolean) => void;
}

/** The two unticked boxes of every lead form (152-FZ, 38-FZ art. 18). */
export function ConsentFields({ consent, advertising, onConsent, onAdvertising }: Props) {
  return (
    <fieldset class="consent">
      <label>
        <input
          type="checkbox"
          name="consent"
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
