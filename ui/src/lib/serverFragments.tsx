/** Pieces of a page the server draws once and reuses: a component whose
 * markup is a pure function of its props (a car's card) is drawn to HTML
 * the first time the server meets those props, and later pages insert that
 * HTML as it is (preact-render-to-string's template vnode) instead of
 * drawing the same forty elements again. The browser knows nothing of this:
 * there the wrapper renders the component, and hydration finds the same
 * markup either way.
 *
 * The server build installs the store (src/server/render.tsx); in the
 * browser it stays null. */
import type { ComponentType, JSX } from "preact";
import { jsxTemplate } from "preact/jsx-runtime";
import { renderToString } from "preact-render-to-string";

/** A component's links: the address of each of its choices. */
// biome-ignore lint/suspicious/noExplicitAny: any choice a component links to
export type Href = (to: any) => string;

export interface FragmentStore {
  /** The HTML of `draw()` for `key`, drawn with the page's `context` the
   * first time (or a token the server replaces by that HTML). With `eager`
   * the HTML has its first picture made the page's largest paint's (the
   * fragment is kept as `draw()` draws it: see [`FirstPicture`]). */
  html(key: string, context: object, draw: () => JSX.Element, eager: boolean): string;
  /** The HTML of `draw(href)` for `key` with the page's links: drawn once
   * per key with each link left open, each then filled with `href` of what
   * the drawing asked for (see [`drawnOnceWithLinks`]). */
  linked<H extends Href>(
    key: string,
    context: object,
    draw: (href: H) => JSX.Element,
    href: H,
  ): string;
}

/** How a component whose first picture may be the page's largest paint
 * (a list's first card: `priority`) is kept: drawn once without it, and
 * given to a page that `wants` it with that picture loaded at once,
 * decoded with the frame and fetched first (the server changes those three
 * attributes of the kept HTML: `eager_first_picture` in
 * src/http/held/placed.rs). So the first card of a page no one asked for
 * comes from the store like the others. */
export interface FirstPicture<P> {
  wants(props: P): boolean;
  /** `props` without the priority: what is drawn and kept. */
  without(props: P): P;
}

let store: FragmentStore | null = null;

export function installFragmentStore(next: FragmentStore | null) {
  store = next;
}

/** The page's API answers (and the lists and objects directly inside
 * them, and the items of a list) by a digest of their JSON, which the
 * server computes natively (src/http/held/page_answers.rs): a key can name a list
 * of twenty cars, or a car, by 24 characters instead of spelling it out.
 * Only on the server, per page. */
let digests: WeakMap<object, string> | null = null;

/** Starts a page's (or a batch of cards') digests afresh. */
export function forgetDigests() {
  digests = new WeakMap();
}

/** Names `answer` by `digest`, and its parts: each item of a list by its
 * own digest in `items` (comma-separated, in order; a car's is the same
 * in every list), each list or object directly inside an object by the
 * answer's digest and its name. An empty `digest` names the items alone
 * (the cards drawn ahead). Answers `answer`. */
export function noteDigests<T>(answer: T, digest: string, items: string): T {
  if (digests === null || answer === null || typeof answer !== "object") return answer;
  if (digest !== "") digests.set(answer, digest);
  if (Array.isArray(answer)) {
    if (items !== "") {
      const each = items.split(",");
      if (each.length === answer.length) {
        answer.forEach((item, i) => {
          if (item !== null && typeof item === "object") digests?.set(item, each[i]);
        });
      }
    }
    return answer;
  }
  for (const [name, inner] of Object.entries(answer)) {
    if (inner !== null && typeof inner === "object") digests.set(inner, `${digest}.${name}`);
  }
  return answer;
}

/** What a key holds of `value`: its digest when it is one of the page's
 * answers (directly inside one, or an item of a list), a list of such
 * items by their digests, otherwise its JSON. */
export function fingerprint(value: unknown): string {
  if (digests !== null && value !== null && typeof value === "object") {
    const digest = digests.get(value);
    if (digest !== undefined) return digest;
    // A part of a list (a page of a batch): its items' digests.
    if (Array.isArray(value) && value.length > 0) {
      const each: string[] = [];
      for (const item of value) {
        const known = item !== null && typeof item === "object" ? digests.get(item) : undefined;
        if (known === undefined) return JSON.stringify(value);
        each.push(known);
      }
      return `[${each.join(",")}]`;
    }
  }
  return JSON.stringify(value) ?? "";
}

/** A key of every prop of `props` (functions hold nothing), each by its
 * [`fingerprint`]. */
export function propsKey<P extends object>(props: P): string {
  let key = "";
  for (const [name, value] of Object.entries(props)) {
    if (typeof value !== "function") key += `${name}=${fingerprint(value)}\u0001`;
  }
  return key;
}

/** A component [`drawnOnceOnServer`] made. On the server, `html` gives its
 * HTML for `props` (a token the server replaces by it) as a string, for a
 * list joined as strings ([`joinedOnServer`]); in the browser it is not
 * there. */
export type DrawnOnce<P> = ComponentType<P> & {
  html?: (props: P, context: object) => string;
};

/** `Component`, drawn once per `keyOf(props)` on the server. `keyOf` must
 * hold everything the markup depends on (functions in props are not drawn);
 * the component must draw the same for the same key on any page: no
 * location, no `useId`, nothing read from outside its props but constants. */
export function drawnOnceOnServer<P extends object>(
  name: string,
  Component: ComponentType<P>,
  keyOf: (props: P) => string,
  firstPicture?: FirstPicture<P>,
): DrawnOnce<P> {
  function html(fragments: FragmentStore, props: P, context: object): string {
    const eager = firstPicture?.wants(props) ?? false;
    const drawn = eager && firstPicture ? firstPicture.without(props) : props;
    return fragments.html(
      `${name}\u0000${keyOf(drawn)}`,
      context,
      () => <Component {...drawn} />,
      eager,
    );
  }
  function ServerFragment(props: P, context: object) {
    if (store === null) return <Component {...props} />;
    return jsxTemplate([html(store, props, context)]);
  }
  ServerFragment.displayName = name;
  ServerFragment.html = (props: P, context: object): string =>
    store === null
      ? renderToString(<Component {...props} />, context)
      : html(store, props, context);
  return ServerFragment as DrawnOnce<P>;
}

/** `Component` whose HTML the server makes with `drawHtml` as a string
 * instead of drawing it: a list of fragments (a grid's cards) as their
 * HTML joined, byte for byte what drawing it gives. It is not kept itself
 * (its parts are): twenty cards drawn as components to find their tokens,
 * and the list kept deflated, were a third of a cold catalogue page's
 * drawing, while joining them is a tenth. Without `drawHtml` (the
 * browser's build leaves it out) or a store, `Component` is drawn. */
export function joinedOnServer<P extends object>(
  Component: ComponentType<P>,
  drawHtml: ((props: P, context: object) => string) | undefined,
): ComponentType<P> {
  function Joined(props: P, context: object) {
    if (store === null || drawHtml === undefined) return <Component {...props} />;
    return jsxTemplate([drawHtml(props, context)]);
  }
  return Joined;
}

/** [`drawnOnceOnServer`] for a component whose markup differs from page to
 * page only by its links (its `href` prop: a catalogue's brand strip keeps
 * the page's other filters in each brand's link). `keyOf` holds everything
 * else; the server draws it once per key and fills in each page's links. */
export function drawnOnceWithLinks<P extends { href: Href }>(
  name: string,
  Component: ComponentType<P>,
  keyOf: (props: P) => string,
): ComponentType<P> {
  function ServerFragment(props: P, context: object) {
    if (store === null) return <Component {...props} />;
    const html = store.linked(
      `${name}\u0000${keyOf(props)}`,
      context,
      (href: P["href"]) => <Component {...props} href={href} />,
      props.href,
    );
    return jsxTemplate([html]);
  }
  ServerFragment.displayName = name;
  return ServerFragment as ComponentType<P>;
}
