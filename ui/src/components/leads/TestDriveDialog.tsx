/** The test-drive request: a day, then a time slot (two taps), name, phone
 * and the consents. A lazily loaded chunk: only a car page's button opens it. */
import { useMemo, useState } from "react";
import type { CarBrief } from "../../api/types";
import { useSettings } from "../../hooks/useSettings";
import { fromPrice } from "../../lib/format";
import { carFields } from "../../lib/leads";
import { salonOf } from "../../lib/salons";
import {
  DEFAULT_SCHEDULE,
  longDate,
  noTimeMessage,
  openDays,
  visitText,
  type WorkSchedule,
} from "../../lib/slots";
import { Dialog } from "../ui/Dialog";
import { ChoiceGroup } from "./ChoiceGroup";
import { LeadForm } from "./LeadForm";
import "./test-drive.css";

/** The server's words (docs/leads.md). */
export const NO_DATE = "Выберите дату тест-драйва";

interface Props {
  car: CarBrief;
  onClose: () => void;
}

export default function TestDriveDialog({ car, onClose }: Props) {
  const settings = useSettings();
  // The car's salon's hours (several salons): the server checks the slot by them.
  const schedule: WorkSchedule =
    salonOf(settings.salons, car.salonId)?.workSchedule ??
    settings.workSchedule ??
    DEFAULT_SCHEDULE;
  // The days are counted when the dialog opens.
  const days = useMemo(() => openDays(schedule, new Date()), [schedule]);
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");
  const day = days.find((d) => d.date === date);

  const validate = () => {
    const errors: Record<string, string> = {};
    if (!day) errors.preferredDate = NO_DATE;
    else if (!day.slots.includes(time)) errors.preferredTime = noTimeMessage(day);
    return errors;
  };
  return (
    <Dialog open title="Запись на тест-драйв" onClose={onClose}>
      <p class="dialog-car">
        {car.brandName} {car.model} · {fromPrice(car.price)}
      </p>
      {days.length === 0 ? (
        <p class="empty">В ближайшие дни записи нет. Позвоните нам, и мы подберём время.</p>
      ) : (
        <LeadForm
          type="test_drive"
          car={car}
          extra={() => ({ ...carFields(car), preferredDate: date, preferredTime: time })}
          validate={validate}
          success={{
            title: "Заявка отправлена!",
            description: day
              ? `${visitText(date, time)} Мы позвоним, чтобы подтвердить запись.`
              : "Мы позвоним, чтобы подтвердить запись.",
          }}
          submitLabel="Записаться"
          onSent={() => {
            setDate("");
            setTime("");
            onClose();
          }}
        >
          <ChoiceGroup
            name="preferredDate"
            legend="День *"
            value={date}
            onChange={(d) => {
              setDate(d);
              // A time of the day before may not be open on this one.
              if (!days.find((x) => x.date === d)?.slots.includes(time)) setTime("");
            }}
            choices={days.map((d) => ({
              value: d.date,
              label: (
                <>
                  <strong>{d.weekday}</strong> {d.label}
                </>
              ),
            }))}
          />
          {day ? (
            <ChoiceGroup
              name="preferredTime"
              legend={`Время, ${longDate(day.date)} *`}
              value={time}
              onChange={setTime}
              choices={day.slots.map((s) => ({ value: s, label: s }))}
            />
          ) : (
            <p class="muted choice-hint">Выберите день, затем время.</p>
          )}
        </LeadForm>
      )}
    </Dialog>
  );
}
