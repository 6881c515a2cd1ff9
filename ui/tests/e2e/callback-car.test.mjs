// «Перезвоните мне» on a car page (issue 45 item 3, docs/calls.md): a
// visitor on a phone opens a car from the catalogue, asks to be called
// back, and reads that a manager will call; the lead is stored with the
// car, the page it came from and the visitor's consent. The demo has no PBX
// set up, so nothing rings: the lead says so (`no_pbx`), or, out of the
// salon's hours, says when the salon will call (`out_of_hours`).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { PHONE, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.stop();
});

describe("«Перезвоните мне» on a car page", () => {
  it("stores the request with the car and tells the visitor who calls", async () => {
    const page = await s.open(PHONE, "/used-cars");
    const card = page.getByTestId("car-card").first();
    await card.locator("h3 a").click();
    const heading = page.locator("h1");
    await heading.waitFor();
    const slug = new URL(page.url()).pathname.split("/").pop();
    const button = page.getByRole("button", { name: "Перезвоните мне" });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const dialog = page.getByRole("dialog", { name: "Перезвоните мне" });
    await dialog.waitFor();
    // Refused without a phone, at its field.
    await dialog.locator('input[name="name"]').fill("Ольга Машинова");
    await dialog.locator('input[name="consent"]').check();
    await dialog.getByRole("button", { name: "Жду звонка" }).click();
    await dialog.getByText("Пожалуйста, заполните обязательные поля").first().waitFor();
    await dialog.locator('input[name="phone"]').fill("+7 (921) 555-07-07");
    await dialog.getByRole("button", { name: "Жду звонка" }).click();
    const toast = page.getByTestId("toast").filter({ hasText: "Заявка принята" });
    await toast.waitFor();

    const [lead] = s.query(
      `SELECT l.type, l.callback_state, l.source_url, l.consent_version, c.slug
         FROM leads l LEFT JOIN cars c ON c.id = l.car_id
        WHERE l.phone = '+79215550707' ORDER BY l.created_at DESC LIMIT 1`,
    );
    assert.equal(lead.type, "callback");
    // In the salon's hours a manager calls back by hand (no PBX in the
    // demo); out of them the visitor reads when (the run's clock decides).
    if (lead.callback_state === "out_of_hours") {
      assert.match(await toast.innerText(), /Салон сейчас закрыт\. Мы перезвоним вам/);
    } else {
      assert.equal(lead.callback_state, "no_pbx");
      assert.match(await toast.innerText(), /Менеджер перезвонит вам в ближайшее время/);
    }
    assert.equal(lead.slug, slug, "the lead names the car it was asked from");
    assert.match(lead.source_url, new RegExp(`/car/${slug}$`));
    assert.ok(lead.consent_version >= 1, "the consent is recorded");
    await expectNoViolations(page);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
