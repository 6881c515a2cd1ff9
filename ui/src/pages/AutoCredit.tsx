import { useState } from "react";
import type { PartnerBank } from "../api/types";
import { CREDIT_PROGRAMS, PARTNER_BANKS } from "../api/urls";
import { CreditBlock } from "../components/credit/CreditBlock";
import { LeadDialog } from "../components/leads/LeadDialog";
import { AdLabel } from "../components/ui/AdLabel";
import { Banner } from "../components/ui/Banner";
import { BrandLogo } from "../components/ui/BrandLogo";
import { NeedsScript } from "../components/ui/NeedsScript";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";
import { splitAdvantages } from "../lib/banks";
import {
  type CreditProgramsAnswer,
  minDownPercent,
  type ProgramsSummary,
  percent,
  pskText,
  rateText,
  statesRate,
} from "../lib/credit";

const REQUIREMENTS = [
  "Возраст от 18 до 65 лет",
  "Паспорт гражданина РФ",
  "Водительское удостоверение",
];

/** The advantages; the cost of credit and the down payment come from the
 * valid programmes (the full cost before the rate, docs/credit.md), and
 * are left out while there are none. */
function advantages(summary: ProgramsSummary | null, lowestDown: number | null): string[][] {
  return [
    ...(summary
      ? [
          [
            pskText(summary.pskMin, summary.pskMax),
            `${capitalize(rateText(summary.rateMin, summary.rateMax))} по программам банков-партнёров`,
          ],
        ]
      : []),
    ["Решение за 30 минут", "Заявка сразу уходит в несколько банков"],
    ["Без поручителей", "Достаточно паспорта и водительского удостоверения"],
    ...(lowestDown === null
      ? []
      : lowestDown === 0
        ? [["Первый взнос от 0%", "Можно оформить автомобиль без первоначального взноса"]]
        : [[`Первый взнос от ${percent(lowestDown)}`, "Минимальный взнос по программам банков"]]),
  ];
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function AutoCredit() {
  useDocumentTitle("Автокредит");
  const settings = useSettings();
  const [open, setOpen] = useState(false);
  const banks = useApi<PartnerBank[]>(PARTNER_BANKS);
  const programs = useApi<CreditProgramsAnswer>(CREDIT_PROGRAMS).data;
  const items = programs?.items ?? [];
  return (
    <>
      <Banner
        desktop={settings.autoCreditBanner}
        mobile={settings.autoCreditBannerMobile}
        alt="Автокредит"
        ad={settings.bannerAds?.autoCreditBanner}
      >
        <h1>Автокредит</h1>
        <p class="hero-subtitle">Оформите кредит на автомобиль за один визит</p>
        <button type="button" class="js-only" onClick={() => setOpen(true)}>
          Подать заявку
        </button>
        <NeedsScript to="подать заявку на автокредит" />
      </Banner>
      <LeadDialog kind="credit" open={open} onClose={() => setOpen(false)} />
      <div class="container page">
        <section class="section" aria-labelledby="requirements-title">
          <h2 id="requirements-title">Требования к заёмщику</h2>
          <ul class="requirements">
            {REQUIREMENTS.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </section>
        <section class="section" aria-labelledby="advantages-title">
          <h2 id="advantages-title">Преимущества</h2>
          <div class="benefits">
            {advantages(
              programs?.summary ?? null,
              items.length > 0 ? minDownPercent(items) : null,
            ).map(([title, text], i) => (
              <article
                key={title}
                class="benefit"
                data-testid={i === 0 ? "first-advantage" : undefined}
              >
                <h3>{title}</h3>
                <p>{text}</p>
              </article>
            ))}
          </div>
        </section>
        <section class="section" aria-labelledby="banks-title">
          <h2 id="banks-title">Банки-партнёры</h2>
          {banks.data && banks.data.length === 0 && (
            <p class="empty">Список банков-партнёров скоро будет добавлен</p>
          )}
          <div class="bank-grid">
            {(banks.data ?? []).map((bank) => (
              <article key={bank.id} class="bank-card" data-testid="bank">
                <BrandLogo name={bank.name} logo={bank.logo} size={48} />
                <h3>{bank.name}</h3>
                {bank.requirements && <p class="muted">{bank.requirements}</p>}
                <p class="chips">
                  {splitAdvantages(bank.advantages)
                    .filter((a) => !statesRate(a))
                    .map((a) => (
                      <span key={a} class="chip-static">
                        {a}
                      </span>
                    ))}
                </p>
                <AdLabel erid={bank.adErid} advertiser={bank.adAdvertiser || bank.name} />
              </article>
            ))}
          </div>
        </section>
        <CreditBlock />
        <p class="js-only">
          <button type="button" onClick={() => setOpen(true)}>
            Подать заявку на автокредит
          </button>
        </p>
        <NeedsScript to="подать заявку на автокредит" />
      </div>
    </>
  );
}
