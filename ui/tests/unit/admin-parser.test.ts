import { describe, expect, it } from "vitest";
import {
  applySummary,
  applyUrl,
  COUNT_LABELS,
  CUSTOM_INTERVAL,
  changesAnything,
  changeText,
  changeValue,
  checkFeedFile,
  checkFeedUrl,
  FILE_EMPTY,
  FILE_REQUIRED,
  FILE_TOO_BIG,
  FILE_WRONG_TYPE,
  feedHint,
  feedLinks,
  groupWarnings,
  INTERVAL_INVALID,
  importReportHref,
  importUrl,
  intervalChoice,
  intervalLabel,
  MAX_FEED_BYTES,
  newBodyTypesText,
  parseInterval,
  photosPending,
  photoText,
  rowErrorText,
  rowPlace,
  settingsPayload,
  sourceText,
  URL_INVALID,
  URL_REQUIRED,
} from "../../src/admin/lib/parser";

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const counts = { new: 2, changed: 3, unchanged: 10, gone: 1, errors: 4, warnings: 0 };

describe("parser URLs", () => {
  it("names a run, its apply and its report", () => {
    expect(importUrl(7)).toBe("/api/admin/imports/7");
    expect(applyUrl("a b")).toBe("/api/admin/imports/a%20b/apply");
    expect(importReportHref(12)).toBe("/parser?run=12");
  });
});

describe("the source form", () => {
  it("takes http and https addresses only", () => {
    expect(checkFeedUrl("")).toBe(URL_REQUIRED);
    expect(checkFeedUrl("   ")).toBe(URL_REQUIRED);
    expect(checkFeedUrl("dealer.example/stock.xml")).toBe(URL_INVALID);
    expect(checkFeedUrl("ftp://dealer.example/stock.xml")).toBe(URL_INVALID);
    expect(checkFeedUrl("file:///etc/passwd")).toBe(URL_INVALID);
    expect(checkFeedUrl(" https://dealer.example/stock.xml ")).toBeNull();
    expect(checkFeedUrl("http://127.0.0.1:8080/feed.csv")).toBeNull();
  });

  it("takes XML and CSV files, by name or type, not empty, within the limit", () => {
    expect(checkFeedFile(null)).toBe(FILE_REQUIRED);
    expect(checkFeedFile({ name: "stock.xml", type: "", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "STOCK.CSV", type: "", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "feed", type: "application/xml", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "feed", type: "text/csv", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "photo.png", type: "image/png", size: 10 })).toBe(FILE_WRONG_TYPE);
    expect(FILE_WRONG_TYPE).toBe("Нужен файл XML или CSV");
  });

  it("refuses a file by its name before sending it, whatever type the browser gives", () => {
    expect(checkFeedFile({ name: "notes.txt", type: "text/plain", size: 10 })).toBe(
      FILE_WRONG_TYPE,
    );
    expect(checkFeedFile({ name: "stock.xml.txt", type: "text/plain", size: 10 })).toBe(
      FILE_WRONG_TYPE,
    );
    expect(checkFeedFile({ name: "stock.docx", type: "", size: 10 })).toBe(FILE_WRONG_TYPE);
    expect(checkFeedFile({ name: "stock.XML", type: "text/plain", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "stock.yml", type: "", size: 10 })).toBeNull();
    // No extension: the browser's type decides.
    expect(checkFeedFile({ name: "feed", type: "text/plain", size: 10 })).toBeNull();
    expect(checkFeedFile({ name: "feed", type: "", size: 10 })).toBe(FILE_WRONG_TYPE);
    expect(checkFeedFile({ name: "stock.xml", type: "", size: 0 })).toBe(FILE_EMPTY);
    expect(checkFeedFile({ name: "stock.xml", type: "", size: MAX_FEED_BYTES })).toBeNull();
    expect(checkFeedFile({ name: "stock.xml", type: "", size: MAX_FEED_BYTES + 1 })).toBe(
      FILE_TOO_BIG,
    );
  });
});

describe("a run's report", () => {
  it("counts in the screen's order", () => {
    expect(COUNT_LABELS.map((c) => c.label)).toEqual([
      "Новые",
      "Изменятся",
      "Без изменений",
      "Снимутся с публикации",
      "Ошибки",
      "Предупреждения",
    ]);
  });

  it("says where a run came from", () => {
    expect(sourceText({ kind: "file", name: "stock.xml" })).toBe("Файл stock.xml");
    expect(sourceText({ kind: "url", name: "https://d.example/f.xml" })).toBe(
      "https://d.example/f.xml",
    );
  });

  it("waits for photos only after an apply and while some are left", () => {
    const photos = { total: 5, done: 3, failed: 1 };
    expect(photosPending({ status: "applied", photos })).toBe(true);
    expect(photosPending({ status: "preview", photos })).toBe(false);
    expect(photosPending({ status: "applied", photos: { total: 5, done: 4, failed: 1 } })).toBe(
      false,
    );
    expect(photosPending({ status: "applied", photos: { total: 0, done: 0, failed: 0 } })).toBe(
      false,
    );
  });

  it("tells the photos' progress", () => {
    expect(photoText({ total: 5, done: 3, failed: 0 })).toBe("Фото: загружено 3 из 5");
    expect(photoText({ total: 5, done: 3, failed: 2 })).toBe(
      "Фото: загружено 3 из 5, с ошибкой: 2",
    );
    expect(photoText({ total: 0, done: 0, failed: 0 })).toMatch(/нет/);
  });

  it("shows a price change in rubles, other fields as they are, empty as a dash", () => {
    expect(
      plain(changeText({ field: "price", label: "Цена", old: "2500000.00", new: "2400000.00" })),
    ).toBe("Цена: 2 500 000 ₽ → 2 400 000 ₽");
    expect(changeText({ field: "mileage", label: "Пробег", old: "12000", new: "15000" })).toBe(
      "Пробег: 12000 → 15000",
    );
    expect(changeValue("description", "")).toBe("—");
    expect(changeValue("price", "")).toBe("—");
    expect(changeValue("price", "по запросу")).toBe("по запросу");
    expect(plain(changeValue("maxDiscount", "90000.00"))).toBe("90 000 ₽");
    expect(changeValue("images", "2 шт.")).toBe("2 шт.");
  });

  it("sums up what applying will do", () => {
    const text = applySummary(counts);
    expect(text).toMatch(/^Будет добавлено: 2, изменено: 3, снято с публикации: 1\./);
    expect(text).toMatch(/Снятые с публикации автомобили пропадут с сайта, но не удаляются/);
    expect(text).toMatch(/Строки с ошибками \(4\) будут пропущены/);
    const quiet = applySummary({ ...counts, gone: 0, errors: 0 });
    expect(quiet).toBe("Будет добавлено: 2, изменено: 3, снято с публикации: 0.");
    expect(changesAnything(counts)).toBe(true);
    expect(
      changesAnything({ new: 0, changed: 0, unchanged: 9, gone: 0, errors: 2, warnings: 0 }),
    ).toBe(false);
  });

  it("counts cars with warnings as loaded: the summary's numbers stay, a note is added", () => {
    const warned = { ...counts, gone: 0, errors: 0, warnings: 2 };
    const text = applySummary(warned);
    expect(text).toMatch(/^Будет добавлено: 2, изменено: 3, снято с публикации: 0\./);
    expect(text).toMatch(/Автомобили с предупреждениями \(2\) загрузятся/);
    expect(text).not.toMatch(/пропущены/);
    expect(changesAnything({ ...warned, new: 0, changed: 0 })).toBe(false);
  });

  it("groups the warnings by car, in the feed's order", () => {
    const w = (row: number, key: string, field: string, message: string) => ({
      row,
      line: row + 10,
      key,
      title: `Авто ${key}`,
      field,
      message,
    });
    const groups = groupWarnings([
      w(3, "b", "drivetrain", "Привод не указан в фиде"),
      w(1, "a", "engine", "Двигатель не указан в фиде"),
      w(3, "b", "trim", "Комплектация не указана в фиде"),
      w(1, "a", "power", "Мощность не указана в фиде"),
    ]);
    expect(groups.map((g) => [g.title, rowPlace(g.row, g.line)])).toEqual([
      ["Авто a", "Строка 1 (строка файла 11)"],
      ["Авто b", "Строка 3 (строка файла 13)"],
    ]);
    expect(groups[1].warnings.map((x) => x.message)).toEqual([
      "Привод не указан в фиде",
      "Комплектация не указана в фиде",
    ]);
    expect(groupWarnings([])).toEqual([]);
    expect(rowPlace(4, 4)).toBe("Строка 4");
  });

  it("names the body types an import will create", () => {
    expect(
      newBodyTypesText([
        { bodyType: "minivan", labelPlural: "Минивэны", labelSingle: "Минивэн" },
        { bodyType: "liftback", labelPlural: "Лифтбеки", labelSingle: "Лифтбек" },
      ]),
    ).toBe("Минивэн (minivan), Лифтбек (liftback)");
  });

  it("names a row error's row and field", () => {
    expect(rowErrorText({ row: 12, field: "mark", message: "Неизвестная марка «Лада2»" })).toBe(
      "Строка 12, поле «mark»: Неизвестная марка «Лада2»",
    );
    expect(rowErrorText({ row: 3, field: null, message: "Нет цены" })).toBe("Строка 3: Нет цены");
    expect(rowErrorText({ row: 4, line: 4, field: "price", message: "Нет цены" })).toBe(
      "Строка 4, поле «price»: Нет цены",
    );
    expect(rowErrorText({ row: 2, line: 14, field: "price", message: "Нет цены" })).toBe(
      "Строка 2 (строка файла 14), поле «price»: Нет цены",
    );
  });
});

describe("the schedule", () => {
  it("names intervals", () => {
    expect(intervalLabel(0)).toBe("Выкл");
    expect(intervalLabel(1)).toBe("Каждый час");
    expect(intervalLabel(3)).toBe("Каждые 3 часа");
    expect(intervalLabel(12)).toBe("Каждые 12 часов");
    expect(intervalLabel(21)).toBe("Каждый 21 час");
    expect(intervalLabel(24)).toBe("Каждые 24 часа");
  });

  it("picks a preset or the custom number", () => {
    expect(intervalChoice(0)).toBe("0");
    expect(intervalChoice(6)).toBe("6");
    expect(intervalChoice(48)).toBe(CUSTOM_INTERVAL);
    expect(parseInterval("12", "")).toBe(12);
    expect(parseInterval("0", "99")).toBe(0);
    expect(parseInterval(CUSTOM_INTERVAL, " 48 ")).toBe(48);
    expect(parseInterval(CUSTOM_INTERVAL, "168")).toBe(168);
    for (const bad of ["", "0", "169", "2.5", "-1", "abc"]) {
      expect(parseInterval(CUSTOM_INTERVAL, bad)).toEqual({ error: INTERVAL_INVALID });
    }
  });

  it("sends no address as null", () => {
    expect(settingsPayload("  ", 0)).toEqual({ feedUrl: null, intervalHours: 0 });
    expect(settingsPayload(" https://d.example/f.xml ", 6)).toEqual({
      feedUrl: "https://d.example/f.xml",
      intervalHours: 6,
    });
  });
});

describe("export feeds", () => {
  it("uses the server's list, or the three addresses on this site", () => {
    const server = [{ name: "Avito", url: "https://salon.example/feeds/avito.xml" }];
    expect(feedLinks({ feeds: server }, "http://x")).toBe(server);
    expect(feedLinks({}, "https://salon.example").map((f) => f.url)).toEqual([
      "https://salon.example/feeds/avito.xml",
      "https://salon.example/feeds/autoru.xml",
      "https://salon.example/feeds/yandex.yml",
    ]);
  });

  it("says where to paste each", () => {
    expect(feedHint("Avito")).toMatch(/Автозагрузка/);
    expect(feedHint("Авто.ру")).toMatch(/кабинет дилера/);
    expect(feedHint("Яндекс")).toMatch(/YML/);
    expect(feedHint("Другая")).toMatch(/автозагрузки/);
  });
});
