import { useLayoutEffect, useState } from "react";

/** Set once the browser has taken over the server's markup (main.tsx). */
let hydrated = false;

/** Called by main.tsx before drawing a page the server did not draw, and
 * after taking one over. */
export function markHydrated(): void {
  hydrated = true;
}

/** False on the server and while the browser takes the server's markup
 * over, true after: what only the browser knows (the saved lists) is shown
 * from then, so both draw the same first markup. */
export function useHydrated(): boolean {
  const [done, setDone] = useState(hydrated);
  // Before the first paint of the browser's own frame, so a saved list or a
  // phone's page size shows without a flash of the server's guess.
  useLayoutEffect(() => {
    if (!done) setDone(true);
  }, [done]);
  return done;
}

/** Whether the first markup is the browser's own (no server markup to match). */
export function isHydrated(): boolean {
  return hydrated;
}
