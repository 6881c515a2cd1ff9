/** The cookie notice (lib/consent.ts): a region at the bottom of the window,
 * not a dialog: the page stays usable behind it, and the page gets room
 * below its end so the notice covers nothing for good. First in the
 * document, so Tab and a screen reader meet it first. A lazily loaded chunk,
 * drawn in a root of its own (never by the server). */
import { render } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
// Types only: the chunk imports nothing but preact, so the bundler keeps
// the always-loaded modules in their one chunk (npm run size).
import type { ConsentChoice } from "../../lib/consent";
import "./cookie-notice.css";

/** ROUTES.privacy. */
const PRIVACY = "/privacy";

/** A plain click goes through the history, as wouter's links do (wouter
 * hears every pushState); others (a new tab) are the browser's. */
function openPrivacy(e: MouseEvent) {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  history.pushState(null, "", PRIVACY);
}

/** What the counters are called in the notice, by which are set (`calls`:
 * the call-tracking service's script, lib/callTracking.ts). */
export function noticeText(yandex: boolean, google: boolean, calls = false): string {
  const names = [
    yandex && "Яндекс Метрику",
    google && "Google Analytics",
    calls && "сервис учёта звонков",
  ].filter((n): n is string => !!n);
  const last = names.pop() ?? "Яндекс Метрику";
  const all = names.length ? `${names.join(", ")} и ${last}` : last;
  const why = calls
    ? "чтобы понимать, как работает сайт, и показывать номер телефона для вашего визита"
    : "чтобы понимать, как работает сайт";
  const start = names.length
    ? "Счётчики включатся"
    : yandex || google
      ? "Счётчик включится"
      : "Сервис включится";
  return `Мы используем cookie и ${all}, ${why}. ${start}, только если вы согласитесь.`;
}

/** The counters' cookies in `cookies` (document.cookie): Metrika's
 * `_ym_*` (first-party ids), Google's `_ga`, `_ga_*`,
 * `_gid` and `_gat*`; the call-tracking scripts' `_ct*` (Calltouch) and
 * `_comagic*` (UIS/CoMagic). */
export function counterCookies(cookies: string): string[] {
  return cookies
    .split(";")
    .map((c) => c.split("=")[0].trim())
    .filter((name) => /^(_ym_|_ga$|_ga_|_gid$|_gat|_ct|_comagic)/.test(name));
}

/** A refusal after an acceptance: the counters' cookies go, on this host
 * and on its parent domains (where the counters set them). */
export function dropCounterCookies(doc: Document = document): void {
  const parts = doc.location.hostname.split(".");
  const domains = [""];
  for (let i = 0; i < parts.length - 1; i += 1)
    domains.push(`; domain=.${parts.slice(i).join(".")}`);
  for (const name of counterCookies(doc.cookie)) {
    for (const domain of domains) {
      doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain}`;
    }
  }
}

/** The buttons' words, which the choice kept is told by. */
const CHOICES: [ConsentChoice, string][] = [
  ["accepted", "Принять"],
  ["refused", "Отказаться"],
];

/** What the visitor chose before, said when the notice is asked for again. */
export function currentText(current: ConsentChoice): string {
  const word = CHOICES.find(([c]) => c === current)?.[1];
  return `Сейчас вы выбрали «${word}».`;
}

interface Props {
  text: string;
  focus: boolean;
  /** The choice kept (the footer asked again), or null on a first ask. */
  current?: ConsentChoice | null;
  choose: (choice: ConsentChoice) => void;
}

export function CookieNotice({ text, focus, current = null, choose }: Props) {
  const ref = useRef<HTMLElement>(null);
  // Before the first paint: no frame with the page covered or focus elsewhere.
  useLayoutEffect(() => {
    const notice = ref.current;
    if (!notice) return;
    if (focus) notice.focus();
    // Room below the page's end and for focused controls, as tall as the notice.
    const place = () => {
      const height = `${notice.offsetHeight}px`;
      document.body.style.paddingBottom = height;
      document.documentElement.style.scrollPaddingBottom = height;
    };
    place();
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(place);
    observer?.observe(notice);
    return () => {
      observer?.disconnect();
      document.body.style.paddingBottom = "";
      document.documentElement.style.scrollPaddingBottom = "";
    };
  }, [focus]);
  return (
    <section ref={ref} class="cookie-notice" aria-label="Согласие на cookie" tabIndex={-1}>
      <div class="container">
        <p>
          {text}{" "}
          <a href={PRIVACY} onClick={openPrivacy}>
            Политика обработки персональных данных
          </a>
          {current && (
            <>
              {" "}
              <strong data-testid="cookie-current">{currentText(current)}</strong>
            </>
          )}
        </p>
        <div class="cookie-notice-actions">
          {CHOICES.map(([choice, word]) => (
            <button
              key={choice}
              type="button"
              aria-pressed={current ? current === choice : undefined}
              onClick={() => choose(choice)}
            >
              {word}
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

let host: HTMLElement | null = null;
let asked = 0;

/** Shows the notice (again, when the footer's button asks, with the choice
 * kept: `current`) for the counters set; `choose` keeps the choice and
 * starts or stops them. */
export function showCookieNotice(
  yandex: boolean,
  google: boolean,
  focus: boolean,
  current: ConsentChoice | null,
  choose: (choice: ConsentChoice) => void,
  calls = false,
): void {
  const root = host ?? document.createElement("div");
  host = root;
  if (!root.isConnected) document.body.prepend(root);
  const opener = focus ? (document.activeElement as HTMLElement | null) : null;
  const chosen = (choice: ConsentChoice) => {
    choose(choice);
    if (choice === "refused") dropCounterCookies();
    render(null, root);
    root.remove();
    // Back to the button that asked, as a dialog would.
    if (opener?.isConnected) opener.focus();
  };
  asked += 1;
  render(
    <CookieNotice
      key={asked}
      text={noticeText(yandex, google, calls)}
      focus={focus}
      current={current}
      choose={chosen}
    />,
    root,
  );
}
