/** The typed description of an admin resource (`Resource`) and what its
 * screen hands a card and the form's fields; `ResourceScreen` shows it. */
import type { ComponentType, ReactNode } from "react";
import type {
  DefaultValues,
  FieldValues,
  Mode,
  RegisterOptions,
  UseFormReturn,
} from "react-hook-form";
import type { Capability } from "../../api/types";
import type { Text, ViewSpec } from "./view";

/** What the form's fields get: react-hook-form's API, and `busy` for an
 * upload on its way (the save waits for it). */
export interface ResourceForm<V extends FieldValues> extends UseFormReturn<V> {
  busy: (uploading: boolean) => void;
}

export interface FieldsProps<T, V extends FieldValues> {
  form: ResourceForm<V>;
  /** The item edited; null for a new one. */
  item: T | null;
}

/** What a card gets besides its item. */
export interface CardContext<T> {
  /** The edit and delete buttons (with `extraActions` before them); null for
   * a role that may only read. */
  actions: ReactNode;
  canWrite: boolean;
  edit: (item: T) => void;
  remove: (item: T) => void;
}

/** One resource of the admin: where it lives, what it says, how a card and
 * the form look. */
export interface Resource<T extends object, V extends FieldValues = FieldValues> {
  /** The page's heading (and the browser tab's title). */
  title: string;
  /** GET of the list. */
  listUrl: string;
  /** The list out of the answer (when it is not the list itself). */
  items?: (answer: never) => T[];
  /** POST of a new one. */
  createUrl: string;
  /** PUT and DELETE of one. */
  itemUrl: (item: T) => string;
  /** What tells one item from another (its `id` by default). */
  key?: (item: T) => string;
  /** Read the list again when the window gets focus (yes by default; no
   * where cards hold forms of their own). */
  refetchOnFocus?: boolean;
  /** The capability a change needs (catalogueWrite by default). */
  writeCapability?: Capability;
  /** The screen's path: a self-check's link (?edit=<id>) opens that item. */
  editLink?: { path: string; missing: string };
  /** The object of a card's buttons' names: "марку Kia" gives "Изменить
   * марку Kia" and "Удалить марку Kia". */
  name: (item: T) => string;
  text: {
    /** The button beside the heading, e.g. "Добавить марку". */
    add: string;
    /** The button opens a dialog (said to screen readers). */
    addOpensDialog?: boolean;
    /** The button waits for the list (the form checks against it). */
    addWaitsForList?: boolean;
    /** The skeletons' text for screen readers ("Загрузка…" by default). */
    loading?: string;
    loadFailed: string;
    /** Nothing added yet. */
    empty: string;
    /** Nothing matches the search or the filter (`empty` when absent). */
    notFound?: string;
    deleteTitle: string;
    deleteMessage: (item: T) => string;
    deleted: Text<T>;
    deleteFailed: string;
    /** The failed delete's toast title ('Ошибка' by default). */
    deleteFailedTitle?: string;
    formTitle: Text<T | null>;
    /** The 'Успешно' toasts, made from the item the server answered. */
    created: Text<T>;
    updated: Text<T>;
    saveFailed: Text<T | null>;
    /** The failed save's toast title ('Ошибка' by default). */
    saveFailedTitle?: Text<T | null>;
  };
  /** How many skeleton cards stand in while the list loads (6). */
  skeletons?: number;
  view?: ViewSpec<T>;
  /** The list around the cards: a grid of `<article>`s by default. */
  list?: { as?: "ul" | "div"; class?: string; testId?: string };
  /** Brands' look: the buttons in a `<div>`, filled; a `<footer>` of outlined
   * buttons otherwise. */
  plainActions?: boolean;
  /** Why an item cannot be deleted (the button is then disabled and says so). */
  deleteRefused?: (item: T) => string | null;
  /** The add / edit form: a list of fields the block draws and saves, or a
   * dialog of the screen's own (`Dialog`). */
  form: FieldsForm<T, V> | DialogForm<T>;
}

/** A form the block draws from its fields, saves and shows refusals of. */
export interface FieldsForm<T, V extends FieldValues> {
  testId: string;
  /** In the list's place, titled with `formTitle`, instead of a dialog. */
  inline?: boolean;
  /** The form's fields, in order: the block draws them and derives from
   * them the starting values, the body sent and the names a server's
   * refusal may give (`fields.ts`). */
  fields: readonly FieldSpec<T>[];
  /** The starting values, when not derived from `fields`. */
  values?: (item: T | null) => DefaultValues<V>;
  /** The fields' rules by name (`reviewRules`), for those without `rules`. */
  rules?: RulesByName;
  /** What is sent, when not derived from `fields`. */
  body?: (values: V, item: T | null) => unknown;
  mode?: Mode;
  /** The submit button's text ("Сохранить" by default). */
  submit?: string;
}

/** A form of the screen's own, in its own dialog (the team's: the way a new
 * member gets in, the working hours): it saves and closes itself. */
export interface DialogForm<T> {
  Dialog: ComponentType<{ item: T | null; onClose: () => void }>;
  inline?: undefined;
}

/** What the form holds of a field: text, or yes / no for a switch. */
export type FormValue = string | boolean;

/** react-hook-form's rules of a field (its validate gets the value and the
 * whole form's values). */
export type Rules = RegisterOptions<FieldValues, string>;

/** Rules by field name, as `lib/rules.ts` keeps them (validate takes the
 * field's value and the form's values). */
export type RulesByName = Readonly<Record<string, object>>;

export type SendSpec = "raw" | "number" | "nullIfEmpty" | ((value: FormValue) => unknown);

export interface Common<T> {
  name: string;
  /** The value of a new item ("" or, for a switch, false by default). */
  initial?: FormValue;
  /** The item's value as the form holds it, when not `String(item[name])`. */
  value?: (item: T) => FormValue;
  /** What is sent: trimmed text (a switch as it is) by default; "raw" as
   * typed (a picture's address, a select's id), "number", "nullIfEmpty"
   * (trimmed, and null for ""), or a function of the value. */
  send?: SendSpec;
  /** Shown and sent only when an item is edited, not for a new one. */
  editOnly?: boolean;
}

/** A labelled input (text, number, date, slug), a textarea or a select. */
export interface InputSpec<T> extends Common<T> {
  kind?: "text" | "textarea" | "number" | "decimal" | "date" | "slug" | "select";
  label: string;
  /** Marked required; a text is also the message for a blank value. */
  required?: boolean | string;
  hint?: string;
  rules?: Rules;
  /** A textarea's rows. */
  rows?: number;
  maxLength?: number;
  /** A code typed in Latin letters: no capitals, no spelling check. */
  code?: boolean;
  autoComplete?: string;
  /** A slug's source: a new item's slug follows that field until typed by hand. */
  from?: string;
  /** A select's options (a hook: it may read a list), its first one empty. */
  options?: () => SelectOptions;
}

export interface SelectOptions {
  /** The first option, of value "" ("Выберите банк"). */
  empty: string;
  options: readonly { value: string; label: string }[];
  busy?: boolean;
}

/** A picture (ImageField). */
export interface ImageSpec<T> extends Common<T> {
  kind: "image";
  label: string;
  required?: boolean | string;
  hint?: string;
  rules?: Rules;
}

/** A yes / no switch, its text beside it. */
export interface SwitchSpec<T> extends Common<T> {
  kind: "switch";
  label: string;
}

/** Drawn by the screen's own component (a star rating, a preview); `name`
 * (when it has one) still gives its value, body and refusals. */
export interface CustomSpec<T> extends Omit<Common<T>, "name"> {
  kind: "custom";
  name?: string;
  Component: ComponentType<FieldsProps<T, FieldValues>>;
}

/** An ad's advertiser and token (erid) (`AdFieldset`). */
export interface AdSpec {
  kind: "ad";
  advertiserHint: string;
}

/** Fields side by side (`<div class="form-grid">`). */
export interface GridSpec<T> {
  kind: "grid";
  fields: readonly FieldSpec<T>[];
}

export type FieldSpec<T> =
  | InputSpec<T>
  | ImageSpec<T>
  | SwitchSpec<T>
  | CustomSpec<T>
  | AdSpec
  | GridSpec<T>;
