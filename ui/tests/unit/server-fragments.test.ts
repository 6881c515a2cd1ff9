import { describe, expect, it } from "vitest";
import { fingerprint, noteDigests, propsKey } from "../../src/lib/serverFragments";

describe("keys of fragments drawn once on the server", () => {
  const cars = [{ id: "a", price: 1 }];
  const page = { items: [{ id: "b" }], total: 1 };
  const answers: Record<string, unknown> = { "/api/cars": cars, "/api/page": page, "/api/n": 3 };

  it("names a page's answer, and a list directly inside one, by its digest", () => {
    noteDigests(answers, { "/api/cars": "d1", "/api/page": "d2", "/api/n": "d3" });
    expect(fingerprint(cars)).toBe("d1");
    expect(fingerprint(page)).toBe("d2");
    expect(fingerprint(page.items)).toBe("d2.items");
  });

  it("spells out in JSON what is not an answer: a copy, one car, a number", () => {
    noteDigests(answers, { "/api/cars": "d1" });
    expect(fingerprint([...cars])).toBe(JSON.stringify(cars));
    expect(fingerprint(cars[0])).toBe(JSON.stringify(cars[0]));
    expect(fingerprint(page)).toBe(JSON.stringify(page));
    expect(fingerprint(3)).toBe("3");
    expect(fingerprint(undefined)).toBe("");
  });

  it("a new page's digests replace the last page's", () => {
    noteDigests(answers, { "/api/cars": "d1" });
    noteDigests({ "/api/other": cars }, { "/api/other": "d9" });
    expect(fingerprint(cars)).toBe("d9");
  });

  it("keys every prop but functions, so any prop changed changes the key", () => {
    noteDigests(answers, { "/api/cars": "d1" });
    const onPick = () => {};
    const key = propsKey({ cars, title: "Кроссоверы", onPick });
    expect(key).toBe(propsKey({ cars, title: "Кроссоверы", onPick: () => {} }));
    expect(key).not.toBe(propsKey({ cars, title: "Седаны", onPick }));
    expect(key).not.toBe(propsKey({ cars: [{ id: "a", price: 2 }], title: "Кроссоверы", onPick }));
    expect(key).not.toContain("onPick");
  });
});
