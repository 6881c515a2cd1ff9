/** Whether a click on a link is a plain one the page handles itself: the
 * main button, no modifier (a new tab or window is the browser's). */
export function followsInPlace(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}): boolean {
  return (
    !e.defaultPrevented && e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey
  );
}

/** A link drawn as a button (`role="button"`) answers Space as a button
 * does; Enter follows it as a link already. */
export function spaceActivates(act: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key !== " ") return;
    e.preventDefault();
    act();
  };
}

/** A link's handlers when a plain click (or Space) does `act` in place
 * instead of following it: the link itself works without JavaScript. */
export function inPlace(act: () => void) {
  return {
    onClick: (e: MouseEvent) => {
      if (!followsInPlace(e)) return;
      e.preventDefault();
      act();
    },
    onKeyDown: spaceActivates(act),
  };
}
