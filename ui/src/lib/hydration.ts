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

/** While the page is taken over, a promise that settles on this part's
 * turn; otherwise (on the server, in a page the browser drew itself, once
 * every held part is taken over or an input came) null: the part is drawn
 * at once. */
export function holdBack(): Promise<void> | null {
  const queue = waiting;
  if (queue === null) return null;
  return new Promise<void>((resolve) => queue.push(resolve));
}

/** The input that takes every waiting part at once (a touch is a pointerdown too). */
export const INPUT_EVENTS = ["pointerdown", "keydown", "focusin"] as const;

/** main.tsx, after `hydrate`: the held parts are taken over in order, one
 * per `schedule`d task; the first input takes the rest. A part taken over
 * may hold parts of its own (a section's cards): they join the queue while
 * it is drawn, and parts are held until the queue is empty or an input
 * came. `done` is called once, when every part is taken (the page is live
 * then, `goLive`). Returns what takes them all at once (for an input that
 * started the hydration itself). */
export function releaseHeldBack(
  done: () => void = () => {},
  schedule: (step: () => void) => void = (step) => setTimeout(step, 0),
  target: EventTarget = window,
): () => void {
  const queue = waiting ?? [];
  let next = 0;
  let stopped = false;
  const stop = () => {
    waiting = null;
    for (const name of INPUT_EVENTS) target.removeEventListener(name, all, true);
    if (!stopped) {
      stopped = true;
      done();
    }
  };
  const all = () => {
    // Nothing is held any more: the parts inside these are drawn with them.
    waiting = null;
    while (next < queue.length) queue[next++]();
    stop();
  };
  const one = () => {
    if (next < queue.length) {
      queue[next++]();
      // Once this part is drawn (its promise's callbacks, in this task),
      // the parts it held are in the queue.
      schedule(one);
    } else stop();
  };
  if (queue.length === 0) {
    stop();
    return all;
  }
  for (const name of INPUT_EVENTS) target.addEventListener(name, all, true);
  schedule(one);
  return all;
}

/** main.tsx, once the page's code has taken the page over, every held part
 * too (`done` of `releaseHeldBack`; main.tsx takes them all at once when
 * the loader held a press that came before the code, `data-early`): the
 * page says so (`data-live` on `<html>`) and the drawn page's loader
 * (src/http/pages/loader.js) is told (`dealership:live`), a task later
 * when it held a press, which it then does again: the parts taken at once
 * have their handlers by then. */
export function goLive(
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
  schedule(tell);
}
