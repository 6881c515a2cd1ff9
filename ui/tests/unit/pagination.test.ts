import { describe, expect, it } from "vitest";
import { pageCount, pageWindow } from "../../src/lib/pagination";

describe("pagination window", () => {
  it("shows first, last and current ±1 with ellipses", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 0)).toEqual([]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 10)).toEqual([1, 2, "ellipsis-end", 10]);
    expect(pageWindow(5, 10)).toEqual([1, "ellipsis-start", 4, 5, 6, "ellipsis-end", 10]);
    expect(pageWindow(10, 10)).toEqual([1, "ellipsis-start", 9, 10]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 7)).toEqual([1, "ellipsis-start", 3, 4, 5, "ellipsis-end", 7]);
  });

  it("clamps a page out of range", () => {
    expect(pageWindow(99, 4)).toEqual([1, "ellipsis-start", 3, 4]);
  });

  it("counts pages of 20 or 10", () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(45, 10)).toBe(5);
  });
});
