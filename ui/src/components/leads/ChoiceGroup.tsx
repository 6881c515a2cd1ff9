import { type ReactNode, useContext, useId } from "react";
import { FieldErrors } from "./LeadField";

export interface Choice {
  value: string;
  label: ReactNode;
}

interface Props {
  name: string;
  legend: string;
  choices: Choice[];
  value: string;
  onChange: (value: string) => void;
}

/** A group of radio buttons drawn as chips, one tap each, with the group's
 * error message (from the lead form) under its legend. */
export function ChoiceGroup({ name, legend, choices, value, onChange }: Props) {
  const error = useContext(FieldErrors)[name];
  const errorId = `${useId()}-error`;
  return (
    <fieldset class="choice-group" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {error && (
        <small id={errorId} class="field-error">
          {error}
        </small>
      )}
      <div class="choices">
        {choices.map((c) => (
          <label key={c.value} class="choice">
            <input
              type="radio"
              name={name}
              value={c.value}
              checked={value === c.value}
              aria-invalid={error ? true : undefined}
              // The input event, not change: the form re-renders on input.
              onInput={() => onChange(c.value)}
            />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
