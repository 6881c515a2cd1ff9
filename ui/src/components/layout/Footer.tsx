import { Link } from "wouter";
import { telHref, useSettings } from "../../hooks/useSettings";
import { ROUTES } from "../../routes";
import { CreditLegal } from "./CreditLegal";

/** Salon name, catalogue links, contacts, credit legal text, disclaimer, legal entity. */
export function Footer() {
  const s = useSettings();
  const hours = s.workingHours.split("\n").filter((line) => line.trim());
  return (
    <footer class="site-footer">
      <div class="container footer-grid">
        <section>
          <p class="footer-name">{s.salonName}</p>
          <p>Новые автомобили и автомобили с пробегом в Санкт-Петербурге</p>
        </section>
        <section>
          <h2 class="footer-title">Каталог</h2>
          <ul>
            <li>
              <Link href={ROUTES.newCars}>Новые автомобили</Link>
            </li>
            <li>
              <Link href={ROUTES.usedCars}>Автомобили с пробегом</Link>
            </li>
            <li>
              <Link href={ROUTES.leaseCars}>Аренда с выкупом</Link>
            </li>
            <li>
              <Link href={ROUTES.tradeIn}>Трейд-ин</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2 class="footer-title">Контакты</h2>
          <ul>
            {s.phone && (
              <li>
                <a href={telHref(s.phone)}>{s.phone}</a>
              </li>
            )}
            {s.phoneSecondary && (
              <li>
                <a href={telHref(s.phoneSecondary)}>{s.phoneSecondary}</a>
              </li>
            )}
            {s.email && (
              <li>
                <a href={`mailto:${s.email}`}>{s.email}</a>
              </li>
            )}
            <li>{s.fullAddress || s.address}</li>
            {hours.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      </div>
      <div class="container footer-legal">
        <CreditLegal />
        <p>
          Информация на сайте носит справочный характер и не является публичной офертой (ст. 437 ГК
          РФ). Цены, комплектации и наличие уточняйте у менеджеров.
        </p>
        {s.legalEntity && <p>{s.legalEntity}</p>}
        <p>
          <Link href={ROUTES.privacy}>Политика обработки персональных данных</Link> ·{" "}
          <Link href={ROUTES.consent}>Согласие на обработку персональных данных</Link>
        </p>
      </div>
    </footer>
  );
}
