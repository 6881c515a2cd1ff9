import { type ReactNode, Suspense } from "react";
import { holdBack } from "../../lib/hydration";

function Held({ children }: { children: ReactNode }) {
  const wait = holdBack();
  // Preact keeps the server's element of a part that suspends while
  // hydrating, and takes it over when the promise settles.
  if (wait) throw wait;
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
