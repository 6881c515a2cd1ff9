import { useState } from "react";
import { LeadField } from "../components/leads/LeadField";
import { LeadForm } from "../components/leads/LeadForm";
import { Banner } from "../components/ui/Banner";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";
import { CAR_MILEAGE_MAX, CAR_YEAR_MIN, tradeInProblems } from "../lib/leads";

const ADVANTAGES = [
  ["Оценка за 30 минут", "Осмотрим автомобиль и назовём цену в день обращения"],
  ["Выгодная цена", "Зачтём стоимость вашего автомобиля в счёт нового"],
  ["Всё в один день", "Оформим документы на сдачу и покупку одновременно"],
];

const currentYear = new Date().getFullYear();

export function TradeIn() {
  useDocumentTitle("Трейд-ин");
  const settings = useSettings();
  const [brand, setBrand] = useState("");
  const [model, setModel] = useState("");
  const [year, setYear] = useState("");
  const [mileage, setMileage] = useState("");
  const extra = () => {
    const y = Number.parseInt(year, 10);
    const km = Number.parseInt(mileage.replace(/\s/g, ""), 10);
    return {
      carBrand: brand.trim() || undefined,
      carModel: model.trim() || undefined,
      carYear: Number.isFinite(y) ? y : undefined,
      carMileage: Number.isFinite(km) ? km : undefined,
    };
  };
  const sent = () => {
    setBrand("");
    setModel("");
    setYear("");
    setMileage("");
  };
  return (
    <>
      <Banner
        desktop={settings.tradeInBanner}
        mobile={settings.tradeInBannerMobile}
        alt="Трейд-ин"
        ad={settings.bannerAds?.tradeInBanner}
      >
        <h1>Трейд-ин</h1>
        <p class="hero-subtitle">Обменяйте свой автомобиль на новый с выгодой</p>
      </Banner>
      <div class="container page two-columns">
        <section aria-labelledby="trade-in-form">
          <h2 id="trade-in-form">Оценить мой автомобиль</h2>
          <LeadForm
            type="trade_in"
            extra={extra}
            validate={() => tradeInProblems(year, mileage)}
            success={{
              title: "Заявка отправлена!",
              description: "Наш специалист свяжется с вами в течение 30 минут",
            }}
            submitLabel="Оценить автомобиль"
            nameLabel="Ваше имя *"
            phoneLabel="Телефон *"
            onSent={sent}
            disableUntilFilled
          >
            <div class="grid">
              <div>
                <LeadField name="carBrand" label="Марка автомобиля">
                  {(a) => (
                    <input
                      {...a}
                      maxLength={100}
                      value={brand}
                      onInput={(e) => setBrand((e.target as HTMLInputElement).value)}
                    />
                  )}
                </LeadField>
              </div>
              <div>
                <LeadField name="carModel" label="Модель">
                  {(a) => (
                    <input
                      {...a}
                      maxLength={100}
                      value={model}
                      onInput={(e) => setModel((e.target as HTMLInputElement).value)}
                    />
                  )}
                </LeadField>
              </div>
            </div>
            <div class="grid">
              <div>
                <LeadField name="carYear" label="Год выпуска">
                  {(a) => (
                    <input
                      {...a}
                      type="number"
                      inputMode="numeric"
                      min={CAR_YEAR_MIN}
                      max={currentYear + 1}
                      value={year}
                      onInput={(e) => setYear((e.target as HTMLInputElement).value)}
                    />
                  )}
                </LeadField>
              </div>
              <div>
                <LeadField name="carMileage" label="Пробег, км">
                  {(a) => (
                    <input
                      {...a}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={CAR_MILEAGE_MAX}
                      value={mileage}
                      onInput={(e) => setMileage((e.target as HTMLInputElement).value)}
                    />
                  )}
                </LeadField>
              </div>
            </div>
          </LeadForm>
        </section>
        <section aria-labelledby="trade-in-advantages">
          <h2 id="trade-in-advantages">Почему трейд-ин у нас</h2>
          {ADVANTAGES.map(([title, text]) => (
            <article key={title} class="benefit">
              <h3>{title}</h3>
              <p>{text}</p>
            </article>
          ))}
        </section>
      </div>
    </>
  );
}
