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

afterEach(() => releaseHeldBack(() => {}, new EventTarget()));

describe("taking the page over in steps", () => {
  it("holds nothing back outside hydration", () => {
    expect(holdBack()).toBeNull();
  });

  it("releases the held parts one per task, in order", async () => {
    beginHydration();
    const parts = [holdBack(), holdBack(), holdBack()] as Promise<void>[];
    expect(parts.every((p) => p instanceof Promise)).toBe(true);
    const clock = manual();
    releaseHeldBack(clock.schedule, new EventTarget());
    // After hydrate() nothing more is held: a part drawn again draws at once.
    expect(holdBack()).toBeNull();
    expect(await settled(parts)).toEqual([false, false, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, false, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, true, false]);
    clock.run();
    expect(await settled(parts)).toEqual([true, true, true]);
    expect(clock.pending).toBe(0);
  });

  for (const input of ["pointerdown", "keydown", "focusin", "touchstart"]) {
    it(`a ${input} takes every part still waiting at once`, async () => {
      beginHydration();
      const parts = [holdBack(), holdBack(), holdBack()] as Promise<void>[];
      const clock = manual();
      const target = new EventTarget();
      releaseHeldBack(clock.schedule, target);
      clock.run();
      target.dispatchEvent(new Event(input));
      expect(await settled(parts)).toEqual([true, true, true]);
      // The queued step finds nothing left, and nothing is released twice.
      clock.run();
      expect(clock.pending).toBe(0);
    });
  }

  it("gives what releases everything at once", async () => {
    beginHydration();
    const parts = [holdBack(), holdBack()] as Promise<void>[];
    const clock = manual();
    const all = releaseHeldBack(clock.schedule, new EventTarget());
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
    releaseHeldBack(clock.schedule, target);
    clock.run();
    expect(added.sort()).toEqual(["focusin", "keydown", "pointerdown", "touchstart"]);
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
    let taken = 0;
    goLive(() => (taken += 1), clock.schedule, root);
    expect(told).toEqual(["data-live"]);
    expect(taken).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it("takes every waiting part before a held press is done again", () => {
    const { root, told, names } = fakeRoot(["data-early"]);
    const clock = manual();
    let taken = 0;
    goLive(() => (taken += 1), clock.schedule, root);
    // The parts are taken at once; the loader hears a task later.
    expect(taken).toBe(1);
    expect(names.has("data-early")).toBe(false);
    expect(told).toEqual([]);
    clock.run();
    expect(told).toEqual(["data-live"]);
  });
});
