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
  sourceText,
  URL_INVALID,
  URL_REQUIRED,
} from "../../src/admin/lib/parser";
import {
  alsoInText,
  CONDITION_LABELS,
  CONDITIONS,
  carsText,
  checkFeedForm,
  conditionBody,
  conditionText,
  conditionUrl,
  deleteMessage,
  FEEDS_ORDER_URL,
  feedFormValues,
  feedPayload,
  feedSalonValue,
  feedUrl,
  historyUrl,
  moveFeed,
  NAME_REQUIRED,
  PREVIEW_CONDITIONS,
  runFeedText,
  scheduleText,
  staysInText,
} from "../../src/admin/lib/parser-feeds";
import type { Feed } from "../../src/admin/lib/parser-types";

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
      "Уйдут из фида, останутся на сайте",
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

  it("tells the cars that leave this feed and stay on the site", () => {
    const text = applySummary({ ...counts, gone: 0, errors: 0, left: 3 });
    expect(text).toMatch(/^Будет добавлено: 2, изменено: 3, снято с публикации: 0\./);
    expect(text).toMatch(/Уйдут из этого фида, но останутся на сайте .*: 3\./);
    expect(applySummary({ ...counts, gone: 0, errors: 0, left: 0 })).not.toMatch(/Уйдут/);
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
});

describe("export feeds", () => {
  it("uses the server's list, or the five addresses on this site", () => {
    const server = [{ name: "Avito", url: "https://salon.example/feeds/avito.xml" }];
    expect(feedLinks({ feeds: server }, "http://x")).toBe(server);
    expect(feedLinks({}, "https://salon.example").map((f) => f.url)).toEqual([
      "https://salon.example/feeds/avito.xml",
      "https://salon.example/feeds/autoru.xml",
      "https://salon.example/feeds/autoru-new.xml",
      "https://salon.example/feeds/autoru-used.xml",
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

const FEED: Feed = {
  id: "f1",
  name: "Новые Hyundai",
  kind: "url",
  source: "https://d.example/new.xml",
  intervalHours: 6,
  condition: "new",
  position: 1,
  lastRunAt: null,
  nextRunAt: null,
  cars: 12,
};

describe("feeds", () => {
  it("has the API's addresses", () => {
    expect(feedUrl("a b")).toBe("/api/admin/feeds/a%20b");
    expect(FEEDS_ORDER_URL).toBe("/api/admin/feeds/order");
    expect(historyUrl(null)).toBe("/api/admin/imports");
    expect(historyUrl("f/1")).toBe("/api/admin/imports?feedId=f%2F1");
    expect(conditionUrl(7)).toBe("/api/admin/imports/7/condition");
  });

  it("words a feed's schedule, condition and cars", () => {
    expect(scheduleText(FEED)).toBe("Расписание: каждые 6 ч");
    expect(scheduleText({ kind: "url", intervalHours: 1 })).toBe("Расписание: каждый час");
    expect(scheduleText({ kind: "url", intervalHours: 21 })).toBe("Расписание: каждый 21 ч");
    expect(scheduleText({ kind: "url", intervalHours: 0 })).toBe("Расписание: вручную");
    // A file has no schedule, whatever the number says.
    expect(scheduleText({ kind: "file", intervalHours: 6 })).toBe("Расписание: вручную");
    expect(carsText(12)).toBe("Машин в фиде: 12");
    expect(conditionText("used")).toBe("Состояние: с пробегом, если фид не говорит иначе");
    expect(conditionText("lease")).toBe("Состояние: все — аренда с выкупом");
  });

  it("offers the four conditions in a dealer's words", () => {
    expect(CONDITIONS.map((c) => CONDITION_LABELS[c])).toEqual([
      "По данным фида (без данных — новые)",
      "Новые, если фид не говорит иначе",
      "С пробегом, если фид не говорит иначе",
      "Все — аренда с выкупом",
    ]);
  });

  it("says in the delete confirmation that the cars stay", () => {
    expect(deleteMessage(FEED)).toMatch(/^Фид «Новые Hyundai» пропадёт из списка/);
    expect(deleteMessage(FEED)).toMatch(/машины \(12\) останутся на сайте как есть/);
  });

  it("moves a feed up and down, and not past an edge", () => {
    const ids = ["a", "b", "c"];
    expect(moveFeed(ids, "b", -1)).toEqual(["b", "a", "c"]);
    expect(moveFeed(ids, "b", 1)).toEqual(["a", "c", "b"]);
    expect(moveFeed(ids, "a", -1)).toBeNull();
    expect(moveFeed(ids, "c", 1)).toBeNull();
    expect(moveFeed(ids, "x", 1)).toBeNull();
    expect(ids).toEqual(["a", "b", "c"]);
  });

  it("fills the dialog from a feed, or with a new feed's defaults", () => {
    expect(feedFormValues(null)).toEqual({
      name: "",
      kind: "url",
      url: "",
      interval: "0",
      custom: "",
      condition: "record",
    });
    expect(feedFormValues(FEED)).toMatchObject({
      name: "Новые Hyundai",
      url: "https://d.example/new.xml",
      interval: "6",
      custom: "",
      condition: "new",
    });
    expect(feedFormValues({ ...FEED, intervalHours: 48 })).toMatchObject({
      interval: CUSTOM_INTERVAL,
      custom: "48",
    });
    // A file feed's source is a file name, not an address to edit.
    expect(feedFormValues({ ...FEED, kind: "file", source: "used.csv" }).url).toBe("");
  });

  it("checks the dialog before sending", () => {
    const v = { name: " ", kind: "url" as const, url: "" };
    expect(checkFeedForm(v)).toEqual({ field: "name", message: NAME_REQUIRED });
    expect(checkFeedForm({ ...v, name: "Б/у" })).toEqual({ field: "url", message: URL_REQUIRED });
    expect(checkFeedForm({ ...v, name: "Б/у", url: "ftp://x" })).toEqual({
      field: "url",
      message: URL_INVALID,
    });
    expect(checkFeedForm({ ...v, name: "Б/у", kind: "file" })).toBeNull();
    expect(checkFeedForm({ ...v, name: "x".repeat(101), kind: "file" })?.field).toBe("name");
  });

  it("sends a URL feed with its address and schedule, a file feed with neither", () => {
    const v = { ...feedFormValues(FEED), name: " Новые ", url: " https://d.example/n.xml " };
    expect(feedPayload(v, 6)).toEqual({
      name: "Новые",
      kind: "url",
      url: "https://d.example/n.xml",
      intervalHours: 6,
      condition: "new",
    });
    expect(feedPayload({ ...v, kind: "file", condition: "lease" }, 6)).toEqual({
      name: "Новые",
      kind: "file",
      url: null,
      intervalHours: 0,
      condition: "lease",
    });
  });

  it("sends a feed's salon when the dialog shows the choice", () => {
    const v = { ...feedFormValues(FEED), kind: "file" as const };
    expect(feedPayload({ ...v, salon: "2" }, 0)).toMatchObject({ salonId: 2 });
    expect(feedPayload({ ...v, salon: undefined }, 0)).not.toHaveProperty("salonId");
    expect(feedSalonValue(null)).toBe("1");
    expect(feedSalonValue({ ...FEED, salonId: 3 })).toBe("3");
  });

  it("sends the preview's condition, or null for the feed's own rules", () => {
    expect(PREVIEW_CONDITIONS.map((c) => c.label)).toEqual([
      "По данным фида",
      "Новые",
      "С пробегом",
      "Аренда с выкупом",
    ]);
    expect(conditionBody("used")).toEqual({ condition: "used" });
    expect(conditionBody("lease")).toEqual({ condition: "lease" });
    expect(conditionBody("")).toEqual({ condition: null });
    expect(conditionBody("record")).toEqual({ condition: null });
  });

  it("says which feed's values win for a car in two feeds", () => {
    expect(alsoInText({ feedId: "b", feedName: "Авито б/у", wins: true })).toBe(
      "Также в фиде «Авито б/у»: его значения главнее",
    );
    expect(alsoInText({ feedId: "b", feedName: "Авито б/у", wins: false })).toBe(
      "Также в фиде «Авито б/у»: значения этого фида главнее",
    );
    expect(staysInText({ staysIn: "Новые" })).toBe("есть в фиде «Новые»");
    expect(staysInText({ staysIn: null })).toBe("есть в другом фиде");
  });

  it("names a run's feed", () => {
    expect(runFeedText({ feedId: "f1", feedName: "Новые" })).toBe("Фид «Новые»");
    expect(runFeedText({ feedId: null, feedName: null })).toBe("Фид удалён");
  });
});
