import { useState } from "react";
import type { BodyTypeInfo } from "../api/types";
import { BODY_TYPES } from "../api/urls";
import { LeadForm } from "../components/leads/LeadForm";
import { Banner } from "../components/ui/Banner";
import { Dialog } from "../components/ui/Dialog";
import { NeedsScript } from "../components/ui/NeedsScript";
import { useApi } from "../hooks/useApi";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../hooks/useSettings";
import { formatNumber } from "../lib/format";
import { BODY_TYPE_LABELS, FUEL_LABELS, TRANSMISSION_LABELS } from "../lib/labels";

const BUDGET_MIN = 500_000;
const BUDGET_MAX = 10_000_000;
const FUELS = ["gasoline", "diesel", "hybrid"];

function toggle(list: string[], value: string, on: boolean): string[] {
  return on ? [...list, value] : list.filter((v) => v !== value);
}

export function AutoSelection() {
  useDocumentTitle("Подбор автомобиля");
  const settings = useSettings();
  const types = useApi<BodyTypeInfo[]>(BODY_TYPES).data ?? [];
  const [budget, setBudget] = useState(2_000_000);
  const [bodies, setBodies] = useState<string[]>([]);
  const [transmission, setTransmission] = useState("");
  const [fuels, setFuels] = useState<string[]>([]);
  const [open, setOpen] = useState(false);

  const extra = () => ({
    budget: String(budget),
    bodyType: bodies.join(",") || undefined,
    transmission: transmission || undefined,
    fuelTypes: fuels.join(",") || undefined,
  });
  const sent = () => {
    setOpen(false);
    setBodies([]);
    setTransmission("");
    setFuels([]);
  };

  return (
    <>
      <Banner
        desktop={settings.autoSelectionBanner}
        mobile={settings.autoSelectionBannerMobile}
        alt="Подбор автомобиля"
        ad={settings.bannerAds?.autoSelectionBanner}
      >
        <h1>Подбор автомобиля</h1>
        <p class="hero-subtitle">Расскажите, какой автомобиль вам нужен, — мы подберём варианты</p>
      </Banner>
      <div class="container page narrow">
        <form
          class="selection-form"
          onSubmit={(e) => {
            e.preventDefault();
            setOpen(true);
          }}
        >
          <NeedsScript />
          <label>
            Бюджет: <strong>до {formatNumber(budget)} ₽</strong>
            <input
              type="range"
              name="budget"
              min={BUDGET_MIN}
              max={BUDGET_MAX}
              step={100_000}
              value={budget}
              onInput={(e) => setBudget(Number((e.target as HTMLInputElement).value))}
            />
          </label>
          <fieldset>
            <legend>Тип кузова</legend>
            {(types.length
              ? types.map((t) => [t.bodyType, t.labelSingle])
              : Object.entries(BODY_TYPE_LABELS).map(([k, v]) => [k, v[1]])
            ).map(([code, label]) => (
              <label key={code}>
                <input
                  type="checkbox"
                  name="bodyType"
                  value={code}
                  checked={bodies.includes(code)}
                  onChange={(e) =>
                    setBodies(toggle(bodies, code, (e.target as HTMLInputElement).checked))
                  }
                />
                {label}
              </label>
            ))}
          </fieldset>
          <label>
            Коробка передач
            <select
              name="transmission"
              value={transmission}
              onChange={(e) => setTransmission((e.target as HTMLSelectElement).value)}
            >
              <option value="">Любая</option>
              {Object.entries(TRANSMISSION_LABELS).map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <fieldset>
            <legend>Тип топлива</legend>
            {FUELS.map((code) => (
              <label key={code}>
                <input
                  type="checkbox"
                  name="fuelType"
                  value={code}
                  checked={fuels.includes(code)}
                  onChange={(e) =>
                    setFuels(toggle(fuels, code, (e.target as HTMLInputElement).checked))
                  }
                />
                {FUEL_LABELS[code]}
              </label>
            ))}
          </fieldset>
          <button type="submit">Подобрать автомобиль</button>
        </form>
      </div>
      <Dialog open={open} title="Оставьте контакты" onClose={() => setOpen(false)}>
        <p>Специалист подберёт варианты и перезвонит вам.</p>
        <LeadForm
          type="auto_selection"
          extra={extra}
          success={{
            title: "Заявка отправлена!",
            description: "Мы свяжемся с вами в ближайшее время",
          }}
          submitLabel="Отправить заявку"
          onSent={sent}
        />
      </Dialog>
    </>
  );
}
