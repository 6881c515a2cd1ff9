import { describe, expect, it } from "vitest";
import {
  carLine,
  LEAD_STATUS_BADGES,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LEAD_TYPE_LABELS,
  LEAD_TYPES,
  type Lead,
  leadAuditUrl,
  leadDetails,
  leadsUrl,
  safeHref,
  statusHistory,
  testDriveLine,
} from "../../src/admin/lib/leads";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

const base: Lead = {
  id: "l1",
  type: "auto_credit",
  status: "new",
  name: "Иван",
  phone: "+79211234567",
  consentVersion: 2,
  consentAt: "2026-11-22T10:05:00Z",
  consentIp: "10.0.0.1",
  advertisingConsent: false,
  createdAt: "2026-11-22T10:05:00Z",
  updatedAt: "2026-11-22T10:05:00Z",
};

describe("lead labels", () => {
  it("labels every status and type in Russian", () => {
    expect(LEAD_STATUSES.map((s) => LEAD_STATUS_LABELS[s])).toEqual([
      "Новый",
      "В работе",
      "Завершён",
      "Отменён",
    ]);
    // The five of the spec, the test drive and a marketplace's call.
    expect(LEAD_TYPES).toHaveLength(10);
    expect(LEAD_TYPE_LABELS.marketplace_call).toBe("Звонок с площадки");
    expect(LEAD_TYPE_LABELS.contact_form).toBe("Рассрочка");
    expect(LEAD_TYPE_LABELS.test_drive).toBe("Тест-драйв");
    expect(new Set(Object.values(LEAD_STATUS_BADGES)).size).toBe(4);
  });

  it("builds the list URL from the filters", () => {
    expect(leadsUrl("all", "all")).toBe("/api/leads");
    expect(leadsUrl("new", "all")).toBe("/api/leads?status=new");
    expect(leadsUrl("in_progress", "trade_in")).toBe("/api/leads?status=in_progress&type=trade_in");
    expect(leadsUrl("all", "contact_form")).toBe("/api/leads?type=contact_form");
    expect(leadAuditUrl("a b")).toBe("/api/admin/audit?limit=50&objectType=lead&objectId=a+b");
  });

  it("prints the car of a lead with its status label", () => {
    expect(carLine({ carInfo: "BMW X5", carStatus: "used", carPrice: "2 500 000 ₽" })).toBe(
      "BMW X5 · С пробегом · 2 500 000 ₽",
    );
    expect(carLine({ carInfo: null, carStatus: null, carPrice: null })).toBe("");
  });
});

describe("a lead's details", () => {
  it("puts the day and time first for a test drive", () => {
    const lead = {
      ...base,
      type: "test_drive",
      preferredDate: "2026-11-24",
      preferredTime: "10:30",
    };
    const d = leadDetails(lead as Lead);
    expect(d[0].key).toBe("testDrive");
    expect(d[0].title).toBe("Тест-драйв");
    expect(d[0].rows.map((r) => [r.label, r.value])).toEqual([
      ["Дата", "вторник, 24 ноября"],
      ["Время", "10:30"],
    ]);
    expect(testDriveLine(lead as Lead)).toBe("Тест-драйв: вторник, 24 ноября, 10:30");
    expect(testDriveLine(base)).toBeNull();
    // Other requests have no such block.
    expect(leadDetails(base).map((s) => s.key)).not.toContain("testDrive");
  });

  it("puts the credit block first for a credit request", () => {
    const d = leadDetails({
      ...base,
      desiredAmount: "1500000.00",
      monthlyIncome: "90000.00",
      carBrand: "Lada",
    });
    expect(d.map((s) => s.key)).toEqual(["credit", "tradeIn", "consent"]);
    expect(d[0].rows.map((r) => [r.label, plain(r.value)])).toEqual([
      ["Желаемая сумма", "1 500 000 ₽"],
      ["Ежемесячный доход", "90 000 ₽"],
    ]);
  });

  it("shows the visitor's car of a trade-in", () => {
    const d = leadDetails({
      ...base,
      type: "trade_in",
      carBrand: "Kia",
      carModel: "Rio",
      carYear: 2015,
      carMileage: 120000,
      carCondition: "хорошее",
    });
    expect(d[0].key).toBe("tradeIn");
    expect(d[0].rows.map((r) => plain(r.value))).toEqual([
      "Kia",
      "Rio",
      "2015",
      "120 000 км",
      "хорошее",
    ]);
  });

  it("shows a test drive's day and time, and the calculator's term and down payment", () => {
    const d = leadDetails({
      ...base,
      type: "test_drive",
      preferredDate: "2026-11-28",
      preferredTime: "14:30",
    });
    expect(d[0].key).toBe("testDrive");
    expect(d[0].rows.map((r) => [r.label, plain(r.value)])).toEqual([
      ["Дата", "суббота, 28 ноября"],
      ["Время", "14:30"],
    ]);
    const credit = leadDetails({ ...base, termMonths: 60, downPayment: "500000.00" });
    expect(credit[0].rows.map((r) => [r.label, plain(r.value)])).toEqual([
      ["Срок", "60 мес."],
      ["Первоначальный взнос", "500 000 ₽"],
    ]);
  });

  it("turns the selection's codes into labels", () => {
    const d = leadDetails({
      ...base,
      type: "auto_selection",
      budget: "2000000.00",
      bodyType: "sedan,crossover",
      transmission: "automatic",
      fuelTypes: "gasoline,hybrid",
    });
    const sel = d.find((s) => s.key === "selection");
    expect(sel?.rows.map((r) => plain(r.value))).toEqual([
      "2 000 000 ₽",
      "Седан, Кроссовер",
      "Автомат",
      "Бензин, Гибрид",
    ]);
  });

  it("names the selection's body types by the dealership's table", () => {
    const lead = {
      ...base,
      type: "auto_selection" as const,
      bodyType: "minivan,coupe,van",
    };
    const row = (types?: Parameters<typeof leadDetails>[1]) =>
      leadDetails(lead, types)
        .find((s) => s.key === "selection")
        ?.rows.find((r) => r.label === "Кузов")?.value;
    const info = (bodyType: string, labelSingle: string) => ({
      id: bodyType,
      bodyType,
      labelPlural: `${labelSingle}ы`,
      labelSingle,
      imageUrl: "",
      imageUrlMobile: "",
      carCount: 0,
      builtIn: false,
      createdAt: "",
      updatedAt: "",
    });
    // While the table loads: the six defaults, other codes as they are.
    expect(row()).toBe("minivan, Внедорожник, van");
    expect(row([info("minivan", "Минивэн"), info("van", "Фургон"), info("coupe", "Купе")])).toBe(
      "Минивэн, Купе, Фургон",
    );
  });

  it("has the car, the consent record and the source with UTM", () => {
    const d = leadDetails({
      ...base,
      type: "lease_booking",
      carInfo: "Haval Jolion",
      carStatus: "lease",
      carPrice: "2 000 000 ₽",
      advertisingConsent: true,
      sourceUrl: "http://127.0.0.1/lease-cars?utm_source=ya",
      utmSource: "ya",
      utmCampaign: "winter",
      analyticsClientId: "123.456",
    });
    expect(d.map((s) => s.key)).toEqual(["car", "consent", "source"]);
    expect(d[0].rows.map((r) => r.value)).toEqual([
      "Haval Jolion",
      "Аренда с выкупом",
      "2 000 000 ₽",
    ]);
    const consent = d[1].rows.map((r) => [r.label, plain(r.value)]);
    expect(consent).toEqual([
      ["Редакция текста согласия", "№ 2"],
      ["Дано", "22 ноября 2026 г. в 13:05"],
      ["IP-адрес", "10.0.0.1"],
      ["Согласие на рекламные сообщения", "Да"],
    ]);
    expect(d[2].rows[0]).toEqual({
      label: "Страница",
      value: "http://127.0.0.1/lease-cars?utm_source=ya",
      href: "http://127.0.0.1/lease-cars?utm_source=ya",
    });
    expect(d[2].rows.map((r) => r.label)).toEqual([
      "Страница",
      "UTM source",
      "UTM campaign",
      "ID посетителя в аналитике",
    ]);
  });

  it("links only http(s) source URLs", () => {
    expect(safeHref("javascript:alert(1)")).toBeUndefined();
    expect(safeHref("https://site.ru/")).toBe("https://site.ru/");
  });
});

describe("status history", () => {
  it("reads status changes from the audit trail", () => {
    const h = statusHistory([
      {
        id: 2,
        at: "2026-11-22T11:00:00Z",
        username: "admin",
        action: "status",
        objectType: "lead",
        objectId: "l1",
        summary: "Статус заявки изменён",
        changes: [{ field: "status", from: "new", to: "in_progress" }],
      },
      {
        id: 1,
        at: "2026-11-22T10:00:00Z",
        username: "",
        action: "create",
        objectType: "lead",
        objectId: "l1",
        summary: "",
        changes: [],
      },
    ]);
    expect(h.map((i) => i.text)).toEqual(["Статус: Новый → В работе", "Заявка получена"]);
    expect(h[0].username).toBe("admin");
  });
});
