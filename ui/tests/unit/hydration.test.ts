import { afterEach, describe, expect, it } from "vitest";
import { beginHydration, goLive, holdBack, releaseHeldBack } from "../../src/lib/hydration";

/** A scheduler the test steps by hand. */
function manual() {
  const steps: (() => void)[] = [];
  return {
    schedule: (step: () => void) => steps.push(step),
    run: () => steps.shift()?.(),
    get pending() {
      return steps.length;
    },
  };
}

const settled = async (promises: Promise<void>[]) => {
  const done: boolean[] = promises.map(() => false);
  promises.forEach((p, i) => {
    p.then(() => {
      done[i] = true;
    });
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

afterEach(() => releaseHeldBack(undefined, () => {}, new EventTarget()));

describe("taking the page over in steps", () => {
  it("holds nothing back outside hydration", () => {
    expect(holdBack()).toBeNull();
  });

  it("releases the held parts one per task, in order", async () => {
    beginHydration();
    const parts = [holdBack(), holdBack(), holdBack()] as Promise<void>[];
    expect(parts.every((p) => p instanceof Promise)).toBe(true);
    const clock = manual();
    releaseHeldBack(undefined, clock.schedule, new EventTarget());
    expect(await settled(parts)).toEqual([false, false, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, false, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, true, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, true, true]);
    // One look more finds the queue empty: nothing is held any more, a
    // part drawn again draws at once.
    expect(clock.pending).toBe(1);
    clock.run();
    expect(clock.pending).toBe(0);
    expect(holdBack()).toBeNull();
  });

  it("holds the parts inside a part taken over, after the rest", async () => {
    beginHydration();
    const section = holdBack() as Promise<void>;
    const footer = holdBack() as Promise<void>;
    // The section, drawn on its turn, holds its cards.
    const cards: Promise<void>[] = [];
    section.then(() => {
      cards.push(holdBack() as Promise<void>, holdBack() as Promise<void>);
    });
    const clock = manual();
    releaseHeldBack(undefined, clock.schedule, new EventTarget());
    clock.run();
    expect(await settled([section, footer])).toEqual([true, false]);
    expect(cards.every((c) => c instanceof Promise)).toBe(true);
    clock.run();
    expect(await settled([footer, ...cards])).toEqual([true, false, false]);
    clock.run();
    clock.run();
    expect(await settled(cards)).toEqual([true, true]);
    clock.run();
    expect(clock.pending).toBe(0);
  });

  it("an input takes the parts inside those it takes at once", async () => {
    beginHydration();
    const section = holdBack() as Promise<void>;
    let inside: Promise<void> | null | undefined;
    section.then(() => {
      inside = holdBack();
    });
    const clock = manual();
    const target = new EventTarget();
    releaseHeldBack(undefined, clock.schedule, target);
    target.dispatchEvent(new Event("pointerdown"));
    await settled([section]);
    expect(inside).toBeNull();
  });

  for (const input of ["pointerdown", "keydown", "focusin"]) {
    it(`a ${input} takes every part still waiting at once`, async () => {
      beginHydration();
      const parts = [holdBack(), holdBack(), holdBack()] as Promise<void>[];
      const clock = manual();
      const target = new EventTarget();
      releaseHeldBack(undefined, clock.schedule, target);
      clock.run();
      target.dispatchEvent(new Event(input));
      expect(await settled(parts)).toEqual([true, true, true]);
      // The queued step finds nothing left, and nothing is released twice.
      clock.run();
      expect(clock.pending).toBe(0);
    });
  }

  it("says once when every part is taken, in turn or at once", async () => {
    for (const atOnce of [false, true]) {
      beginHydration();
      const section = holdBack() as Promise<void>;
      section.then(() => holdBack());
      let done = 0;
      const clock = manual();
      const all = releaseHeldBack(() => (done += 1), clock.schedule, new EventTarget());
      if (atOnce) all();
      expect(done).toBe(atOnce ? 1 : 0);
      while (clock.pending > 0) {
        clock.run();
        await settled([section]);
        // In turn: only once the queue is found empty.
        if (!atOnce && clock.pending > 0) expect(done).toBe(0);
      }
      expect(done).toBe(1);
      all();
      expect(done).toBe(1);
    }
    // Nothing held: at once.
    let done = 0;
    releaseHeldBack(
      () => (done += 1),
      () => {},
      new EventTarget(),
    );
    expect(done).toBe(1);
  });

  it("gives what releases everything at once", async () => {
    beginHydration();
    const parts = [holdBack(), holdBack()] as Promise<void>[];
    const clock = manual();
    const all = releaseHeldBack(undefined, clock.schedule, new EventTarget());
    all();
    expect(await settled(parts)).toEqual([true, true]);
    clock.run();
    expect(clock.pending).toBe(0);
  });

  it("listens no more once everything is released", () => {
    beginHydration();
    holdBack();
    const clock = manual();
    const target = new EventTarget();
    const added: string[] = [];
    const removed: string[] = [];
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    target.addEventListener = (name: string, ...rest: [never, never]) => {
      added.push(name);
      add(name, ...rest);
    };
    target.removeEventListener = (name: string, ...rest: [never, never]) => {
      removed.push(name);
      remove(name, ...rest);
    };
    releaseHeldBack(undefined, clock.schedule, target);
    clock.run();
    clock.run();
    expect(added.sort()).toEqual(["focusin", "keydown", "pointerdown"]);
    expect(removed.sort()).toEqual(added);
  });
});

/** `<html>` as goLive sees it: its attributes and its document's events. */
function fakeRoot(attributes: string[]) {
  const names = new Set(attributes);
  const told: string[] = [];
  const document = new EventTarget();
  document.addEventListener("dealership:live", () => told.push([...names].sort().join(" ")));
  const root = {
    setAttribute: (name: string) => names.add(name),
    hasAttribute: (name: string) => names.has(name),
    removeAttribute: (name: string) => names.delete(name),
    ownerDocument: document,
  } as unknown as HTMLElement;
  return { root, told, names };
}

describe("going live after the loader", () => {
  it("says the page is live and tells the loader at once when nothing was pressed", () => {
    const { root, told } = fakeRoot([]);
    const clock = manual();
    goLive(clock.schedule, root);
    expect(told).toEqual(["data-live"]);
    expect(clock.pending).toBe(0);
  });

  it("tells the loader of a held press a task after the page is live", () => {
    const { root, told, names } = fakeRoot(["data-early"]);
    const clock = manual();
    goLive(clock.schedule, root);
    // The parts taken at once get their handlers first; the loader hears a
    // task later and does the press again.
    expect(names.has("data-live")).toBe(true);
    expect(names.has("data-early")).toBe(false);
    expect(told).toEqual([]);
    clock.run();
    expect(told).toEqual(["data-live"]);
  });
});
