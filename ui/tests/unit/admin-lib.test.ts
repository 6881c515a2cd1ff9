import { describe, expect, it } from "vitest";
import {
  BANNER_FIELDS,
  BANNER_SECTIONS,
  changedBanners,
  pickBanners,
} from "../../src/admin/lib/banners";
import { isSameDay, longDateTime, shortDateTime } from "../../src/admin/lib/dates";
import { FAVICON_RULES, HERO_IMAGE_REQUIRED, HERO_RULES } from "../../src/admin/lib/files";
import { filterReviews, reviewTotals, stars } from "../../src/admin/lib/reviews";
import {
  ASSIGNMENT_SETTINGS_HREF,
  assignmentLine,
  companyForm,
  companyPatch,
  consentNotice,
  emailForm,
  emailPatch,
  PRIVACY_HINT,
} from "../../src/admin/lib/settings";
import { adminCarTitle, splitAdvantages, truncate } from "../../src/admin/lib/text";
import { checkSingle, MB } from "../../src/admin/uploads";

/** Intl puts (narrow) no-break spaces in places. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("admin dates (Moscow time)", () => {
  it("prints the Russian long date with time", () => {
    expect(plain(longDateTime("2026-11-22T10:05:00Z"))).toBe("22 ноября 2026 г. в 13:05");
    expect(plain(longDateTime("2026-03-01T21:30:00.000Z"))).toBe("2 марта 2026 г. в 00:30");
  });

  it("prints the short date-time of a lead row", () => {
    expect(plain(shortDateTime("2026-11-22T10:05:00Z"))).toBe("22.11.2026, 13:05");
  });

  it("keeps what is not a date, and empty as empty", () => {
    expect(longDateTime("вчера")).toBe("вчера");
    expect(longDateTime(null)).toBe("");
    expect(shortDateTime(undefined)).toBe("");
  });

  it("knows a Moscow day", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    expect(isSameDay("2026-11-21T21:30:00Z", now)).toBe(true); // 00:30 in Moscow
    expect(isSameDay("2026-11-21T20:30:00Z", now)).toBe(false); // 23:30 the day before
  });
});

describe("text helpers", () => {
  it("names a car in its admin card with the model said once", () => {
    expect(adminCarTitle({ brandName: "Lada", name: "Vesta Comfort", model: "Vesta" })).toBe(
      "Lada Vesta Comfort",
    );
    expect(adminCarTitle({ brandName: "Haval", name: "Haval Jolion", model: "Jolion" })).toBe(
      "Haval Jolion",
    );
    expect(adminCarTitle({ brandName: "Kia", name: "Comfort", model: "Rio" })).toBe(
      "Kia Comfort Rio",
    );
    expect(adminCarTitle({ brandName: "Kia", name: "Rio X-Line", model: "Rio X" })).toBe(
      "Kia Rio X-Line Rio X",
    );
  });

  it("splits advantages into chips", () => {
    expect(splitAdvantages("Низкая ставка, быстрое решение,, без КАСКО ")).toEqual([
      "Низкая ставка",
      "быстрое решение",
      "без КАСКО",
    ]);
    expect(splitAdvantages("Ставка от 7,9%, без КАСКО,рассрочка 0,0")).toEqual([
      "Ставка от 7,9%",
      "без КАСКО",
      "рассрочка 0,0",
    ]);
    expect(splitAdvantages("1, 2")).toEqual(["1", "2"]);
    expect(splitAdvantages("")).toEqual([]);
    expect(splitAdvantages(null)).toEqual([]);
  });

  it("truncates a message on one line", () => {
    expect(truncate("коротко")).toBe("коротко");
    expect(truncate("строка\nвторая", 50)).toBe("строка вторая");
    const long = "а".repeat(200);
    const cut = truncate(long, 100);
    expect(cut.length).toBe(100);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("reviews", () => {
  const reviews = [
    { customerName: "Иван", text: "Отличный салон", carModel: "X5", approved: true },
    { customerName: "Мария", text: "Долго ждали", carModel: null, approved: false },
    { customerName: "Пётр", text: "Всё хорошо", carModel: "Camry", approved: false },
  ];

  it("counts all, approved and pending", () => {
    expect(reviewTotals(reviews)).toEqual({ all: 3, approved: 1, pending: 2 });
    expect(reviewTotals([])).toEqual({ all: 0, approved: 0, pending: 0 });
  });

  it("searches name, text and car model within the status", () => {
    expect(filterReviews(reviews, "", "all")).toHaveLength(3);
    expect(filterReviews(reviews, "", "pending").map((r) => r.customerName)).toEqual([
      "Мария",
      "Пётр",
    ]);
    expect(filterReviews(reviews, "camry", "all").map((r) => r.customerName)).toEqual(["Пётр"]);
    expect(filterReviews(reviews, "ОТЛИЧН", "all")).toHaveLength(1);
    expect(filterReviews(reviews, "ПЕТР", "approved")).toHaveLength(0);
    expect(filterReviews(reviews, "ПЁТР", "pending")).toHaveLength(1);
  });

  it("draws stars", () => {
    expect(stars(4)).toBe("★★★★☆");
    expect(stars(5)).toBe("★★★★★");
    expect(stars(9)).toBe("★★★★★");
    expect(stars(0)).toBe("☆☆☆☆☆");
  });
});

describe("page banners", () => {
  it("has six sections, desktop and mobile: the twelve fields", () => {
    expect(BANNER_SECTIONS.map((s) => s.key)).toEqual([
      "home",
      "newCars",
      "usedCars",
      "tradeIn",
      "autoCredit",
      "autoSelection",
    ]);
    expect(new Set(BANNER_FIELDS).size).toBe(12);
    for (const s of BANNER_SECTIONS) expect(s.mobile).toBe(`${s.desktop}Mobile`);
  });

  it("sends only what changed; a removed banner as empty", () => {
    const loaded = pickBanners({ homeBanner: "/media/a.webp", tradeInBanner: "/media/t.webp" });
    expect(loaded.newCarsBannerMobile).toBe("");
    expect(changedBanners(loaded, { ...loaded })).toEqual({});
    const current = { ...loaded, homeBanner: "", usedCarsBannerMobile: "/media/u.webp" };
    expect(changedBanners(loaded, current)).toEqual({
      homeBanner: "",
      usedCarsBannerMobile: "/media/u.webp",
    });
  });
});

describe("file checks", () => {
  const file = (name: string, type: string, size: number) => ({ name, type, size });

  it("says what the hero banner needs", () => {
    expect(checkSingle(file("a.jpg", "image/jpeg", 5 * MB), HERO_RULES)).toBeNull();
    expect(checkSingle(file("a.txt", "text/plain", 10), HERO_RULES)).toBe(HERO_IMAGE_REQUIRED);
    expect(checkSingle(file("a.png", "image/png", 5 * MB + 1), HERO_RULES)).toBe(
      "Размер файла не должен превышать 5MB",
    );
  });

  it("takes a favicon up to 1 MB", () => {
    expect(checkSingle(file("f.ico", "image/x-icon", 1000), FAVICON_RULES)).toBeNull();
    expect(checkSingle(file("f.ico", "", 1000), FAVICON_RULES)).toBeNull();
    expect(checkSingle(file("f.png", "image/png", MB + 1), FAVICON_RULES)).toBe(
      "Размер файла не должен превышать 1MB",
    );
  });
});

describe("settings forms", () => {
  const settings = {
    salonName: " Салон ",
    phone: "+7 812 000-00-00",
    consentText: "Текст",
    privacyPolicy: "Политика",
    notificationEmail: "",
    fromEmail: "robot@example.ru",
    emailNotificationsEnabled: false,
  } as unknown as Parameters<typeof companyForm>[0];

  it("sends every company field, trimmed", () => {
    const form = companyForm(settings);
    expect(form.salonName).toBe(" Салон ");
    expect(form.address).toBe("");
    const patch = companyPatch(form);
    expect(patch.salonName).toBe("Салон");
    expect(Object.keys(patch)).toContain("privacyPolicy");
    expect(Object.keys(patch)).not.toContain("notificationEmail");
  });

  it("sends the three e-mail fields", () => {
    const form = emailForm(settings);
    expect(form).toEqual({
      notificationEmail: "",
      fromEmail: "robot@example.ru",
      emailNotificationsEnabled: false,
    });
    expect(emailPatch({ ...form, notificationEmail: " a@b.ru " }).notificationEmail).toBe("a@b.ru");
    expect(emailForm({} as never).emailNotificationsEnabled).toBe(true);
  });

  it("names the lead rule on the team screen, with the setting's place", () => {
    expect(assignmentLine("round_robin")).toBe(
      "Новые заявки распределяются так: по очереди между менеджерами на смене.",
    );
    expect(assignmentLine("least_loaded")).toBe(
      "Новые заявки распределяются так: наименее загруженному менеджеру на смене.",
    );
    expect(assignmentLine(undefined)).toContain("вручную");
    expect(ASSIGNMENT_SETTINGS_HREF).toBe("/settings#assignment");
  });

  it("says when a save makes a new consent edition", () => {
    const saved = { consentText: "Текст", privacyPolicy: "Политика" };
    expect(consentNotice(saved, { ...saved, consentText: "Текст " }, 3)).toBeNull();
    expect(consentNotice(saved, { ...saved, consentText: "Новый текст" }, 3)).toContain(
      "редакцией № 4",
    );
    // The server makes a new edition for a new policy too: the hint and the notice say so.
    expect(consentNotice(saved, { ...saved, privacyPolicy: "Новая политика" }, 3)).toBe(
      "Политика конфиденциальности изменена: после сохранения согласие станет редакцией № 4. Новые заявки будут ссылаться на неё, старые сохранят свою редакцию.",
    );
    expect(PRIVACY_HINT).toContain("тоже создаёт новую редакцию");
    expect(PRIVACY_HINT).not.toContain("не меняет");
  });
});
