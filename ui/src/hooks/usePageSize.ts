import { useLayoutEffect, useState } from "react";
import { isHydrated } from "./useHydrated";

/** A window narrower than 768 px: a phone's (spec: 10 cars a page there). */
const PHONE_QUERY = "(max-width: 767px)";

/** Whether the page the browser takes over was drawn for a phone: the
 * server draws a catalogue for the screen the request says
 * (src/http/screen.rs) and marks it (`<div id="app" data-screen="phone">`). */
let drawnForPhone = false;

/** The server build before drawing a page, main.tsx before taking one over. */
export function setDrawnForPhone(phone: boolean): void {
  drawnForPhone = phone;
}

/** Whether the window is a phone's (narrower than 768 px). On the server
 * and while the browser takes the server's markup over, whether the page
 * was drawn for a phone; then the window's own, followed as it changes.
 * With `watch` false the window is not asked (a list of a fixed size:
 * nothing to draw again). */
export function usePhoneScreen(watch = true): boolean {
  const [phone, setPhone] = useState(() =>
    isHydrated() ? watch && matchMedia(PHONE_QUERY).matches : drawnForPhone,
  );
  useLayoutEffect(() => {
    if (!watch) return;
    const list = matchMedia(PHONE_QUERY);
    const update = () => setPhone(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [watch]);
  return phone;
}

/** 20 cars per page, 10 on a phone's screen (`usePhoneScreen`). */
export function usePageSize(watch = true): number {
  return usePhoneScreen(watch) ? 10 : 20;
}
