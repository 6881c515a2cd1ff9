import { describe, expect, it } from "vitest";
import {
  checkMany,
  checkSingle,
  fieldMessage,
  MAX_FAVICON_BYTES,
  MB,
  move,
  notImage,
  percent,
  SINGLE_NOT_IMAGE,
  SINGLE_TOO_BIG,
  tooBig,
  tooMany,
  UPLOAD_FAILED,
  uploadOutcome,
} from "../../src/admin/uploads";
import { ApiError } from "../../src/api/client";

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe("single image", () => {
  it("takes a picture of up to 5 MB", () => {
    expect(checkSingle(file("a.jpg", "image/jpeg"))).toBeNull();
    expect(checkSingle(file("a.pdf", "application/pdf"))).toBe(SINGLE_NOT_IMAGE);
    expect(checkSingle(file("a.png", "image/png", 5 * MB + 1))).toBe(SINGLE_TOO_BIG);
  });

  it("knows a picture by its extension when the browser gives no type", () => {
    expect(checkSingle(file("a.JPG", ""))).toBeNull();
    expect(checkSingle(file("a.txt", ""))).toBe(SINGLE_NOT_IMAGE);
  });

  it("takes other limits and messages (a favicon)", () => {
    const rules = {
      maxBytes: MAX_FAVICON_BYTES,
      tooBigMessage: "Размер файла не должен превышать 1MB",
      extensions: ["ico", "svg", "png"],
    };
    expect(checkSingle(file("f.ico", ""), rules)).toBeNull();
    expect(checkSingle(file("f.png", "image/png", MB + 1), rules)).toBe(rules.tooBigMessage);
  });
});

describe("several images", () => {
  it("says which files are refused and why", () => {
    const files = [
      file("a.jpg", "image/jpeg"),
      file("doc.pdf", "application/pdf"),
      file("big.png", "image/png", 6 * MB),
      file("b.jpg", "image/jpeg"),
    ];
    const { accepted, errors } = checkMany(files, 0, 6);
    expect(accepted.map((f) => f.name)).toEqual(["a.jpg", "b.jpg"]);
    expect(errors).toEqual([notImage("doc.pdf"), tooBig("big.png")]);
    expect(notImage("doc.pdf")).toBe("doc.pdf не является изображением");
    expect(tooBig("big.png")).toBe("big.png превышает 5MB");
  });

  it("takes no more than the free places", () => {
    const files = [
      file("1.jpg", "image/jpeg"),
      file("2.jpg", "image/jpeg"),
      file("3.jpg", "image/jpeg"),
    ];
    const { accepted, errors } = checkMany(files, 4, 6);
    expect(accepted.map((f) => f.name)).toEqual(["1.jpg", "2.jpg"]);
    expect(errors).toEqual([tooMany(6)]);
    expect(tooMany(6)).toBe("Максимум 6 изображений");
  });
});

describe("order and progress", () => {
  it("moves a picture", () => {
    expect(move(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(move(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(move(["a", "b"], 0, 5)).toEqual(["a", "b"]);
  });

  it("counts progress in percent", () => {
    expect(percent(50, 200)).toBe(25);
    expect(percent(10, 0)).toBe(0);
    expect(percent(300, 200)).toBe(100);
  });
});

describe("what a batch of uploads comes to", () => {
  const ok = (url: string): PromiseSettledResult<string> => ({ status: "fulfilled", value: url });
  const no = (reason: unknown): PromiseSettledResult<string> => ({ status: "rejected", reason });
  const refused = new ApiError(400, "Файл не является изображением", "file", "/api/objects/upload");

  it("gives the arrived pictures in order and says nothing when all arrived", () => {
    expect(uploadOutcome([ok("/a.webp"), ok("/b.webp")])).toEqual({
      urls: ["/a.webp", "/b.webp"],
      failure: null,
    });
  });

  it("says the server's reason for a refusal, its own words for a breakdown", () => {
    expect(uploadOutcome([ok("/a.webp"), no(refused)])).toEqual({
      urls: ["/a.webp"],
      failure: "Файл не является изображением",
    });
    const broken = new ApiError(500, "internal", null, "/api/objects/upload");
    expect(uploadOutcome([no(broken)]).failure).toBe(UPLOAD_FAILED);
    expect(uploadOutcome([no(new TypeError("network"))]).failure).toBe(UPLOAD_FAILED);
  });

  it("keeps quiet of a cancelled upload and an ended session", () => {
    const abort = new DOMException("Запрос отменён", "AbortError");
    const expired = new ApiError(401, "Требуется вход", null, "/api/objects/upload");
    expect(uploadOutcome([no(abort), no(expired)])).toEqual({ urls: [], failure: null });
  });
});

describe("the form's message of an upload field", () => {
  const text = (e: { message?: string }) => e.message;

  it("is shown until a picture arrives after it, then hidden", () => {
    const error = { type: "server", message: "Изображение не найдено" };
    expect(fieldMessage(error, undefined, text)).toBe("Изображение не найдено");
    expect(fieldMessage(error, error, text)).toBeNull();
  });

  it("is shown again when the form says something new", () => {
    const before = { type: "server", message: "Изображение не найдено" };
    const after = { type: "server", message: "Изображение не найдено" };
    expect(fieldMessage(after, before, text)).toBe("Изображение не найдено");
    expect(fieldMessage(null, before, text)).toBeNull();
  });
});
