import { useState } from "react";
import type { CarBrief, Lead, LeadType } from "../../api/types";
import { type CreditRequest, creditFields, creditSummary } from "../../lib/credit";
import { fromPrice } from "../../lib/format";
import { callbackAnswer, carFields } from "../../lib/leads";
import { Dialog } from "../ui/Dialog";
import type { ToastMessage } from "../ui/Toast";
import { LeadField } from "./LeadField";
import { LeadForm } from "./LeadForm";

const SENT: ToastMessage = {
  title: "Заявка отправлена!",
  description: "Мы свяжемся с вами в ближайшее время",
};

export type LeadDialogKind = "credit" | "lease" | "trade_in" | "instalment" | "callback";

const KINDS: Record<
  LeadDialogKind,
  {
    type: LeadType;
    title: string;
    submit: string;
    success: ToastMessage | ((lead: Lead) => ToastMessage);
  }
> = {
  credit: {
    type: "auto_credit",
    title: "Заявка на автокредит",
    submit: "Отправить заявку",
    success: SENT,
  },
  lease: {
    type: "lease_booking",
    title: "Бронирование автомобиля",
    submit: "Забронировать",
    success: {
      title: "Заявка на бронирование отправлена!",
      description: "Мы свяжемся с вами в ближайшее время",
    },
  },
  trade_in: {
    type: "trade_in",
    title: "Заявка на трейд-ин",
    submit: "Отправить заявку",
    success: {
      title: "Заявка отправлена!",
      description: "Наш специалист свяжется с вами в течение 30 минут",
    },
  },
  instalment: {
    type: "contact_form",
    title: "Заявка на рассрочку",
    submit: "Отправить заявку",
    success: SENT,
  },
  callback: {
    type: "callback",
    title: "Перезвоните мне",
    submit: "Жду звонка",
    success: callbackAnswer,
  },
};

interface Props {
  kind: LeadDialogKind;
  open: boolean;
  onClose: () => void;
  car?: CarBrief;
  /** The calculator's loan (credit dialog): sent as desired amount, down
   * payment and term, and shown above the form. */
  credit?: CreditRequest;
}

/** The request dialogs of cards, the car page and the credit page. */
export function LeadDialog({ kind, open, onClose, car, credit }: Props) {
  const spec = KINDS[kind];
  const [ownBrand, setOwnBrand] = useState("");
  const [ownModel, setOwnModel] = useState("");
  const extra = () => ({
    ...(car ? carFields(car) : {}),
    ...(credit ? creditFields(credit) : {}),
    ...(kind === "trade_in"
      ? {
          carBrand: ownBrand.trim() || undefined,
          carModel: ownModel.trim() || undefined,
        }
      : {}),
  });
  const sent = () => {
    setOwnBrand("");
    setOwnModel("");
    onClose();
  };
  return (
    <Dialog open={open} title={spec.title} onClose={onClose}>
      {car && (
        <p class="dialog-car">
          {car.brandName} {car.model} · {fromPrice(car.price)}
        </p>
      )}
      {credit && (
        <p class="dialog-car" data-testid="credit-terms">
          {creditSummary(credit)}
        </p>
      )}
      <LeadForm
        type={spec.type}
        extra={extra}
        success={spec.success}
        submitLabel={spec.submit}
        onSent={sent}
        car={car}
      >
        {kind === "trade_in" && (
          <div class="grid">
            <div>
              <LeadField name="carBrand" label="Марка вашего автомобиля *" required>
                {(a) => (
                  <input
                    {...a}
                    maxLength={100}
                    value={ownBrand}
                    onInput={(e) => setOwnBrand((e.target as HTMLInputElement).value)}
                  />
                )}
              </LeadField>
            </div>
            <div>
              <LeadField name="carModel" label="Модель вашего автомобиля *" required>
                {(a) => (
                  <input
                    {...a}
                    maxLength={100}
                    value={ownModel}
                    onInput={(e) => setOwnModel((e.target as HTMLInputElement).value)}
                  />
                )}
              </LeadField>
            </div>
          </div>
        )}
      </LeadForm>
    </Dialog>
  );
}
