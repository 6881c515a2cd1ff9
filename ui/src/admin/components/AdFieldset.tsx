import type { FieldError } from "react-hook-form";
import { adLabel } from "../../lib/format";
import { AD_LEGEND, ADVERTISER_LABEL, type AdValues, ERID_HINT, ERID_LABEL } from "../lib/ads";
import { Field } from "./Field";

/** What a field's input takes: react-hook-form's `register(...)`, or a value
 * and its handler. */
type InputProps = object;

interface Props {
  /** register("adAdvertiser", adRules.adAdvertiser) of the form, or the like. */
  advertiser: InputProps;
  /** register("adErid", adRules.adErid) of the form, or the like. */
  erid: InputProps;
  errors: { adAdvertiser?: FieldError | string; adErid?: FieldError | string };
  advertiserHint: string;
  /** The inputs' ids are `${id}-advertiser` and `${id}-erid` (generated without it). */
  id?: string;
}

/** "Маркировка рекламы": an ad's advertiser and its token (erid), in the
 * promotion, bank and page-banner forms (src/admin/lib/ads.ts). */
export function AdFieldset({ advertiser, erid, errors, advertiserHint, id }: Props) {
  return (
    <fieldset class="ad-fields" data-testid="ad-fields">
      <legend>{AD_LEGEND}</legend>
      <div class="form-grid">
        <Field
          id={id && `${id}-advertiser`}
          label={ADVERTISER_LABEL}
          error={errors.adAdvertiser}
          hint={advertiserHint}
        >
          {(a) => <input {...a} autoComplete="off" {...advertiser} />}
        </Field>
        <Field id={id && `${id}-erid`} label={ERID_LABEL} error={errors.adErid} hint={ERID_HINT}>
          {(a) => <input {...a} autoComplete="off" spellcheck={false} {...erid} />}
        </Field>
      </div>
    </fieldset>
  );
}

/** An object's mark in an admin list, as the site shows it; nothing when it
 * is not an ad. */
export function AdNote({ adErid, adAdvertiser }: AdValues) {
  const text = adLabel({ erid: adErid, advertiser: adAdvertiser });
  return text ? (
    <p class="muted ad-note" data-testid="ad-note">
      {text}
    </p>
  ) : null;
}
