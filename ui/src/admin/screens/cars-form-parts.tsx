/** Parts of the car form (cars-form.tsx): the conditional discounts with
 * the lowest price they give, the trims' rows, and the body-type select's
 * choices. */
import {
  type Control,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
  useWatch,
} from "react-hook-form";
import type { BodyTypeInfo, Car } from "../../api/types";
import { bodyTypeName } from "../../lib/labels";
import {
  type CarValues,
  carDiscountPreview,
  discountRule,
  MESSAGES,
  TRIM_DESCRIPTION_MAX,
  TRIM_LEVELS_MAX,
  TRIM_LINK_MAX,
  TRIM_NAME_MAX,
  trimLevelsOver,
} from "../carForm";
import { Field } from "../components/Field";

/** A text field that must not be left empty, with its message. */
export const required = (message: string) => ({
  validate: (x: string) => x.trim() !== "" || message,
});

export const DISCOUNTS = [
  [
    "creditDiscount",
    "Скидка при кредите, ₽",
    "Только при кредите в банке-партнёре; калькулятор на странице вычитает её из цены",
  ],
  ["tradeinDiscount", "Скидка при трейд-ин, ₽", "При сдаче автомобиля покупателя в трейд-ин"],
  ["insuranceDiscount", "Скидка при страховании, ₽", "При покупке страхового полиса в салоне"],
  [
    "maxDiscount",
    "Максимальная скидка, ₽",
    "Сколько все скидки вместе снимают самое большее; пусто — без ограничения",
  ],
] as const;

interface PartProps {
  register: UseFormRegister<CarValues>;
  errors: FieldErrors<CarValues>;
  control: Control<CarValues>;
}

/** The conditional discounts and their cap (docs/pricing.md), each no
 * greater than the price, and the lowest price they give. */
export function DiscountFields({ register, errors, control }: PartProps) {
  // Watched here, not in the form: typing elsewhere does not redraw this.
  const [price, creditDiscount, tradeinDiscount, insuranceDiscount, maxDiscount] = useWatch({
    control,
    name: ["price", "creditDiscount", "tradeinDiscount", "insuranceDiscount", "maxDiscount"],
  });
  const preview = carDiscountPreview({
    price,
    creditDiscount,
    tradeinDiscount,
    insuranceDiscount,
    maxDiscount,
  });
  return (
    <fieldset class="discounts" data-testid="discounts">
      <legend>Скидки при условиях</legend>
      <p class="muted">
        Цена выше — без условий. Каждая скидка показывается на странице автомобиля со своим
        условием; пусто — скидки нет.
      </p>
      <div class="form-grid">
        {DISCOUNTS.map(([name, label, hint]) => (
          <Field key={name} label={label} error={errors[name]} hint={hint}>
            {(a) => (
              <input
                {...a}
                inputMode="decimal"
                {...register(name, { validate: (x, all) => discountRule(x, all.price) })}
              />
            )}
          </Field>
        ))}
      </div>
      {preview && (
        <p data-testid="discount-preview">
          Цена со всеми скидками: <strong>{preview}</strong>
        </p>
      )}
    </fieldset>
  );
}

/** Text of at most `max` characters, else `message`. */
const within = (max: number, message: string) => (x: string) => x.trim().length <= max || message;

/** The trims: a row each (name, description, link, remove) and "Добавить
 * комплектацию", at most TRIM_LEVELS_MAX of them: the button is disabled at
 * the limit, and a car stored with more shows its first rows, says so and
 * offers to keep only the first ones (the server refuses more). */
export function TrimFields({ register, errors, control }: PartProps) {
  const trims = useFieldArray({
    control,
    name: "trimLevels",
    rules: { maxLength: { value: TRIM_LEVELS_MAX, message: MESSAGES.trimLevels } },
  });
  const count = trims.fields.length;
  const over = count > TRIM_LEVELS_MAX;
  const full = count >= TRIM_LEVELS_MAX;
  const listError = errors.trimLevels?.message ?? errors.trimLevels?.root?.message;
  return (
    <fieldset class="trims" data-testid="trims">
      <legend>Комплектации</legend>
      {over && (
        <div class="trims-over" role="alert" data-testid="trims-over">
          <p>{trimLevelsOver(count)}</p>
          <button
            type="button"
            class="secondary"
            onClick={() =>
              trims.remove(
                Array.from({ length: count - TRIM_LEVELS_MAX }, (_, k) => k + TRIM_LEVELS_MAX),
              )
            }
          >
            Оставить первые {TRIM_LEVELS_MAX}
          </button>
        </div>
      )}
      {trims.fields.slice(0, TRIM_LEVELS_MAX).map((t, i) => (
        <div key={t.id} class="trim-row form-grid" data-testid="trim">
          <Field
            label={`Комплектация ${i + 1}: название`}
            required
            error={errors.trimLevels?.[i]?.name}
          >
            {(a) => (
              <input
                {...a}
                maxLength={TRIM_NAME_MAX}
                {...register(`trimLevels.${i}.name`, {
                  validate: (x: string) =>
                    x.trim() === ""
                      ? MESSAGES.trimName
                      : within(TRIM_NAME_MAX, MESSAGES.trimNameLength)(x),
                })}
              />
            )}
          </Field>
          <Field label="Описание" error={errors.trimLevels?.[i]?.description}>
            {(a) => (
              <input
                {...a}
                maxLength={TRIM_DESCRIPTION_MAX}
                {...register(`trimLevels.${i}.description`, {
                  validate: within(TRIM_DESCRIPTION_MAX, MESSAGES.trimDescriptionLength),
                })}
              />
            )}
          </Field>
          <Field label="Ссылка" error={errors.trimLevels?.[i]?.link}>
            {(a) => (
              <input
                {...a}
                type="url"
                inputMode="url"
                maxLength={TRIM_LINK_MAX}
                {...register(`trimLevels.${i}.link`, {
                  validate: within(TRIM_LINK_MAX, MESSAGES.trimLinkLength),
                })}
              />
            )}
          </Field>
          <div class="trim-remove">
            <button
              type="button"
              class="secondary outline"
              aria-label={`Удалить комплектацию ${i + 1}`}
              onClick={() => trims.remove(i)}
            >
              Удалить
            </button>
          </div>
        </div>
      ))}
      {listError && !over && (
        <small class="field-error" role="alert" data-testid="trims-error">
          {listError}
        </small>
      )}
      <button
        type="button"
        class="secondary outline"
        disabled={full}
        onClick={() => trims.append({ name: "", description: "", link: "" })}
      >
        Добавить комплектацию
      </button>
      {full && !over && (
        <small class="muted" data-testid="trims-full">
          {MESSAGES.trimLevels}
        </small>
      )}
    </fieldset>
  );
}

/** The body-type select's choices: the table's, in its order, and the car's
 * own type should the table lack it. */
export function bodyTypeChoices(types: BodyTypeInfo[], car: Car | null): [string, string][] {
  const choices: [string, string][] = types.map((t) => [
    t.bodyType,
    bodyTypeName(t.bodyType, types) ?? t.bodyType,
  ]);
  if (car && !types.some((t) => t.bodyType === car.bodyType)) {
    choices.push([car.bodyType, bodyTypeName(car.bodyType, types) ?? car.bodyType]);
  }
  return choices;
}
