import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Car } from "../../src/api/types";
import { compareRows, lowestPriceText } from "../../src/lib/compare";
import { formatMileage, formatPrice } from "../../src/lib/format";
import {
  COMPARE_MAX,
  comparePath,
  compareSlugs,
  parseList,
  readList,
  refreshed,
  removeSaved,
  type SavedCar,
  snapshot,
  subscribe,
  toggled,
  toggleSaved,
  writeList,
} from "../../src/lib/saved";

class MemoryStorage {
  items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
}

function car(slug: string, over: Partial<Car> = {}): Car {
  return {
    id: `id-${slug}`,
    slug,
    brandId: "b",
    brandName: "Haval",
    brandSlug: "haval",
    name: "Jolion",
    model: "Jolion",
    year: 2024,
    price: "2500000.00",
    status: "new",
    bodyType: "crossover",
    transmission: "automatic",
    drivetrain: "front",
    fuelType: "gasoline",
    trim: null,
    generation: null,
    doors: null,
    engine: "1.5 л",
    mileage: 0,
    mainImage: "/media/a-800.webp",
    images: ["/media/a-800.webp"],
    hasImages: true,
    inStock: true,
    featured: false,
    published: true,
    trimLevels: [],
    createdAt: "",
    updatedAt: "",
    ...over,
  } as Car;
}

const entry = (slug: string): SavedCar => snapshot(car(slug));

describe("a saved list", () => {
  it("keeps a snapshot of the car: title, price, image, status", () => {
    expect(snapshot(car("a", { name: "Haval Jolion" }))).toEqual({
      slug: "a",
      title: "Haval Jolion",
      price: "2500000.00",
      image: "/media/a-800.webp",
      status: "new",
    });
    expect(snapshot(car("b", { mainImage: "", images: [] })).title).toBe("Haval Jolion");
  });

  it("reads only well-formed entries, without repeats, within its limit", () => {
    expect(parseList(null)).toEqual([]);
    expect(parseList("not json")).toEqual([]);
    expect(parseList('{"slug":"a"}')).toEqual([]);
    const text = JSON.stringify([
      { slug: "a", title: "A", price: "1.00", image: "", status: "used" },
      { slug: "a", title: "again" },
      { title: "no slug" },
      7,
      { slug: "b", status: "bogus" },
      { slug: "c" },
    ]);
    const list = parseList(text, 2);
    expect(list.map((e) => e.slug)).toEqual(["a", "b"]);
    expect(list[0].status).toBe("used");
    expect(list[1]).toEqual({ slug: "b", title: "b", price: "", image: "", status: "new" });
  });

  it("adds at the front, removes when there, refuses when full", () => {
    const one = toggled([], entry("a"), 2);
    expect(one?.map((e) => e.slug)).toEqual(["a"]);
    const two = toggled(one ?? [], entry("b"), 2);
    expect(two?.map((e) => e.slug)).toEqual(["b", "a"]);
    expect(toggled(two ?? [], entry("c"), 2)).toBeNull();
    expect(toggled(two ?? [], entry("a"), 2)?.map((e) => e.slug)).toEqual(["b"]);
  });

  it("refreshes snapshots of the cars still on sale and keeps the others", () => {
    const list = [entry("a"), entry("gone")];
    const fresh = refreshed(list, [car("a", { price: "2300000.00" })]);
    expect(fresh[0].price).toBe("2300000.00");
    expect(fresh[1]).toBe(list[1]);
  });
});

describe("the compare URL", () => {
  it("is the state: slugs trimmed, no repeats, at most four", () => {
    expect(compareSlugs("")).toEqual([]);
    expect(compareSlugs("?cars=a,%20b,,a,c")).toEqual(["a", "b", "c"]);
    expect(compareSlugs("?cars=a,b,c,d,e")).toHaveLength(COMPARE_MAX);
    expect(comparePath(["a", "b"])).toBe("/compare?cars=a,b");
    expect(comparePath([])).toBe("/compare");
    expect(compareSlugs(comparePath(["haval-jolion", "lada-vesta"]).split("?")[1])).toEqual([
      "haval-jolion",
      "lada-vesta",
    ]);
  });
});

describe("the browser store", () => {
  let storage: MemoryStorage;
  let win: EventTarget;
  beforeEach(() => {
    storage = new MemoryStorage();
    win = new EventTarget();
    vi.stubGlobal("localStorage", storage);
    vi.stubGlobal("window", win);
    writeList("favorites", []);
    writeList("compare", []);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("keeps favourites in localStorage and tells its listeners", () => {
    const heard = vi.fn();
    const stop = subscribe(heard);
    expect(toggleSaved("favorites", entry("a"))).toBe(true);
    expect(JSON.parse(storage.getItem("dealership.favorites") ?? "[]")).toEqual([entry("a")]);
    expect(heard).toHaveBeenCalledTimes(1);
    removeSaved("favorites", "a");
    expect(readList("favorites")).toEqual([]);
    stop();
  });

  it("refuses a fifth car to compare", () => {
    for (const s of ["a", "b", "c", "d"]) expect(toggleSaved("compare", entry(s))).toBe(true);
    expect(toggleSaved("compare", entry("e"))).toBe(false);
    expect(readList("compare")).toHaveLength(4);
    // Taking one out makes room.
    expect(toggleSaved("compare", entry("a"))).toBe(true);
    expect(toggleSaved("compare", entry("e"))).toBe(true);
  });

  it("follows another tab's change (the storage event)", () => {
    const heard = vi.fn();
    const stop = subscribe(heard);
    readList("favorites");
    storage.setItem("dealership.favorites", JSON.stringify([entry("x")]));
    win.dispatchEvent(Object.assign(new Event("storage"), { key: "dealership.favorites" }));
    expect(heard).toHaveBeenCalled();
    expect(readList("favorites").map((e) => e.slug)).toEqual(["x"]);
    // Another key is not ours.
    heard.mockClear();
    win.dispatchEvent(Object.assign(new Event("storage"), { key: "other" }));
    expect(heard).not.toHaveBeenCalled();
    stop();
  });

  it("keeps no personal data: only the car's public snapshot", () => {
    toggleSaved("favorites", entry("a"));
    const stored = JSON.parse(storage.getItem("dealership.favorites") ?? "[]");
    expect(Object.keys(stored[0]).sort()).toEqual(["image", "price", "slug", "status", "title"]);
  });
});

describe("compare rows", () => {
  const a = car("a", { year: 2023, creditDiscount: "100000.00", tradeinDiscount: "150000.00" });
  const b = car("b", { year: 2024, color: "Белый" });
  const c = car("c", { year: 2024, status: "used", mileage: 45000 });

  it("marks the rows whose values differ", () => {
    const rows = compareRows([a, b, c]);
    const by = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(by["Год выпуска"].values).toEqual(["2023", "2024", "2024"]);
    expect(by["Год выпуска"].differs).toBe(true);
    expect(by.Марка.differs).toBe(false);
    expect(by.Состояние.differs).toBe(true);
    expect(by.Пробег.values).toEqual(["—", "—", formatMileage(45000)]);
    expect(by.Цена.differs).toBe(false);
    expect(by["Цена со всеми скидками"].values[0]).toBe(formatPrice("2250000"));
    expect(by.Цвет.values).toEqual(["—", "Белый", "—"]);
  });

  it("leaves out rows no car has, and a gone car does not make a row differ", () => {
    const rows = compareRows([b, null, car("d")]);
    expect(rows.map((r) => r.label)).not.toContain("Платёж в месяц");
    expect(rows.find((r) => r.label === "Цвет")?.values).toEqual(["Белый", null, "—"]);
    expect(rows.find((r) => r.label === "Марка")?.differs).toBe(false);
    // One car on sale: nothing to differ from.
    expect(compareRows([a, null]).some((r) => r.differs)).toBe(false);
  });

  it("shows a drive that is not stated as a dash, and the car's own specs", () => {
    const rows = compareRows([
      car("x", { drivetrain: null, trim: "Executive", doors: 5 }),
      car("y", { bodyType: "minivan" }),
    ]);
    const by = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(by.Привод.values).toEqual(["—", "Передний"]);
    expect(by.Комплектация.values).toEqual(["Executive", "—"]);
    expect(by.Двери.values).toEqual(["5", "—"]);
    // No car has a generation: no row.
    expect(by.Поколение).toBeUndefined();
    // A type of the dealership's own: the table's name, its code while there is none.
    expect(by.Кузов.values).toEqual(["Кроссовер", "minivan"]);
    const named = compareRows([car("y", { bodyType: "minivan" })], (code) =>
      code === "minivan" ? "Минивэн" : undefined,
    );
    expect(named.find((r) => r.label === "Кузов")?.values).toEqual(["Минивэн"]);
  });

  it("caps the discounts at the maximum total discount", () => {
    expect(lowestPriceText(car("x"))).toBeNull();
    expect(lowestPriceText(a)).toBe("2250000.00");
    expect(lowestPriceText({ ...a, maxDiscount: "200000.00" })).toBe("2300000.00");
    expect(lowestPriceText({ ...a, insuranceDiscount: "50000.50" })).toBe("2199999.50");
  });
});
