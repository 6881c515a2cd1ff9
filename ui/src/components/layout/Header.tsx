import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { telHref, useSettings } from "../../hooks/useSettings";
import { NAV_LINKS, ROUTES } from "../../routes";
import { SavedLinks } from "../saved/SavedLinks";
import { keepTabInside, useModal } from "../ui/Dialog";
import { CatalogueModal } from "./CatalogueModal";

/** Logo or salon name, six links, the phone; a side drawer on narrow screens. */
export function Header() {
  const settings = useSettings();
  const [location] = useLocation();
  const [drawer, setDrawer] = useState(false);
  const [catalogue, setCatalogue] = useState(false);

  useEffect(() => setDrawer(false), [location]);

  return (
    <header class="site-header">
      <div class="container header-row">
        <Link href={ROUTES.home} class="logo">
          {settings.salonName}
        </Link>
        <nav class="main-nav" aria-label="Основное меню">
          <ul>
            {NAV_LINKS.map((l) => (
              <li key={l.href}>
                <Link href={l.href} aria-current={location === l.href ? "page" : undefined}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="outline catalogue-button" onClick={() => setCatalogue(true)}>
          Каталог
        </button>
        <SavedLinks />
        {settings.phone && (
          <a class="header-phone" href={telHref(settings.phone)}>
            {settings.phone}
          </a>
        )}
        <button
          type="button"
          class="burger outline secondary"
          aria-label="Открыть меню"
          aria-expanded={drawer}
          aria-controls="drawer"
          onClick={() => setDrawer(true)}
        >
          ☰
        </button>
      </div>
      <Drawer open={drawer} onClose={() => setDrawer(false)}>
        {settings.phone && (
          <a class="drawer-phone" href={telHref(settings.phone)}>
            {settings.phone}
          </a>
        )}
        <p class="drawer-address">{settings.fullAddress || settings.address}</p>
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
      <CatalogueModal open={catalogue} onClose={() => setCatalogue(false)} />
    </header>
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
