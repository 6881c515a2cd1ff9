import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { afterEach, describe, expect, it } from "vitest";
import { setDrawnForPhone, usePageSize } from "../../src/hooks/usePageSize";

function Size() {
  return h("p", null, String(usePageSize()));
}

describe("a catalogue's page size on the server", () => {
  afterEach(() => setDrawnForPhone(false));

  it("is a phone's 10 cars on a page drawn for a phone, 20 otherwise", () => {
    expect(renderToString(h(Size, {}))).toBe("<p>20</p>");
    setDrawnForPhone(true);
    expect(renderToString(h(Size, {}))).toBe("<p>10</p>");
    setDrawnForPhone(false);
    expect(renderToString(h(Size, {}))).toBe("<p>20</p>");
  });
});
