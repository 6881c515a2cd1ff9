import { useState } from "react";
import {
  type Control,
  Controller,
  type FieldErrors,
  type UseFormRegister,
  useFieldArray,
  useForm,
  useWatch,
} from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import type { BodyTypeInfo, Brand, Car } from "../../api/types";
import {
  bodyTypeName,
  DRIVETRAIN_LABELS,
  FUEL_LABELS,
  STATUS_LABELS,
  TRANSMISSION_LABELS,
} from "../../lib/labels";
import { adminCarUrl, BODY_TYPES_URL, BRANDS_URL, carUrl } from "../api";
import {
  CAR_FIELDS,
  type CarValues,
  carDiscountPreview,
  carInput,
  carSlug,
  carValues,
  DOORS_MAX,
  DOORS_MIN,
  discountRule,
  doorsRule,
  GENERATION_MAX,
  generationRule,
  MESSAGES,
  MIN_YEAR,
  maxYear,
  mileageRule,
  optionalMoneyRule,
  priceRule,
  slugRule,
  TRIM_MAX,
  trimRule,
  yearRule,
} from "../carForm";
import { applyServerError } from "../components/applyServerError";
import { ErrorPanel } from "../components/ErrorPanel";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { MultiImageUpload } from "../components/MultiImageUpload";
import { useAdminMutation, useAdminQuery } from "../query";

const DISCOUNTS = [
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

interface DiscountProps {
  register: UseFormRegister<CarValues>;
  errors: FieldErrors<CarValues>;
  control: Control<CarValues>;
}

/** The conditional discounts and their cap (docs/pricing.md), each no
 * greater than the price, and the lowest price they give. */
function DiscountFields({ register, errors, control }: DiscountProps) {
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

/** The add (id null) or edit dialog of a car. */
export function CarDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const car = useAdminQuery<Car>(id ? adminCarUrl(id) : null, {
    // The form keeps its own copy once open: no refetch under the admin's hands.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
    // Dropped when the dialog closes: the next edit starts from the server.
    gcTime: 0,
  });
  const brands = useAdminQuery<Brand[]>(BRANDS_URL, { refetchOnWindowFocus: false });
  // The dealership's own body types (docs/admin.md).
  const bodyTypes = useAdminQuery<BodyTypeInfo[]>(BODY_TYPES_URL, { refetchOnWindowFocus: false });
  const title = id ? "Изменить автомобиль" : "Добавить автомобиль";
  const failure =
    (id && car.isError && car.error) ||
    (brands.isError && brands.error) ||
    (bodyTypes.isError && bodyTypes.error);
  const ready = brands.data && bodyTypes.data && (!id || car.data);
  if (failure || !ready) {
    return (
      <FormDialog open title={title} dirty={false} onClose={onClose} testId="car-dialog">
        {failure ? (
          <ErrorPanel
            error={failure}
            title="Не удалось загрузить автомобиль"
            onRetry={() => {
              void car.refetch();
              void brands.refetch();
              void bodyTypes.refetch();
            }}
          />
        ) : (
          <p aria-busy="true">Загрузка…</p>
        )}
      </FormDialog>
    );
  }
  return (
    <CarForm
      title={title}
      car={id ? (car.data ?? null) : null}
      brands={brands.data ?? []}
      bodyTypes={bodyTypes.data ?? []}
      onClose={onClose}
    />
  );
}

interface FormProps {
  title: string;
  car: Car | null;
  brands: Brand[];
  bodyTypes: BodyTypeInfo[];
  onClose: () => void;
}

/** The body-type select's choices: the table's, in its order, and the car's
 * own type should the table lack it. */
function bodyTypeChoices(types: BodyTypeInfo[], car: Car | null): [string, string][] {
  const choices: [string, string][] = types.map((t) => [
    t.bodyType,
    bodyTypeName(t.bodyType, types) ?? t.bodyType,
  ]);
  if (car && !types.some((t) => t.bodyType === car.bodyType)) {
    choices.push([car.bodyType, bodyTypeName(car.bodyType, types) ?? car.bodyType]);
  }
  return choices;
}

function CarForm({ title, car, brands, bodyTypes, onClose }: FormProps) {
  const {
    register,
    handleSubmit,
    control,
    watch,
    setError,
    setValue,
    getValues,
    getFieldState,
    formState: { errors, isDirty },
  } = useForm<CarValues>({ defaultValues: carValues(car), mode: "onTouched" });
  const trims = useFieldArray({ control, name: "trimLevels" });
  const [uploading, setUploading] = useState(false);
  const status = watch("status");
  // A saved slug is the car's address: it is never regenerated.
  const slugLocked = Boolean(car?.slug);

  const save = useAdminMutation(
    (v: CarValues) => {
      const body = carInput(v);
      return car ? apiPut<Car>(carUrl(car.id), body) : apiPost<Car>("/api/cars", body);
    },
    {
      success: car ? "Автомобиль обновлен" : "Автомобиль добавлен",
      onFailure: (e) =>
        applyServerError(setError, e, {
          fallback: "Не удалось сохранить автомобиль",
          fields: CAR_FIELDS,
        }),
      onSuccess: onClose,
    },
  );

  const regenerateSlug = () => {
    if (slugLocked || getFieldState("slug").isDirty) return;
    const slug = carSlug(getValues("name"), getValues("model"));
    if (slug) setValue("slug", slug, { shouldValidate: true });
  };

  const required = (message: string) => ({
    validate: (x: string) => x.trim() !== "" || message,
  });
  const yearHigh = maxYear();

  return (
    <FormDialog open title={title} dirty={isDirty} onClose={onClose} testId="car-dialog">
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))} data-testid="car-form">
        <div class="form-grid">
          <Field label="Марка" required error={errors.brandId}>
            {(a) => (
              <select {...a} {...register("brandId", required(MESSAGES.brandId))}>
                <option value="">Выберите марку</option>
                {brands.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Название" required error={errors.name}>
            {(a) => (
              <input
                {...a}
                {...register("name", { ...required(MESSAGES.name), onBlur: regenerateSlug })}
              />
            )}
          </Field>
          <Field label="Модель" required error={errors.model}>
            {(a) => (
              <input
                {...a}
                {...register("model", { ...required(MESSAGES.model), onBlur: regenerateSlug })}
              />
            )}
          </Field>
          <Field
            label="Slug (адрес страницы)"
            required
            error={errors.slug}
            hint={
              slugLocked
                ? "Адрес сохранённого автомобиля не меняется"
                : "Создаётся из названия и модели; латинские буквы, цифры и дефисы"
            }
          >
            {(a) => (
              <input
                {...a}
                {...register("slug", { validate: slugRule })}
                readOnly={slugLocked}
                autoCapitalize="none"
                spellcheck={false}
              />
            )}
          </Field>
          <Field label="Год" required error={errors.year} hint={`От ${MIN_YEAR} до ${yearHigh}`}>
            {(a) => (
              <input
                {...a}
                type="number"
                inputMode="numeric"
                min={MIN_YEAR}
                max={yearHigh}
                {...register("year", { validate: (x) => yearRule(x) })}
              />
            )}
          </Field>
          <Field label="Состояние" required error={errors.status}>
            {(a) => (
              <select {...a} {...register("status", required(MESSAGES.status))}>
                {(["new", "used", "lease"] as const).map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Цена, ₽" required error={errors.price}>
            {(a) => (
              <input
                {...a}
                inputMode="decimal"
                placeholder="2 500 000"
                {...register("price", {
                  validate: priceRule,
                  // A lower price may put a discount above it.
                  deps: DISCOUNTS.map(([name]) => name),
                })}
              />
            )}
          </Field>
          <Field label="Ежемесячный платёж, ₽" error={errors.monthlyPayment}>
            {(a) => (
              <input
                {...a}
                inputMode="decimal"
                {...register("monthlyPayment", { validate: optionalMoneyRule })}
              />
            )}
          </Field>
          {status === "lease" && (
            <Field label="Цена за сутки, ₽" error={errors.dailyPrice}>
              {(a) => (
                <input
                  {...a}
                  inputMode="decimal"
                  {...register("dailyPrice", { validate: optionalMoneyRule })}
                />
              )}
            </Field>
          )}
          {status === "used" && (
            <Field label="Пробег, км" error={errors.mileage}>
              {(a) => (
                <input
                  {...a}
                  inputMode="numeric"
                  {...register("mileage", { validate: mileageRule })}
                />
              )}
            </Field>
          )}
          <Field label="Тип кузова" required error={errors.bodyType}>
            {(a) => (
              <select {...a} {...register("bodyType", required(MESSAGES.bodyType))}>
                <option value="">Выберите</option>
                {bodyTypeChoices(bodyTypes, car).map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Коробка передач" required error={errors.transmission}>
            {(a) => (
              <select {...a} {...register("transmission", required(MESSAGES.transmission))}>
                <option value="">Выберите</option>
                {Object.entries(TRANSMISSION_LABELS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Привод" error={errors.drivetrain}>
            {(a) => (
              <select {...a} {...register("drivetrain")}>
                <option value="">Не указан</option>
                {Object.entries(DRIVETRAIN_LABELS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Топливо" required error={errors.fuelType}>
            {(a) => (
              <select {...a} {...register("fuelType", required(MESSAGES.fuelType))}>
                <option value="">Выберите</option>
                {Object.entries(FUEL_LABELS).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Двигатель" required error={errors.engine}>
            {(a) => (
              <input
                {...a}
                placeholder="2.0 л, 249 л.с."
                {...register("engine", required(MESSAGES.engine))}
              />
            )}
          </Field>
          <Field label="Поколение" error={errors.generation} hint="Например, III или рестайлинг">
            {(a) => (
              <input
                {...a}
                maxLength={GENERATION_MAX}
                {...register("generation", { validate: generationRule })}
              />
            )}
          </Field>
          <Field
            label="Комплектация"
            error={errors.trim}
            hint="Комплектация этого автомобиля, например Executive"
          >
            {(a) => (
              <input {...a} maxLength={TRIM_MAX} {...register("trim", { validate: trimRule })} />
            )}
          </Field>
          <Field label="Число дверей" error={errors.doors} hint={`От ${DOORS_MIN} до ${DOORS_MAX}`}>
            {(a) => (
              <input
                {...a}
                type="number"
                inputMode="numeric"
                min={DOORS_MIN}
                max={DOORS_MAX}
                step={1}
                {...register("doors", { validate: doorsRule })}
              />
            )}
          </Field>
          <Field label="Цвет" error={errors.color}>
            {(a) => <input {...a} {...register("color")} />}
          </Field>
          <Field label="VIN" error={errors.vin}>
            {(a) => <input {...a} autoCapitalize="characters" {...register("vin")} />}
          </Field>
        </div>
        <DiscountFields register={register} errors={errors} control={control} />
        <fieldset class="checks">
          <legend class="visually-hidden">Публикация и наличие</legend>
          <label>
            <input type="checkbox" {...register("published", { deps: ["price"] })} />
            Опубликован (иначе черновик)
          </label>
          <label>
            <input type="checkbox" {...register("inStock")} />В наличии
          </label>
          <label>
            <input type="checkbox" {...register("featured")} />
            Рекомендуемый
          </label>
        </fieldset>
        <Controller
          control={control}
          name="images"
          render={({ field }) => (
            <MultiImageUpload
              label="Фото"
              value={field.value}
              onChange={field.onChange}
              error={errors.images?.message ?? errors.images?.root?.message}
              onBusyChange={setUploading}
              hint="Первое фото главное; рекомендуется 4–6 фото, JPG или PNG до 5 МБ. Порядок меняется перетаскиванием или стрелками."
            />
          )}
        />
        <fieldset class="trims" data-testid="trims">
          <legend>Комплектации</legend>
          {trims.fields.map((t, i) => (
            <div key={t.id} class="trim-row form-grid" data-testid="trim">
              <Field
                label={`Комплектация ${i + 1}: название`}
                required
                error={errors.trimLevels?.[i]?.name}
              >
                {(a) => (
                  <input
                    {...a}
                    {...register(`trimLevels.${i}.name`, required(MESSAGES.trimName))}
                  />
                )}
              </Field>
              <Field label="Описание" error={errors.trimLevels?.[i]?.description}>
                {(a) => <input {...a} {...register(`trimLevels.${i}.description`)} />}
              </Field>
              <Field label="Ссылка" error={errors.trimLevels?.[i]?.link}>
                {(a) => (
                  <input {...a} type="url" inputMode="url" {...register(`trimLevels.${i}.link`)} />
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
          <button
            type="button"
            class="secondary outline"
            onClick={() => trims.append({ name: "", description: "", link: "" })}
          >
            Добавить комплектацию
          </button>
        </fieldset>
        <footer class="dialog-actions">
          <CancelButton />
          <button
            type="submit"
            aria-busy={save.isPending || undefined}
            disabled={save.isPending || uploading}
          >
            {uploading ? "Загрузка фото…" : "Сохранить"}
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
