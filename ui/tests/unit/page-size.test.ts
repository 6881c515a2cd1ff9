import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { afterEach, describe, expect, it } from "vitest";
import { setDrawnForPhone, usePageSize, usePhoneScreen } from "../../src/hooks/usePageSize";

function Size() {
  return h("p", null, String(usePageSize()));
}

function Phone() {
  return h("p", null, usePhoneScreen() ? "phone" : "wide");
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

  it("draws a phone's screen (the home page's rows of 6) only on a page drawn for one", () => {
    expect(renderToString(h(Phone, {}))).toBe("<p>wide</p>");
    setDrawnForPhone(true);
    expect(renderToString(h(Phone, {}))).toBe("<p>phone</p>");
  });
});
