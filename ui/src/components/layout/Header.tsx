import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { SalonPhoneLink, SalonPhoneNumber, telHref, useSettings } from "../../hooks/useSettings";
import { inPlace } from "../../lib/links";
import { drawnOnceOnServer } from "../../lib/serverFragments";
import { NAV_LINKS, ROUTES } from "../../routes";
import { SavedLinks } from "../saved/SavedLinks";
import { keepTabInside, useModal } from "../ui/Dialog";
import { CatalogueModal } from "./CatalogueModal";

/** Logo or salon name, six links, the phone; a side drawer below 1280 px.
 * What goes at which width is in app.css ("Header and drawer"). */
export function Header() {
  const settings = useSettings();
  const [location] = useLocation();
  const [drawer, setDrawer] = useState(false);
  const [catalogue, setCatalogue] = useState(false);

  useEffect(() => setDrawer(false), [location]);

  return (
    <header class="site-header">
      <DrawnHeaderRow
        salonName={settings.salonName}
        phone={settings.phone}
        current={NAV_LINKS.find((l) => l.href === location)?.href ?? ""}
        drawer={drawer}
        onCatalogue={() => setCatalogue(true)}
        onDrawer={() => setDrawer(true)}
      />
      <DrawnMenuDrawer
        open={drawer}
        onClose={() => setDrawer(false)}
        phone={settings.phone}
        address={settings.fullAddress || settings.address}
      />
      <CatalogueModal open={catalogue} onClose={() => setCatalogue(false)} />
    </header>
  );
}

interface RowProps {
  salonName: string;
  phone: string;
  /** The menu link of the current page, if it is one: the row is drawn
   * once per menu link (a car's page draws no row of its own). */
  current: string;
  drawer: boolean;
  onCatalogue: () => void;
  onDrawer: () => void;
}

/** Logo, menu (the current page marked), catalogue button, saved links,
 * phone and burger: the same on every page but for the marked link. */
function HeaderRow({ salonName, phone, current, drawer, onCatalogue, onDrawer }: RowProps) {
  return (
    <div class="container header-row">
      <Link href={ROUTES.home} class="logo">
        {salonName}
      </Link>
      {/* Without JavaScript the burger cannot open the drawer: the menu
          stays in the row on every width (nojs-shown). */}
      <nav class="main-nav nojs-shown" aria-label="Основное меню">
        <ul>
          {NAV_LINKS.map((l) => (
            <li key={l.href}>
              <Link href={l.href} aria-current={current === l.href ? "page" : undefined}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A link to the new cars without JavaScript; a plain click asks which catalogue. */}
      <a
        href={ROUTES.newCars}
        role="button"
        class="outline catalogue-button"
        {...inPlace(onCatalogue)}
      >
        Каталог
      </a>
      <SavedLinks />
      {phone && (
        <a class="header-phone" href={telHref(phone)}>
          <PhoneIcon />
          <SalonPhoneNumber class="header-phone-number" number={phone} />
        </a>
      )}
      <button
        type="button"
        class="burger outline secondary js-only"
        aria-label="Открыть меню"
        aria-expanded={drawer}
        aria-controls="drawer"
        onClick={onDrawer}
      >
        ☰
      </button>
    </div>
  );
}

const DrawnHeaderRow = drawnOnceOnServer("HeaderRow", HeaderRow, (p) =>
  JSON.stringify([p.salonName, p.phone, p.current, p.drawer]),
);

interface MenuProps {
  open: boolean;
  onClose: () => void;
  phone: string;
  address: string;
}

/** The drawer with the phone, the address and the menu: the same on every
 * page (its links mark no page). */
function MenuDrawer({ open, onClose, phone, address }: MenuProps) {
  return (
    <Drawer open={open} onClose={onClose}>
      {phone && <SalonPhoneLink class="drawer-phone" number={phone} />}
      <p class="drawer-address">{address}</p>
      <nav aria-label="Меню">
        <ul>
          {NAV_LINKS.map((l) => (
            <li key={l.href}>
              <Link href={l.href}>{l.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </Drawer>
  );
}

/** Drawn once on the server: its six links were a fifth of a catalogue
 * page's drawing outside its list (docs/rendering.md). */
const DrawnMenuDrawer = drawnOnceOnServer("MenuDrawer", MenuDrawer, (p) =>
  JSON.stringify([p.phone, p.address, p.open]),
);

/** A handset: on a phone the number is read out, not shown. */
function PhoneIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z"
        fill="currentColor"
      />
    </svg>
  );
}

/** The phone menu: a modal <dialog> drawn at the side. The page behind is
 * inert while it is open, Escape and a click on the backdrop close it, and
 * focus goes back to the burger. */
function Drawer({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const closed = useModal(ref, open, onClose);
  return (
    <dialog
      ref={ref}
      id="drawer"
      class="drawer"
      aria-label="Меню"
      onClose={closed}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      onKeyDown={keepTabInside}
    >
      <div class="drawer-panel">
        <button
          type="button"
          class="drawer-close outline secondary"
          aria-label="Закрыть меню"
          onClick={onClose}
        >
          ×
        </button>
        {children}
      </div>
    </dialog>
  );
}
