import { describe, expect, it } from "vitest";
import { ALL_CARS, carsCount, carsList } from "../../src/api/urls";
import { catalogueQuery } from "../../src/lib/catalogue";
import {
  changeFilters,
  DEFAULT_FILTERS,
  filtersToSearch,
  hasActiveFilters,
  parseFilters,
} from "../../src/lib/filters";
import { nearestOpenFirst, salonState, stateText } from "../../src/lib/salonHours";
import {
  legalHref,
  mapHref,
  type Salon,
  salonOf,
  salonParam,
  severalSalons,
} from "../../src/lib/salons";
import type { WorkSchedule } from "../../src/lib/slots";

const week = (open: string, close: string): WorkSchedule => ({
  days: Array.from({ length: 7 }, () => ({ open, close })),
});

function salon(id: number, schedule: WorkSchedule, extra: Partial<Salon> = {}): Salon {
  return {
    id,
    name: `Салон ${id}`,
    address: `Улица ${id}`,
    fullAddress: "",
    phone: `+7 900 000-00-0${id}`,
    phoneSecondary: "",
    phoneClass: "",
    email: "",
    workSchedule: schedule,
    workingHours: "",
    ...extra,
  };
}

/** A moment given in Moscow time ("2026-12-02T20:30", a Wednesday). */
const moscow = (local: string) => new Date(`${local}:00+03:00`);

describe("a salon's hours now (Moscow time)", () => {
  it("is open from its opening to its closing", () => {
    const s = week("09:00", "21:00");
    expect(salonState(s, moscow("2026-12-02T09:00"))).toMatchObject({ open: true, at: "21:00" });
    expect(salonState(s, moscow("2026-12-02T20:59"))).toMatchObject({ open: true, wait: 0 });
    expect(stateText(salonState(s, moscow("2026-12-02T12:00")))).toBe("открыт до 21:00");
  });

  it("reads the clock in Moscow whatever the visitor's zone", () => {
    // 06:30 UTC is 09:30 in Moscow.
    expect(salonState(week("09:00", "21:00"), new Date("2026-12-02T06:30:00Z")).open).toBe(true);
    // 18:30 UTC is 21:30 in Moscow: closed until tomorrow.
    const late = salonState(week("09:00", "21:00"), new Date("2026-12-02T18:30:00Z"));
    expect(late).toMatchObject({ open: false, at: "09:00", days: 1 });
  });

  it("says when a closed salon opens: today, tomorrow or on a weekday", () => {
    const s = week("10:00", "20:00");
    const early = salonState(s, moscow("2026-12-02T08:00"));
    expect(early).toMatchObject({ open: false, at: "10:00", wait: 120, days: 0 });
    expect(stateText(early)).toBe("откроется в 10:00");
    expect(stateText(salonState(s, moscow("2026-12-02T20:00")))).toBe("откроется завтра в 10:00");
    // Closed at the weekend: on Saturday evening it opens on Monday.
    const weekdays: WorkSchedule = {
      days: [...Array.from({ length: 5 }, () => ({ open: "09:00", close: "18:00" })), null, null],
    };
    const saturday = salonState(weekdays, moscow("2026-12-05T19:00"));
    expect(saturday).toMatchObject({ open: false, at: "09:00", days: 2, weekday: 0 });
    expect(stateText(saturday)).toBe("откроется в понедельник в 09:00");
  });

  it("opens a week later when today is its only day and it has closed", () => {
    const wednesdays: WorkSchedule = {
      days: [null, null, { open: "09:00", close: "12:00" }, null, null, null, null],
    };
    const state = salonState(wednesdays, moscow("2026-12-02T13:00"));
    expect(state).toMatchObject({ open: false, days: 7, weekday: 2 });
    expect(state.wait).toBe(7 * 24 * 60 - 4 * 60);
  });

  it("is closed for good without a day of work", () => {
    const state = salonState({ days: [null, null, null, null, null, null, null] }, new Date());
    expect(state).toMatchObject({ open: false, at: null, wait: Number.POSITIVE_INFINITY });
    expect(stateText(state)).toBe("закрыт");
    expect(salonState(undefined, new Date()).at).toBeNull();
  });
});

describe("the salons a general form offers, the nearest open first", () => {
  const main = salon(1, week("09:00", "21:00"));
  const late = salon(2, week("12:00", "23:00"));
  const early = salon(3, week("07:00", "19:00"));
  const never = salon(4, { days: [null, null, null, null, null, null, null] });
  const order = (now: Date) =>
    nearestOpenFirst([main, late, early, never], now).map(({ salon: s }) => s.id);

  it("puts those open now first, in their own order (the main first)", () => {
    expect(order(moscow("2026-12-02T13:00"))).toEqual([1, 2, 3, 4]);
    expect(order(moscow("2026-12-02T10:00"))).toEqual([1, 3, 2, 4]);
  });

  it("then the closed ones by how soon they open", () => {
    // 08:00: only the early one is open; the main opens in 1 h, the late in 4 h.
    expect(order(moscow("2026-12-02T08:00"))).toEqual([3, 1, 2, 4]);
    // 22:00: only the late one is open; tomorrow the early one opens first.
    expect(order(moscow("2026-12-02T22:00"))).toEqual([2, 3, 1, 4]);
    // 23:30: all closed; 07:00, 09:00, 12:00 tomorrow.
    expect(order(moscow("2026-12-02T23:30"))).toEqual([3, 1, 2, 4]);
  });

  it("gives each its state for the option's words", () => {
    const [first, second] = nearestOpenFirst([main, early], moscow("2026-12-02T08:00"));
    expect(stateText(first.state)).toBe("открыт до 19:00");
    expect(stateText(second.state)).toBe("откроется в 09:00");
  });
});

describe("several salons in the settings", () => {
  const salons = [salon(1, week("09:00", "21:00")), salon(2, week("09:00", "21:00"))];

  it("counts only when there are two or more", () => {
    expect(severalSalons(undefined)).toBeNull();
    expect(severalSalons([salons[0]])).toBeNull();
    expect(severalSalons(salons)).toBe(salons);
  });

  it("finds a car's salon, the main for a car without one", () => {
    expect(salonOf(salons, undefined)?.id).toBe(1);
    expect(salonOf(salons, null)?.id).toBe(1);
    expect(salonOf(salons, 2)?.id).toBe(2);
    expect(salonOf(salons, 9)).toBeNull();
    expect(salonOf(undefined, 2)).toBeNull();
    expect(salonOf([salons[0]], 1)).toBeNull();
  });

  it("links the map only with both coordinates", () => {
    expect(mapHref({ latitude: 59.93, longitude: 30.31 })).toBe(
      "https://yandex.ru/maps/?pt=30.31,59.93&z=16&l=map",
    );
    expect(mapHref({ latitude: null, longitude: 30.31 })).toBeNull();
    expect(mapHref({})).toBeNull();
  });

  it("links another salon's legal texts by its id", () => {
    expect(legalHref("consent", undefined)).toBe("/consent");
    expect(legalHref("consent", 1)).toBe("/consent");
    expect(legalHref("consent", 3)).toBe("/consent?salon=3");
    expect(legalHref("privacy", 3)).toBe("/privacy?salon=3");
  });
});

describe("the catalogue's «Салон» filter", () => {
  const salons = [salon(1, week("09:00", "21:00")), salon(2, week("09:00", "21:00"))];

  it("reads a whole number from 1 and nothing else", () => {
    expect(salonParam("2")).toBe(2);
    expect(salonParam("1")).toBe(1);
    expect(salonParam("02")).toBe(2);
    for (const junk of [null, "", "0", "-2", "2.5", "2e3", "a", "1000000000"]) {
      expect(salonParam(junk)).toBeNull();
    }
    expect(parseFilters("salon=2&salon=3").salon).toBe(2);
    expect(parseFilters("salon=x")).toEqual(DEFAULT_FILTERS);
  });

  it("is kept in the page URL, and a change goes back to page 1", () => {
    const filters = parseFilters("brand=haval&salon=2&page=3");
    expect(filters.salon).toBe(2);
    expect(hasActiveFilters(filters)).toBe(true);
    expect(filtersToSearch(filters)).toBe("brand=haval&salon=2&page=3");
    expect(filtersToSearch(changeFilters(filters, { salon: null }))).toBe("brand=haval");
    expect(filtersToSearch(changeFilters(filters, { salon: 1 }))).toBe("brand=haval&salon=1");
  });

  it("filters the API's list and count after the price, when the site has that salon", () => {
    const filters = parseFilters("price=3000000&salon=2");
    const query = catalogueQuery({ kind: "new" }, filters, [], [], salons);
    expect(query.salon).toBe(2);
    expect(carsList(query, 20)).toBe(
      "/api/cars/fast?status=new&maxPrice=3000000&salon=2&limit=20&offset=20",
    );
    expect(carsCount(query)).toBe("/api/cars/count?status=new&maxPrice=3000000&salon=2");
    // The main salon is a salon too.
    expect(catalogueQuery({ kind: "used" }, parseFilters("salon=1"), [], [], salons).salon).toBe(1);
  });

  it("filters nothing on a site without that salon or with one salon", () => {
    const filters = parseFilters("salon=7");
    expect(catalogueQuery({ kind: "new" }, filters, [], [], salons).salon).toBeNull();
    const single = catalogueQuery({ kind: "new" }, parseFilters("salon=1"), [], [], [salons[0]]);
    expect(single).toEqual({ ...ALL_CARS, status: ["new"] });
    expect(carsList(single, 0)).toBe("/api/cars/fast?status=new&limit=20&offset=0");
  });
});
