// Times on the site and in the admin panel are Moscow time whatever zone the
// browser is in: this file runs in other zones (the process's TZ) and checks
// the zone really is another one before it checks what is printed.
import { afterEach, describe, expect, it } from "vitest";
import { isSameDay, longDateTime, shortDateTime, TIME_ZONE_NOTE } from "../../src/admin/lib/dates";
import { formatDate, formatDateTime, TIME_ZONE } from "../../src/lib/format";

/** Intl puts (narrow) no-break spaces in places. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

/** Moves the process (Date and Intl without a zone) to `zone`. */
function inZone(zone: string) {
  process.env.TZ = zone;
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
}

const MOMENT = "2026-11-22T10:05:00Z"; // 13:05 in Moscow

describe("times in Moscow time, whatever the browser's zone", () => {
  it("is the server's zone, said once for the panel", () => {
    expect(TIME_ZONE).toBe("Europe/Moscow");
    expect(TIME_ZONE_NOTE).toBe("Время в панели и на сайте — московское (UTC+3)");
  });

  it("prints Moscow time in Vladivostok (UTC+10)", () => {
    inZone("Asia/Vladivostok");
    expect(new Date(MOMENT).getHours()).toBe(20);
    expect(plain(formatDateTime(MOMENT))).toBe("22 ноября 2026 г. в 13:05");
    expect(plain(longDateTime(MOMENT))).toBe("22 ноября 2026 г. в 13:05");
    expect(plain(shortDateTime(MOMENT))).toBe("22.11.2026, 13:05");
    // 22:30 UTC is already the next day in Vladivostok, not yet in Moscow.
    expect(plain(formatDate("2026-11-22T20:30:00Z"))).toBe("22 ноября 2026 г.");
    expect(isSameDay("2026-11-22T20:30:00Z", new Date(MOMENT))).toBe(true);
  });

  it("prints Moscow time in New York (UTC-5)", () => {
    inZone("America/New_York");
    expect(new Date(MOMENT).getHours()).toBe(5);
    expect(plain(formatDateTime(MOMENT))).toBe("22 ноября 2026 г. в 13:05");
    expect(plain(shortDateTime("2026-11-22T22:15:00Z"))).toBe("23.11.2026, 01:15");
    // A calendar day (a promotion's last day) stays that day, not the one before.
    expect(plain(formatDate("2026-12-31"))).toBe("31 декабря 2026 г.");
  });
});
