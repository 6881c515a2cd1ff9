import { useLayoutEffect, useState } from "react";
import { isHydrated } from "./useHydrated";

/** Whether the media query matches; false on the server and while the
 * browser takes the server's markup over (it draws for a wide screen). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(
    () => isHydrated() && typeof window !== "undefined" && window.matchMedia(query).matches,
  );
  useLayoutEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}

/** 20 cars per page, 10 when the window is narrower than 768 px. */
export function usePageSize(): number {
  return useMediaQuery("(max-width: 767px)") ? 10 : 20;
}
