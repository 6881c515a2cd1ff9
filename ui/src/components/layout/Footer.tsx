import { Link } from "wouter";
import type { Settings } from "../../api/types";
import { CREDIT_PROGRAMS } from "../../api/urls";
import { useApi } from "../../hooks/useApi";
import { SalonPhoneLink, telHref, useSettings } from "../../hooks/useSettings";
import { askConsent, hasCounters } from "../../lib/consent";
import { type CreditProgramsAnswer, footerCreditText } from "../../lib/credit";
import { drawnOnceOnServer, propsKey } from "../../lib/serverFragments";
import { ROUTES } from "../../routes";

/** Salon name, catalogue links, contacts, credit legal text, disclaimer,
 * the operator's requisites; with a counter set, "Настройки cookie" asks again (lib/consent.ts). */
export function Footer() {
  const settings = useSettings();
  const credit = useApi<CreditProgramsAnswer>(CREDIT_PROGRAMS).data;
  // The credit sentence, from the valid programmes' summary: the banks, the
  // full cost of credit before the rate, the term; none while there are no
  // figures (docs/credit.md).
  return (
    <DrawnFooter settings={settings} credit={credit ? footerCreditText(credit.summary) : ""} />
  );
}

interface Props {
  settings: Settings;
  credit: string;
}

function FooterMarkup({ settings: s, credit }: Props) {
  const hours = (s.workingHours ?? "").split("\n").filter((line) => line.trim());
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
                <SalonPhoneLink number={s.phone} />
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
        {credit && <p data-testid="footer-credit">{credit}</p>}
        <p>
          Информация на сайте носит справочный характер и не является публичной офертой (ст. 437 ГК
          РФ). Цены, комплектации и наличие уточняйте у менеджеров.
        </p>
        {requisites(s) && <p data-testid="footer-requisites">{requisites(s)}</p>}
        <p>
          <Link href={ROUTES.privacy}>Политика обработки персональных данных</Link> ·{" "}
          <Link href={ROUTES.consent}>Согласие на обработку персональных данных</Link>
          {hasCounters(s.yandexMetrikaId, s.googleAnalyticsId, s.callTrackingScript) && (
            <>
              {" · "}
              <button
                type="button"
                class="footer-link"
                onClick={() =>
                  askConsent(s.yandexMetrikaId, s.googleAnalyticsId, true, s.callTrackingScript)
                }
              >
                Настройки cookie
              </button>
            </>
          )}
        </p>
      </div>
    </footer>
  );
}

/** The operator's requisites, from the operator's details the owner sets
 * (the same the policy, the consent and the exports name; docs/admin.md,
 * "One source per fact"): "ООО «…», ИНН …, ОГРН …, адрес". */
export function requisites(
  s: Pick<Settings, "operatorName" | "operatorInn" | "operatorOgrn" | "operatorAddress">,
): string {
  const parts = [
    s.operatorName?.trim(),
    s.operatorInn?.trim() && `ИНН ${s.operatorInn.trim()}`,
    s.operatorOgrn?.trim() &&
      `${s.operatorOgrn.trim().length === 15 ? "ОГРНИП" : "ОГРН"} ${s.operatorOgrn.trim()}`,
    s.operatorAddress?.trim(),
  ];
  return parts.filter(Boolean).join(", ");
}

/** Keyed by the settings' digest (the page's answer, `propsKey`), not their
 * JSON: spelling them out was most of the footer's cost on a cold page. */
const DrawnFooter = drawnOnceOnServer("Footer", FooterMarkup, propsKey);
