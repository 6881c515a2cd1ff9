import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyServerError } from "../../src/admin/components/applyServerError";
import { REVIEW_VIEW } from "../../src/admin/lib/reviews";
import {
  initialView,
  isNarrowed,
  shownItems,
  textOf,
  type ViewSpec,
} from "../../src/admin/resource/view";
import { connectToasts } from "../../src/admin/toast";
import { ApiError } from "../../src/api/client";
import type { ToastMessage } from "../../src/components/ui/Toast";

interface Thing {
  id: string;
  name: string;
  note: string | null;
  kind: "car" | "bike";
  price: number;
}

const THINGS: Thing[] = [
  { id: "1", name: "Лада Веста", note: "Отечественная", kind: "car", price: 2 },
  { id: "2", name: "BMW X5", note: null, kind: "car", price: 9 },
  { id: "3", name: "Урал", note: "С коляской", kind: "bike", price: 1 },
];

const SPEC: ViewSpec<Thing> = {
  search: { text: (t) => [t.name, t.note], placeholder: "Поиск", ariaLabel: "Поиск" },
  filter: {
    id: "kind",
    label: "Вид",
    options: [
      { value: "all", label: "Все" },
      { value: "car", label: "Автомобили" },
      { value: "bike", label: "Мотоциклы" },
    ],
    test: (t, kind) => t.kind === kind,
  },
  order: (a, b) => a.price - b.price,
};

const names = (list: Thing[]) => list.map((t) => t.name);

describe("a resource list's view", () => {
  it("starts with no query and the filter's first option, not narrowed", () => {
    const view = initialView(SPEC);
    expect(view).toEqual({ query: "", filter: "all" });
    expect(isNarrowed(SPEC, view)).toBe(false);
    expect(initialView({})).toEqual({ query: "", filter: "" });
  });

  it("shows everything in the order when nothing narrows it", () => {
    expect(names(shownItems(THINGS, SPEC, initialView(SPEC)))).toEqual([
      "Урал",
      "Лада Веста",
      "BMW X5",
    ]);
    // Without an order, the server's; the list given is never reordered.
    expect(names(shownItems(THINGS, {}, initialView({})))).toEqual(names(THINGS));
    shownItems(THINGS, SPEC, initialView(SPEC));
    expect(THINGS[0]?.name).toBe("Лада Веста");
  });

  it("finds every word of the query in any of the texts, in any case", () => {
    const view = (query: string) => ({ query, filter: "all" });
    expect(names(shownItems(THINGS, SPEC, view("ОТЕЧ")))).toEqual(["Лада Веста"]);
    expect(names(shownItems(THINGS, SPEC, view("веста отечественная")))).toEqual(["Лада Веста"]);
    expect(names(shownItems(THINGS, SPEC, view("bmw коляской")))).toEqual([]);
    expect(names(shownItems(THINGS, SPEC, view("   ")))).toHaveLength(3);
    expect(isNarrowed(SPEC, view(" x "))).toBe(true);
    expect(isNarrowed(SPEC, view("   "))).toBe(false);
  });

  it("filters by the chosen option, with the query", () => {
    expect(names(shownItems(THINGS, SPEC, { query: "", filter: "car" }))).toEqual([
      "Лада Веста",
      "BMW X5",
    ]);
    expect(names(shownItems(THINGS, SPEC, { query: "лада", filter: "bike" }))).toEqual([]);
    expect(isNarrowed(SPEC, { query: "", filter: "bike" })).toBe(true);
  });

  it("ignores a query when the resource has no search box", () => {
    const spec: ViewSpec<Thing> = { filter: SPEC.filter };
    expect(shownItems(THINGS, spec, { query: "урал", filter: "all" })).toHaveLength(3);
    expect(isNarrowed(spec, { query: "урал", filter: "all" })).toBe(false);
  });

  it("searches reviews and filters them by status through the block's view", () => {
    const reviews = [
      { customerName: "Анна", text: "Отлично", carModel: null, approved: true },
      { customerName: "Пётр", text: "Хорошо", carModel: "Camry", approved: false },
    ];
    const view = (query: string, filter: string) => ({ query, filter });
    expect(shownItems(reviews, REVIEW_VIEW, view("camry", "all"))).toHaveLength(1);
    expect(shownItems(reviews, REVIEW_VIEW, view("", "approved"))).toEqual([reviews[0]]);
    expect(shownItems(reviews, REVIEW_VIEW, view("", "pending"))).toEqual([reviews[1]]);
  });

  it("makes a text from the item or takes it as it is", () => {
    const title = (t: Thing | null) => (t ? `Изменить: ${t.name}` : "Добавить");
    expect(textOf(title, null)).toBe("Добавить");
    expect(textOf(title, THINGS[2] ?? null)).toBe("Изменить: Урал");
    expect(textOf("Готово", THINGS[0])).toBe("Готово");
  });
});

describe("a resource form's refusals", () => {
  const toasts: ToastMessage[] = [];
  beforeEach(() => connectToasts((t) => toasts.push(t)));
  afterEach(() => {
    connectToasts(null);
    toasts.length = 0;
  });

  it("puts a refusal naming a field of the form under it; any other is a toast with the resource's title", () => {
    const setError = vi.fn();
    const options = {
      fallback: "Не удалось сохранить банк",
      title: "Ошибка при добавлении банка",
      fields: ["name", "logo"],
    };
    expect(
      applyServerError(setError, new ApiError(422, "Загрузите логотип", "logo", "/x"), options),
    ).toBe(true);
    expect(setError).toHaveBeenCalledWith(
      "logo",
      { type: "server", message: "Загрузите логотип" },
      { shouldFocus: true },
    );
    expect(applyServerError(setError, new ApiError(500, "", null, "/x"), options)).toBe(false);
    expect(toasts).toEqual([
      {
        title: "Ошибка при добавлении банка",
        description: "Не удалось сохранить банк",
        variant: "error",
      },
    ]);
  });
});
