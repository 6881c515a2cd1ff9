import { describe, expect, it } from "vitest";
import { followsInPlace, spaceActivates } from "../../src/lib/links";

const click = (change: Partial<Parameters<typeof followsInPlace>[0]> = {}) => ({
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
  ...change,
});

describe("links the script follows in place", () => {
  it("a plain click turns the page in place", () => {
    expect(followsInPlace(click())).toBe(true);
  });

  it("a new tab, a new window or another button is the browser's", () => {
    for (const change of [
      { ctrlKey: true },
      { metaKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
      { defaultPrevented: true },
    ])
      expect(followsInPlace(click(change))).toBe(false);
  });

  it("Space acts on a link drawn as a button; other keys do not", () => {
    let acted = 0;
    const handler = spaceActivates(() => acted++);
    let prevented = false;
    const key = (k: string) =>
      ({ key: k, preventDefault: () => (prevented = true) }) as unknown as KeyboardEvent;
    handler(key("Enter"));
    expect(acted).toBe(0);
    handler(key(" "));
    expect(acted).toBe(1);
    expect(prevented).toBe(true);
  });
});
