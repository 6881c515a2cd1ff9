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

export interface FragmentStore {
  /** The HTML of `draw()` for `key`, drawn with the page's `context` the
   * first time. */
  html(key: string, context: object, draw: () => JSX.Element): string;
}

let store: FragmentStore | null = null;

export function installFragmentStore(next: FragmentStore | null) {
  store = next;
}

/** `Component`, drawn once per `keyOf(props)` on the server. `keyOf` must
 * hold everything the markup depends on (functions in props are not drawn);
 * the component must draw the same for the same key on any page: no
 * location, no `useId`, nothing read from outside its props but constants. */
export function drawnOnceOnServer<P extends object>(
  name: string,
  Component: ComponentType<P>,
  keyOf: (props: P) => string,
): ComponentType<P> {
  function ServerFragment(props: P, context: object) {
    if (store === null) return <Component {...props} />;
    const html = store.html(`${name}\u0000${keyOf(props)}`, context, () => (
      <Component {...props} />
    ));
    return jsxTemplate([html]);
  }
  ServerFragment.displayName = name;
  return ServerFragment as ComponentType<P>;
}
