/** The parser screen's dialog to add a feed or change one: its name, where
 * it comes from (an address or a file; not changed once made), the
 * schedule (an address only) and what its cars are when a record does not
 * say. The server's refusals are shown at their fields. */
import { useForm } from "react-hook-form";
import { apiPost, apiPut } from "../../api/client";
import { applyServerError } from "../components/applyServerError";
import { Field } from "../components/Field";
import { CancelButton, FormDialog } from "../components/FormDialog";
import { useSalons } from "../components/useSalons";
import { serverField } from "../errors";
import { CUSTOM_INTERVAL, IMPORTS_URL, parseInterval } from "../lib/parser";
import {
  CONDITION_LABELS,
  CONDITIONS,
  checkFeedForm,
  FEED_KINDS,
  FEEDS_URL,
  type FeedFormValues,
  feedFormValues,
  feedPayload,
  feedSalonValue,
  feedUrl,
} from "../lib/parser-feeds";
import type { Feed, FeedInput } from "../lib/parser-types";
import { useAdminMutation } from "../query";
import { IntervalFields } from "./parser-schedule";

export function FeedDialog({ feed, onClose }: { feed: Feed | null; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    watch,
    formState: { errors, isDirty },
  } = useForm<FeedFormValues>({
    defaultValues: { ...feedFormValues(feed), salon: feedSalonValue(feed) },
  });
  const salons = useSalons();
  const kind = feed?.kind ?? watch("kind");
  const save = useAdminMutation(
    (body: FeedInput) =>
      feed
        ? apiPut<Feed>(feedUrl(feed.id), body, { invalidate: [FEEDS_URL, IMPORTS_URL] })
        : apiPost<Feed>(FEEDS_URL, body, { invalidate: [FEEDS_URL] }),
    {
      success: feed ? "Фид сохранён" : "Фид добавлен",
      onSuccess: () => onClose(),
      onFailure: (e) => {
        // The interval is two controls: the message goes to the one in use.
        if (serverField(e, ["intervalHours"])) {
          const at = getValues("interval") === CUSTOM_INTERVAL ? "custom" : "interval";
          setError(at, { type: "server", message: (e as Error).message }, { shouldFocus: true });
          return;
        }
        applyServerError(setError, e, {
          fallback: feed ? "Не удалось сохранить фид" : "Не удалось добавить фид",
          fields: ["name", "kind", "url", "condition"],
        });
      },
    },
  );
  const submit = handleSubmit((values) => {
    // A disabled control is left out of the values: a feed's kind is its own.
    const v = { ...values, kind: feed?.kind ?? values.kind };
    const problem = checkFeedForm(v);
    if (problem) {
      setError(problem.field, { type: "manual", message: problem.message }, { shouldFocus: true });
      return;
    }
    const interval = v.kind === "url" ? parseInterval(v.interval, v.custom) : 0;
    if (typeof interval !== "number") {
      setError("custom", { type: "manual", message: interval.error }, { shouldFocus: true });
      return;
    }
    // The salon only when there are several to choose from.
    save.mutate(feedPayload(salons.several ? v : { ...v, salon: undefined }, interval));
  });

  return (
    <FormDialog
      open
      title={feed ? `Фид «${feed.name}»` : "Новый фид"}
      dirty={isDirty}
      onClose={onClose}
      testId="feed-dialog"
    >
      <form noValidate onSubmit={submit}>
        <Field
          label="Название"
          required
          error={errors.name}
          hint="Как вы узнаете фид в списке, например «Новые Hyundai» или «С пробегом, Avito»"
        >
          {(a) => <input {...a} autoComplete="off" maxLength={100} {...register("name")} />}
        </Field>
        <fieldset class="parser-modes" aria-describedby={feed ? "feed-kind-fixed" : undefined}>
          <legend>Откуда берётся фид</legend>
          {FEED_KINDS.map((k) => (
            <label key={k.value}>
              <input type="radio" value={k.value} disabled={!!feed} {...register("kind")} />
              {k.label}
            </label>
          ))}
          {feed && (
            <small id="feed-kind-fixed" class="muted">
              Источник фида после создания не меняется
            </small>
          )}
        </fieldset>
        {kind === "url" ? (
          <>
            <Field
              label="Адрес фида"
              required
              error={errors.url}
              hint="Ссылка на XML Авто.ру, XML Avito или CSV, например https://dealer.example/stock.xml"
            >
              {(a) => (
                <input
                  {...a}
                  type="url"
                  inputMode="url"
                  spellcheck={false}
                  placeholder="https://"
                  {...register("url")}
                />
              )}
            </Field>
            <IntervalFields register={register} choice={watch("interval")} errors={errors} />
          </>
        ) : (
          <p class="muted">
            Файл загружается вручную кнопкой «Загрузить файл» у фида. Расписание — только для фида
            по адресу.
          </p>
        )}
        <Field
          label="Состояние машин"
          error={errors.condition}
          hint="Что делать, если в записи фида не сказано, новая машина или с пробегом"
        >
          {(a) => (
            <select {...a} {...register("condition")} data-testid="feed-condition">
              {CONDITIONS.map((c) => (
                <option key={c} value={c}>
                  {CONDITION_LABELS[c]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {salons.several && salons.list && (
          <Field
            label="Салон"
            error={errors.salon}
            hint="Где стоят новые машины этого фида; машины, которые уже есть на сайте, остаются в своих салонах"
          >
            {(a) => (
              <select {...a} {...register("salon")} data-testid="feed-salon">
                {(salons.list ?? []).map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <footer class="dialog-actions">
          <CancelButton />
          <button type="submit" aria-busy={save.isPending || undefined} disabled={save.isPending}>
            {feed ? "Сохранить" : "Добавить"}
          </button>
        </footer>
      </form>
    </FormDialog>
  );
}
