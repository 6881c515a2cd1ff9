// Own advertising marked (38-FZ art. 18.1, docs/advertising.md) in the
// browser: the owner names a promotion's advertiser and its token (erid), the
// home page carries «Реклама · advertiser · erid: token» on its card, drawn by
// the server too; a partner bank's offer is always an ad, named by the bank
// until the form names another advertiser; a page banner's mark is set per
// page; a wrong token is refused at its field in the server's words; the
// self-check "Реклама без токена (erid)" lists an ad until it has its token.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import {
  apiSession,
  cleanup,
  keepSettings,
  mark,
  openAdmin,
  png,
  scrollsSideways,
  toastText,
} from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";

const BAD_ERID =
  "Токен рекламы (erid): латинские буквы и цифры, до 100 символов, как его выдал оператор рекламных данных";
const CHECK_TITLE = "Реклама без токена (erid)";
const ADVERTISER_HINT_PROMOTION =
  "Заполните, если акция — реклама другой компании, например производителя или банка";
const ADVERTISER_HINT_BANK = "Если пусто — название банка";
const ERID_HINT = "Выдаёт оператор рекламных данных; без него реклама не показывается законно";

let s;
let owner;
let trash;
before(async () => {
  s = await start();
  owner = await apiSession(s.base);
  trash = cleanup(owner);
});
after(async () => {
  await trash?.run();
  await s?.stop();
});

/** A token as an operator gives them: Latin letters and digits. */
const token = () => `e2e${Math.random().toString(36).slice(2, 10)}`;

/** The self-checks' problems of the kind for one object. */
async function unmarked(id) {
  const checks = await owner.get("/api/admin/checks");
  return checks.problems.filter((p) => p.check === "ad_without_token" && p.objectId === id);
}

/** A field's error text, through its aria-describedby (the error comes first). */
async function fieldError(input) {
  assert.equal(await input.getAttribute("aria-invalid"), "true");
  const id = (await input.getAttribute("aria-describedby")).split(" ")[0];
  return input.page().locator(`[id="${id}"]`).innerText();
}

/** The server's page, as a browser without JavaScript reads it. */
async function serverHtml(path) {
  const r = await fetch(s.base + path);
  assert.equal(r.status, 200);
  return r.text();
}

const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("a promotion that is someone else's ad", () => {
  it("carries «Реклама», its advertiser and erid on the home page once the owner names them", async () => {
    const title = `Акция ${mark()}`;
    const advertiser = `ООО «Хавейл Мотор Рус» ${mark("adv")}`;
    const erid = token();
    const promotion = await owner.post("/api/promotions", {
      title,
      description: "Выгода от производителя",
      validUntil: "2030-12-31",
      isActive: true,
    });
    trash.track(`/api/promotions/${promotion.id}`);
    assert.equal(promotion.adErid, "");
    assert.equal(promotion.adAdvertiser, "");
    // The salon's own promotion is not an ad: no mark, nothing to check.
    assert.deepEqual(await unmarked(promotion.id), []);
    const home = await s.open(DESKTOP, "/");
    const card = home.getByTestId("promotion").filter({ hasText: title });
    await card.waitFor();
    assert.equal(await card.getByTestId("ad-label").count(), 0);

    // The form, opened as a self-check's link would.
    const { page } = await openAdmin(s, DESKTOP, `/admin/promotions?edit=${promotion.id}`);
    const form = page.getByTestId("promotion-form");
    await form.waitFor();
    await settled(page);
    const fields = form.getByRole("group", { name: "Маркировка рекламы" });
    const advertiserInput = fields.getByLabel("Рекламодатель");
    const eridInput = fields.getByLabel("Токен рекламы (erid)");
    assert.equal(await advertiserInput.inputValue(), "");
    assert.match(await fields.innerText(), new RegExp(escapeRe(ADVERTISER_HINT_PROMOTION)));
    assert.match(await fields.innerText(), new RegExp(escapeRe(ERID_HINT)));
    await expectNoViolations(page, "the promotion form");

    // An advertiser without a token: an ad shown unlawfully, the check says so.
    await advertiserInput.fill(advertiser);
    await form.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Акция обновлена"), /Успешно/);
    const listed = await unmarked(promotion.id);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].title, CHECK_TITLE);
    assert.match(listed[0].detail, new RegExp(`^Акция «${escapeRe(title)}»`));

    await page.goto(`${s.base}/admin/checks`);
    const problem = page.locator(`[data-check="ad_without_token"][data-object="${promotion.id}"]`);
    await problem.waitFor();
    await settled(page);
    assert.equal(await problem.getByRole("heading", { level: 3 }).innerText(), CHECK_TITLE);
    await expectNoViolations(page, "the checks screen with an ad without a token");
    await problem.getByRole("link", { name: `Исправить: ${CHECK_TITLE}` }).click();
    await page.waitForURL(
      (u) => u.pathname === "/admin/promotions" && u.searchParams.get("edit") === promotion.id,
    );
    await form.waitFor();
    assert.equal(await advertiserInput.inputValue(), advertiser);

    // A wrong token is refused at its field, in the server's words.
    await eridInput.fill("токен");
    await form.getByRole("button", { name: "Сохранить" }).click();
    await form.getByText(BAD_ERID).waitFor();
    assert.equal(await fieldError(eridInput), BAD_ERID);
    await expectNoViolations(page, "the promotion form with a wrong erid");
    const refused = await owner.put(
      `/api/promotions/${promotion.id}`,
      { title, description: "Выгода от производителя", adErid: "токен" },
      { ok: false },
    );
    assert.equal(refused.status, 422);
    assert.deepEqual([refused.data.field, refused.data.error], ["adErid", BAD_ERID]);
    assert.equal(
      (await owner.get("/api/admin/promotions")).find((p) => p.id === promotion.id).adErid,
      "",
    );

    // As the operator gives it, "erid:" and all: the server keeps the token.
    await eridInput.fill(`erid: ${erid}`);
    await form.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Акция обновлена"), /Успешно/);
    const saved = (await owner.get("/api/admin/promotions")).find((p) => p.id === promotion.id);
    assert.equal(saved.adErid, erid);
    assert.equal(saved.adAdvertiser, advertiser);
    const label = `Реклама · ${advertiser} · erid: ${erid}`;
    const adminCard = page.getByTestId("promotion-card").filter({ hasText: title });
    // The list is read again after the save: its card shows the token then.
    await adminCard
      .getByTestId("ad-note")
      .filter({ hasText: `erid: ${erid}` })
      .waitFor();
    assert.equal(await adminCard.getByTestId("ad-note").innerText(), label);
    assert.deepEqual(await unmarked(promotion.id), [], "the check is satisfied");
    await page.goto(`${s.base}/admin/checks`);
    await page.getByTestId("checked-at").waitFor();
    await settled(page);
    assert.equal(
      await page.locator(`[data-check="ad_without_token"][data-object="${promotion.id}"]`).count(),
      0,
    );

    // The visitors' home page, and the server's HTML without JavaScript.
    await home.reload();
    await card.waitFor();
    assert.equal(await card.getByTestId("ad-label").innerText(), label);
    await expectNoViolations(home, "the home page's promotions", ".promo-grid");
    const html = await serverHtml("/");
    assert.match(html, new RegExp(`class="ad-label"[^>]*>${escapeRe(label)}</p>`));
    assert.deepEqual(page.errors, []);
    assert.deepEqual(home.errors, []);
    await page.context().close();
    await home.context().close();
  });
});

describe("a partner bank's offer", () => {
  it("is always an ad: named by the bank, its erid once set; the server's refusal lands at the field", async () => {
    const name = `Банк ${mark()}`;
    const erid = token();
    const { url: logo } = await owner.upload(png(64, 64), { name: "logo.png" });
    const bank = await owner.post("/api/partner-banks", {
      name,
      logo,
      requirements: "Стаж от 3 месяцев",
      advantages: "Без КАСКО, решение за час",
      active: true,
    });
    trash.track(`/api/partner-banks/${bank.id}`);
    const listed = await unmarked(bank.id);
    assert.equal(listed.length, 1, "an offer without a token is listed");
    assert.equal(listed[0].title, CHECK_TITLE);
    assert.match(listed[0].detail, new RegExp(`«${escapeRe(name)}»`));

    const site = await s.open(DESKTOP, "/auto-credit");
    const offer = site.getByTestId("bank").filter({ hasText: name });
    await offer.waitFor();
    assert.equal(await offer.getByTestId("ad-label").innerText(), `Реклама · ${name}`);
    assert.match(
      await serverHtml("/auto-credit"),
      new RegExp(`class="ad-label"[^>]*>Реклама · ${escapeRe(name)}</p>`),
    );

    const { page } = await openAdmin(s, DESKTOP, `/admin/partner-banks?edit=${bank.id}`);
    const dialog = page.getByTestId("bank-dialog");
    await dialog.waitFor();
    await settled(page);
    const fields = dialog.getByRole("group", { name: "Маркировка рекламы" });
    const eridInput = fields.getByLabel("Токен рекламы (erid)");
    assert.match(await fields.innerText(), new RegExp(escapeRe(ADVERTISER_HINT_BANK)));
    await expectNoViolations(page, "the bank dialog");

    // Only the server sees the wrong token (the request is changed on its
    // way): its answer lands at the field.
    await eridInput.fill(erid);
    await page.route(`**/api/partner-banks/${bank.id}`, (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const body = JSON.parse(route.request().postData());
      return route.continue({ postData: JSON.stringify({ ...body, adErid: "токен" }) });
    });
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.getByText(BAD_ERID).waitFor();
    assert.equal(await fieldError(eridInput), BAD_ERID);
    await expectNoViolations(page, "the bank dialog with the server's refusal");
    await page.unroute(`**/api/partner-banks/${bank.id}`);

    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Банк обновлён"), /Успешно/);
    await dialog.waitFor({ state: "detached" });
    const card = page.getByTestId("bank-card").filter({ hasText: name });
    assert.equal(
      await card.getByTestId("ad-note").innerText(),
      `Реклама · ${name} · erid: ${erid}`,
    );
    assert.deepEqual(await unmarked(bank.id), [], "the check is satisfied");
    await page.goto(`${s.base}/admin/checks`);
    await page.getByTestId("checked-at").waitFor();
    await settled(page);
    assert.equal(
      await page.locator(`[data-check="ad_without_token"][data-object="${bank.id}"]`).count(),
      0,
    );

    await site.reload();
    await offer.waitFor();
    assert.equal(
      await offer.getByTestId("ad-label").innerText(),
      `Реклама · ${name} · erid: ${erid}`,
    );
    await expectNoViolations(site, "the credit page's bank offers", ".bank-grid");

    // Another advertiser named in the form replaces the bank's name.
    await owner.put(`/api/partner-banks/${bank.id}`, {
      name,
      logo,
      requirements: "Стаж от 3 месяцев",
      advantages: "Без КАСКО, решение за час",
      active: true,
      adErid: erid,
      adAdvertiser: "АО «Тест Банк Холдинг»",
    });
    const phone = await s.open(PHONE, "/auto-credit");
    const onPhone = phone.getByTestId("bank").filter({ hasText: name });
    await onPhone.waitFor();
    assert.equal(
      await onPhone.getByTestId("ad-label").innerText(),
      `Реклама · АО «Тест Банк Холдинг» · erid: ${erid}`,
    );
    assert.equal(await scrollsSideways(phone), false);
    // Only the refusal the test asked for.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("422")),
      [],
    );
    assert.deepEqual(site.errors, []);
    assert.deepEqual(phone.errors, []);
    await page.context().close();
    await site.context().close();
    await phone.context().close();
  });
});

describe("a page banner's mark", () => {
  it("is set per page, a wrong token refused at its field, and shown under the banner", async () => {
    const kept = await keepSettings(owner, ["bannerAds"]);
    trash.undo(kept.restore);
    const advertiser = `ООО «Баннер» ${mark("adv")}`;
    const erid = token();
    const { page } = await openAdmin(s, DESKTOP, "/admin/page-banners");
    const section = page.getByTestId("banner-tradeIn");
    await section.waitFor();
    await settled(page);
    const fields = section.getByRole("group", { name: "Маркировка рекламы" });
    await expectNoViolations(page, "the page-banners screen");
    const save = page.getByRole("button", { name: "Сохранить все" });
    assert.equal(await save.isDisabled(), true, "nothing to save yet");

    await fields.getByLabel("Рекламодатель").fill(advertiser);
    const eridInput = fields.getByLabel("Токен рекламы (erid)");
    await eridInput.fill("токен");
    await save.click();
    await section.getByText(BAD_ERID).waitFor();
    assert.equal(await fieldError(eridInput), BAD_ERID);
    await page.waitForFunction(() => document.activeElement?.id === "ad-tradeInBanner-erid");
    await expectNoViolations(page, "the page-banners screen with a wrong erid");
    const refused = await owner.put(
      "/api/settings",
      { bannerAds: { tradeInBanner: { erid: "токен", advertiser } } },
      { ok: false },
    );
    assert.equal(refused.status, 422);
    assert.equal(refused.data.error, BAD_ERID);

    await eridInput.fill(erid);
    const put = page.waitForRequest(
      (r) => r.url().endsWith("/api/settings") && r.method() === "PUT",
    );
    await save.click();
    assert.match(await toastText(page, "Баннеры обновлены"), /Успешно/);
    // The whole map goes, the pages without a mark left out.
    assert.deepEqual(JSON.parse((await put).postData()).bannerAds, {
      ...(kept.saved.bannerAds ?? {}),
      tradeInBanner: { erid, advertiser },
    });
    assert.deepEqual((await owner.get("/api/admin/settings")).bannerAds.tradeInBanner, {
      erid,
      advertiser,
    });
    assert.equal(await save.isDisabled(), true, "saved: nothing left to save");

    const label = `Реклама · ${advertiser} · erid: ${erid}`;
    const site = await s.open(DESKTOP, "/trade-in");
    const under = site.locator('[data-testid="banner"] + .ad-label');
    await under.waitFor();
    assert.equal(await under.innerText(), label);
    assert.match(
      await serverHtml("/trade-in"),
      new RegExp(`class="ad-label container"[^>]*>${escapeRe(label)}</p>`),
    );
    await expectNoViolations(site, "the trade-in page with a marked banner");
    // Another page's banner is not marked.
    const used = await s.open(DESKTOP, "/used-cars");
    await used.getByTestId("banner").waitFor();
    if (!kept.saved.bannerAds?.usedCarsBanner) {
      assert.equal(await used.getByTestId("ad-label").count(), 0);
    }

    // Emptied, the mark goes (the answer awaited: the first save's toast
    // may still be on screen).
    await fields.getByLabel("Рекламодатель").fill("");
    await eridInput.fill("");
    const cleared = page.waitForResponse(
      (r) => r.url().endsWith("/api/settings") && r.request().method() === "PUT",
    );
    await save.click();
    assert.equal((await cleared).status(), 200);
    assert.equal((await owner.get("/api/admin/settings")).bannerAds.tradeInBanner, undefined);
    await site.reload();
    await site.getByTestId("banner").waitFor();
    assert.equal(await site.getByTestId("ad-label").count(), 0);
    await kept.restore();
    assert.deepEqual(page.errors, []);
    assert.deepEqual(site.errors, []);
    await page.context().close();
    await site.context().close();
    await used.context().close();
  });
});
