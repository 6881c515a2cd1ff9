// Upload errors in the admin panel: a refused picture's 'Ошибка загрузки'
// goes once a later picture arrives; a file that is no feed is refused by
// the parser's form without being sent.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openAdmin, pngFile } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

describe("admin uploads", () => {
  it("a picture that arrives takes away the error of the one refused before", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/promotions");
    await page.getByRole("button", { name: "Добавить акцию" }).click();
    const form = page.getByTestId("promotion-form");
    await form.waitFor();
    const input = form.getByLabel("Изображение", { exact: true });

    // Called a PNG, but no picture: the server refuses it.
    await input.setInputFiles({
      name: "broken.png",
      mimeType: "image/png",
      buffer: Buffer.from("no picture here"),
    });
    const toast = page.getByTestId("toast");
    await toast.filter({ hasText: "Ошибка загрузки" }).waitFor();

    await input.setInputFiles(pngFile("good.png"));
    await form.getByAltText("Изображение: текущее изображение").waitFor();
    await toast.waitFor({ state: "detached", timeout: 2000 });
    assert.equal(await form.locator(".field-error").count(), 0);
    // The browser logs the refusal (415) it was sent for; nothing else.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("415")),
      [],
    );
    await page.context().close();
  });

  it("the parser refuses a .txt file in the form, sending nothing", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/parser");
    const sent = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/admin/imports")) sent.push(r.url());
    });
    await page.getByLabel("Файл", { exact: true }).check();
    const file = page.getByLabel("Файл фида");
    await file.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("id;mark;model\n1;Kia;Rio\n"),
    });
    const error = page.getByTestId("import-form").locator(".field-error");
    await error.waitFor();
    assert.equal(await error.innerText(), "Нужен файл XML или CSV");
    await page.getByRole("button", { name: "Проверить" }).click();
    assert.equal(await error.innerText(), "Нужен файл XML или CSV");
    assert.equal(await file.getAttribute("aria-invalid"), "true");
    await page.waitForTimeout(500);
    assert.deepEqual(sent, [], "the file was sent to the server");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
