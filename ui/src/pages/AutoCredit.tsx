import { useState } from "react";
import type { PartnerBank } from "../api/types";
import { PARTNER_BANKS } from "../api/urls";
import { LeadDialog } from "../components/leads/LeadDialog";
import { Banner } from "../components/ui/Banner";
import { BrandLogo } from "../components/ui/BrandLogo";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";
import { splitAdvantages } from "../lib/banks";

const REQUIREMENTS = [
  "Возраст от 18 до 65 лет",
  "Паспорт гражданина РФ",
  "Водительское удостоверение",
];

const ADVANTAGES = [
  ["Ставка от 5,6%", "На некоторые модели по программам банков-партнёров"],
  ["Решение за 30 минут", "Заявка сразу уходит в несколько банков"],
  ["Без поручителей", "Достаточно паспорта и водительского удостоверения"],
  ["Первый взнос от 0%", "Можно оформить автомобиль без первоначального взноса"],
];

export function AutoCredit() {
  useDocumentTitle("Автокредит");
  const settings = useSettings();
  const [open, setOpen] = useState(false);
  const banks = useApi<PartnerBank[]>(PARTNER_BANKS);
  return (
    <>
      <Banner
        desktop={settings.autoCreditBanner}
        mobile={settings.autoCreditBannerMobile}
        alt="Автокредит"
      >
        <h1>Автокредит</h1>
        <p class="hero-subtitle">Оформите кредит на автомобиль за один визит</p>
        <button type="button" onClick={() => setOpen(true)}>
          Подать заявку
        </button>
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
            {ADVANTAGES.map(([title, text]) => (
              <article key={title} class="benefit">
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
                  {splitAdvantages(bank.advantages).map((a) => (
                    <span key={a} class="chip-static">
                      {a}
                    </span>
                  ))}
                </p>
              </article>
            ))}
          </div>
        </section>
        <p>
          <button type="button" onClick={() => setOpen(true)}>
            Подать заявку на автокредит
          </button>
        </p>
      </div>
    </>
  );
}
