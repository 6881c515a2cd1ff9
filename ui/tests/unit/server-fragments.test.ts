import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import {
  drawnOnceOnServer,
  drawnOnceWithLinks,
  fingerprint,
  forgetDigests,
  installFragmentStore,
  joinedOnServer,
  noteDigests,
  propsKey,
} from "../../src/lib/serverFragments";
import { linkedHtml } from "../../src/server/linkedDrawings";

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
      linked: linkedHtml,
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

describe("a fragment drawn once with the page's links put in", () => {
  interface Props {
    names: string[];
    chosen: string | null;
    href: (name: string | null) => string;
  }
  let drawn = 0;
  const Strip = (p: Props) => {
    drawn += 1;
    return h(
      "div",
      { role: "group" },
      h("a", { href: p.href(null), "aria-pressed": p.chosen === null }, "Все"),
      ...p.names.map((n) =>
        h("a", { key: n, href: p.href(n), class: p.chosen === n ? "chip active" : "chip" }, n),
      ),
    );
  };
  const Drawn = drawnOnceWithLinks("Strip", Strip, (p) => `${p.names.join()}\u0001${p.chosen}`);

  it("draws once per key and gives each page its own links, as a drawing with them gives", () => {
    installFragmentStore({
      html: (_key, context, draw) => renderToString(draw(), context),
      linked: linkedHtml,
    });
    try {
      const names = ["kia", "lada"];
      // Links with characters an attribute escapes.
      const pages = [
        (n: string | null) => (n ? `/used-cars?brand=${n}&body=sedan` : "/used-cars?body=sedan"),
        (n: string | null) => (n ? `/new-cars?brand=${n}&price=3000000` : '/new-cars?q="<'),
      ];
      drawn = 0;
      for (const href of pages) {
        const page = renderToString(h(Drawn, { names, chosen: "kia", href }));
        expect(page).toBe(renderToString(h(Strip, { names, chosen: "kia", href })));
        expect(page).toContain("brand=kia&amp;");
      }
      // Once for the key (and once more each time for the comparison).
      expect(drawn).toBe(3);
      // Another choice is another drawing.
      const other = renderToString(h(Drawn, { names, chosen: "lada", href: pages[0] }));
      expect(other).toBe(renderToString(h(Strip, { names, chosen: "lada", href: pages[0] })));
      expect(other).toContain('class="chip active">lada');
    } finally {
      installFragmentStore(null);
    }
  });

  it("is the component itself in the browser", () => {
    const href = (n: string | null) => `/x?brand=${n}`;
    expect(renderToString(h(Drawn, { names: ["kia"], chosen: null, href }))).toBe(
      renderToString(h(Strip, { names: ["kia"], chosen: null, href })),
    );
  });
});

describe("a list of fragments joined on the server", () => {
  interface Props {
    n: number;
    priority?: boolean;
  }
  const Card = (p: Props) =>
    h(
      "article",
      { class: "card" },
      h("img", { alt: `№${p.n} <`, loading: p.priority ? "eager" : "lazy" }),
    );
  const DrawnCard = drawnOnceOnServer("Card", Card, (p) => `${p.n}`, {
    wants: (p) => p.priority === true,
    without: (p) => ({ ...p, priority: false }),
  });
  const Cards = (p: { ns: number[] }) =>
    h(
      "div",
      { class: "grid" },
      ...p.ns.map((n, i) => h(DrawnCard, { key: n, n, priority: i === 0 })),
    );
  const Joined = joinedOnServer(
    Cards,
    (p, context) =>
      `<div class="grid">${p.ns.map((n, i) => DrawnCard.html?.({ n, priority: i === 0 }, context)).join("")}</div>`,
  );

  it("is its items' HTML joined, byte for byte the drawing, each item asked for and the list not kept", () => {
    const asked: [string, boolean][] = [];
    installFragmentStore({
      html(key, context, draw, eager) {
        asked.push([key, eager]);
        const html = renderToString(draw(), context);
        return eager ? html.replace('loading="lazy"', 'loading="eager"') : html;
      },
      linked: linkedHtml,
    });
    try {
      const joined = renderToString(h(Joined, { ns: [3, 1, 2] }));
      expect(asked).toEqual([
        ["Card\u00003", true],
        ["Card\u00001", false],
        ["Card\u00002", false],
      ]);
      installFragmentStore(null);
      expect(joined).toBe(renderToString(h(Cards, { ns: [3, 1, 2] })));
      expect(joined).toContain('loading="eager"');
    } finally {
      installFragmentStore(null);
    }
  });

  it("is the component itself without a store, or without its way of joining (the browser's build)", () => {
    expect(renderToString(h(Joined, { ns: [1] }))).toBe(renderToString(h(Cards, { ns: [1] })));
    installFragmentStore({
      html: (_k, context, draw) => renderToString(draw(), context),
      linked: linkedHtml,
    });
    try {
      const Drawn = joinedOnServer(Cards, undefined);
      expect(renderToString(h(Drawn, { ns: [1, 2] }))).toBe(
        renderToString(h(Cards, { ns: [1, 2] })),
      );
    } finally {
      installFragmentStore(null);
    }
  });
});
