import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import {
  drawnOnceOnServer,
  fingerprint,
  forgetDigests,
  installFragmentStore,
  noteDigests,
  propsKey,
} from "../../src/lib/serverFragments";

describe("keys of fragments drawn once on the server", () => {
  const cars = [
    { id: "a", price: 1 },
    { id: "c", price: 2 },
  ];
  const page = { items: [{ id: "b" }], total: 1 };
  /** A page's answers named as the server names them. */
  function notePage() {
    forgetDigests();
    noteDigests(cars, "d1", "i1,i2");
    noteDigests(page, "d2", "");
    noteDigests(3, "d3", "");
  }

  it("names a page's answer, a list directly inside one and a list's items by their digests", () => {
    notePage();
    expect(fingerprint(cars)).toBe("d1");
    expect(fingerprint(page)).toBe("d2");
    expect(fingerprint(page.items)).toBe("d2.items");
    expect(fingerprint(cars[0])).toBe("i1");
    expect(fingerprint(cars[1])).toBe("i2");
  });

  it("names part of a list (a page of a batch) by its items' digests", () => {
    notePage();
    expect(fingerprint(cars.slice(1))).toBe("[i2]");
    expect(fingerprint([...cars])).toBe("[i1,i2]");
    // One item the server did not name: the part is spelled out.
    expect(fingerprint([cars[0], { id: "x" }])).toBe(JSON.stringify([cars[0], { id: "x" }]));
  });

  it("spells out in JSON what is not an answer: a copy, a number", () => {
    notePage();
    expect(fingerprint({ ...cars[0] })).toBe(JSON.stringify(cars[0]));
    expect(fingerprint({ ...page })).toBe(JSON.stringify(page));
    expect(fingerprint(3)).toBe("3");
    expect(fingerprint(undefined)).toBe("");
  });

  it("leaves the items unnamed when their digests do not match the list", () => {
    forgetDigests();
    noteDigests(cars, "d1", "i1");
    expect(fingerprint(cars[0])).toBe(JSON.stringify(cars[0]));
  });

  it("names the items alone when the list has no digest (the cards drawn ahead)", () => {
    forgetDigests();
    noteDigests(cars, "", "i1,i2");
    expect(fingerprint(cars[1])).toBe("i2");
    expect(fingerprint(cars)).toBe("[i1,i2]");
  });

  it("a new page's digests replace the last page's", () => {
    notePage();
    forgetDigests();
    noteDigests(cars, "d9", "");
    expect(fingerprint(cars)).toBe("d9");
    expect(fingerprint(cars[0])).toBe(JSON.stringify(cars[0]));
  });

  it("keys every prop but functions, so any prop changed changes the key", () => {
    notePage();
    const onPick = () => {};
    const key = propsKey({ cars, title: "Кроссоверы", onPick });
    expect(key).toBe(propsKey({ cars, title: "Кроссоверы", onPick: () => {} }));
    expect(key).not.toBe(propsKey({ cars, title: "Седаны", onPick }));
    expect(key).not.toBe(propsKey({ cars: [{ id: "a", price: 2 }], title: "Кроссоверы", onPick }));
    expect(key).not.toContain("onPick");
  });
});

describe("a fragment whose first picture may be the page's largest paint", () => {
  interface Props {
    n: number;
    priority?: boolean;
  }
  const Picture = (p: Props) =>
    h("img", { alt: String(p.n), loading: p.priority ? "eager" : "lazy" });
  const Drawn = drawnOnceOnServer("Picture", Picture, (p) => `${p.n}`, {
    wants: (p) => p.priority === true,
    without: (p) => ({ ...p, priority: false }),
  });

  it("is kept drawn without the priority, under one key, and asked for eager", () => {
    const asked: [string, boolean, string][] = [];
    installFragmentStore({
      html(key, context, draw, eager) {
        const html = renderToString(draw(), context);
        asked.push([key, eager, html]);
        return eager ? html.replace('loading="lazy"', 'loading="eager"') : html;
      },
    });
    try {
      const first = renderToString(h(Drawn, { n: 7, priority: true }));
      const other = renderToString(h(Drawn, { n: 7 }));
      expect(asked.map(([key, eager]) => [key, eager])).toEqual([
        ["Picture\u00007", true],
        ["Picture\u00007", false],
      ]);
      // Both drawn without the priority; the page gets it eager.
      expect(asked[0][2]).toBe(asked[1][2]);
      expect(first).toBe(renderToString(h(Picture, { n: 7, priority: true })));
      expect(other).toBe(renderToString(h(Picture, { n: 7 })));
    } finally {
      installFragmentStore(null);
    }
  });
});
