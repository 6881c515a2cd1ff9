/** Taking the server's markup over in steps (docs/rendering.md): parts
 * below the first screen (a car's card, the home page's sections, the
 * footer) are held back while the page hydrates and taken over afterwards,
 * one per task, so no single task of the main thread takes them all at once
 * (a phone's "total blocking time"). Any input (a press, a key, a focus)
 * takes every part still waiting at once, before its click lands. A held
 * part keeps the server's elements on screen meanwhile: it is the same
 * markup, only not yet live. */

let waiting: (() => void)[] | null = null;

/** main.tsx, before `hydrate`. */
export function beginHydration(): void {
  waiting = [];
}

/** While the page hydrates, a promise that settles on this part's turn;
 * otherwise (on the server, in a page the browser drew itself, after the
 * page has hydrated) null: the part is drawn at once. */
export function holdBack(): Promise<void> | null {
  const queue = waiting;
  if (queue === null) return null;
  return new Promise<void>((resolve) => queue.push(resolve));
}

/** The input that takes every waiting part at once. */
export const INPUT_EVENTS = ["pointerdown", "keydown", "focusin", "touchstart"] as const;

/** main.tsx, after `hydrate`: the held parts are taken over in order, one
 * per `schedule`d task; the first input takes the rest. Returns what takes
 * them all at once (for an input that started the hydration itself). */
export function releaseHeldBack(
  schedule: (step: () => void) => void = (step) => setTimeout(step, 0),
  target: EventTarget = window,
): () => void {
  const queue = waiting ?? [];
  waiting = null;
  let next = 0;
  const stop = () => {
    for (const name of INPUT_EVENTS) target.removeEventListener(name, all, true);
  };
  const all = () => {
    while (next < queue.length) queue[next++]();
    stop();
  };
  const one = () => {
    if (next < queue.length) queue[next++]();
    if (next < queue.length) schedule(one);
    else stop();
  };
  if (queue.length === 0) return all;
  for (const name of INPUT_EVENTS) target.addEventListener(name, all, true);
  schedule(one);
  return all;
}

/** main.tsx, once the page's code has taken the page over: the page says
 * so (`data-live` on `<html>`) and the drawn page's loader
 * (src/http/pages/loader.js) is told (`dealership:live`). When the loader
 * held a press that came before the code (`data-early`), every part still
 * waiting is taken at once (`takeAll`, from `releaseHeldBack`) and the
 * press is done again a task later, once those parts have their handlers. */
export function goLive(
  takeAll: () => void,
  schedule: (step: () => void) => void = (step) => setTimeout(step, 0),
  root: HTMLElement = document.documentElement,
): void {
  root.setAttribute("data-live", "");
  const tell = () => root.ownerDocument.dispatchEvent(new Event("dealership:live"));
  if (!root.hasAttribute("data-early")) {
    tell();
    return;
  }
  root.removeAttribute("data-early");
  takeAll();
  schedule(tell);
}
