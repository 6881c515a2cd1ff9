/** The car form in its dialog: every field, photos, discounts and trims,
 * saved with the server's refusals under their fields (cars-dialog.tsx
 * loads what it needs first). */
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import type { BodyTypeInfo, Brand, Car } from "../../api/types";
import {
  DRIVETRAIN_LABELS,
  FUEL_LABELS,
  STATUS_LABELS,
  TRANSMISSION_LABELS,
} from "../../lib/labels";
import { carUrl } from "../api";
import {
  CAR_FIELDS,
  type CarValues,
  carInput,
  carSlug,
  carValues,
  DOORS_MAX,
  DOORS_MIN,
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
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { MultiImageUpload } from "../components/MultiImageUpload";
import { useAdminMutation } from "../query";
import { LeftOutNotice, MarketFields } from "./cars-form-market";
import {
  bodyTypeChoices,
  DISCOUNTS,
  DiscountFields,
  required,
  TrimFields,
} from "./cars-form-parts";
import { CarMarketplaces } from "./cars-marketplaces";
import { CarSalonMove, NewCarSalon } from "./cars-salon";

interface FormProps {
  title: string;
  car: Car | null;
  brands: Brand[];
  bodyTypes: BodyTypeInfo[];
  onClose: () => void;
}

/** A lease's own amounts, typed (a new or used car's monthly figure comes
 * from the credit programmes, docs/pricing.md). */
const LEASE_MONEY = [
  { name: "monthlyPayment", label: "Ежемесячный платёж, ₽" },
  { name: "dailyPrice", label: "Цена за сутки, ₽" },
] as const;

export function CarForm({ title, car, brands, bodyTypes, onClose }: FormProps) {
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
  const [uploading, setUploading] = useState(false);
  // A new car's salon ("" the main); a saved car is moved apart (cars-salon.tsx).
  const [salonId, setSalonId] = useState("");
  const status = watch("status");
  // A saved slug is the car's address: it is never regenerated.
  const slugLocked = Boolean(car?.slug);

  const save = useAdminMutation(
    (v: CarValues) => {
      const body = carInput(v);
      if (!car && salonId) body.salonId = Number(salonId);
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

  const yearHigh = maxYear();

  return (
    <FormDialog open title={title} dirty={isDirty} onClose={onClose} testId="car-dialog">
      <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))} data-testid="car-form">
        {car && <LeftOutNotice id={car.id} />}
        {car ? <CarSalonMove car={car} /> : <NewCarSalon value={salonId} onChange={setSalonId} />}
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
          {/* A new or used car's «от … ₽/мес» comes from the credit
              programmes (docs/pricing.md): only a lease's payment is typed. */}
          {status === "lease" &&
            LEASE_MONEY.map(({ name, label }) => (
              <Field key={name} label={label} error={errors[name]}>
                {(a) => (
                  <input
                    {...a}
                    inputMode="decimal"
                    {...register(name, { validate: optionalMoneyRule })}
                  />
                )}
              </Field>
            ))}
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
          <MarketFields register={register} errors={errors} status={status} />
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
        <TrimFields register={register} errors={errors} control={control} />
        {car && <CarMarketplaces carId={car.id} />}
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
