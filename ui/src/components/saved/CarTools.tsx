import { lazy, Suspense, useState } from "react";
import type { CarBrief } from "../../api/types";
import { SaveToggles } from "./SaveToggles";

const loadTestDrive = () => import("../leads/TestDriveDialog");
const TestDriveDialog = lazy(loadTestDrive);

/** Under the car page's request buttons: test-drive booking (new and used
 * cars), the heart and the compare toggle. */
export function CarTools({ car }: { car: CarBrief }) {
  const [testDrive, setTestDrive] = useState(false);
  return (
    <div class="car-tools js-only">
      {car.status !== "lease" && (
        <button
          type="button"
          class="test-drive-button"
          onClick={() => setTestDrive(true)}
          // The dialog's code is fetched while the pointer is on its way.
          onPointerEnter={() => void loadTestDrive()}
          onFocus={() => void loadTestDrive()}
        >
          Записаться на тест-драйв
        </button>
      )}
      <SaveToggles car={car} />
      {testDrive && (
        <Suspense fallback={null}>
          <TestDriveDialog car={car} onClose={() => setTestDrive(false)} />
        </Suspense>
      )}
    </div>
  );
}
