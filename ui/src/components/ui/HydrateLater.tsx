import { type ReactNode, Suspense, useRef } from "react";
import { holdBack } from "../../lib/hydration";

function Held({ children }: { children: ReactNode }) {
  // Decided once, when the part is first drawn (the component and its
  // hooks outlive the suspension): a part already taken over is never held
  // again, whenever it is drawn again.
  const wait = useRef<Promise<void> | null | undefined>(undefined);
  if (wait.current === undefined) {
    const held = holdBack();
    wait.current = held
      ? held.then(() => {
          wait.current = null;
        })
      : null;
  }
  // Preact keeps the server's element of a part that suspends while
  // hydrating, and takes it over when the promise settles.
  if (wait.current) throw wait.current;
  return <>{children}</>;
}

/** Its child is taken over after the rest of the page (lib/hydration.ts).
 * The child must draw exactly one element on the server: a suspended part
 * keeps the first element it meets. */
export function HydrateLater({ children }: { children: ReactNode }) {
  // The server draws the child alone: a boundary draws no element, and 23
  // of them cost a home page's drawing some 2 ms in QuickJS.
  if (typeof document === "undefined") return <>{children}</>;
  return (
    <Suspense fallback={null}>
      <Held>{children}</Held>
    </Suspense>
  );
}
