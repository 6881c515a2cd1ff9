/** The typed description of an admin resource (`Resource`) and what its
 * screen hands a card and the form's fields; `ResourceScreen` shows it. */
import type { ComponentType, ReactNode } from "react";
import type { DefaultValues, FieldValues, Mode, UseFormReturn } from "react-hook-form";
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
export interface Resource<T extends object, V extends FieldValues> {
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
  form: {
    testId: string;
    /** In the list's place, titled with `formTitle`, instead of a dialog. */
    inline?: boolean;
    values: (item: T | null) => DefaultValues<V>;
    /** The fields a server's refusal may name (shown under that field). */
    fields: readonly string[];
    /** What is sent. */
    body: (values: V, item: T | null) => unknown;
    mode?: Mode;
    /** The submit button's text ("Сохранить" by default). */
    submit?: string;
    Fields: ComponentType<FieldsProps<T, V>>;
  };
}
