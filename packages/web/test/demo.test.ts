import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../server/test/harness.ts";
import { appServer, browserMissing, buildWeb, launch, newPage, PHONE, screenshot } from "./browser.ts";

/** Issue 5: a newcomer plays a whole game alone: "Сыграть демо-игру" in the lobby seats them with 16 bots. */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

describe.skipIf(missing !== null)("the demo game in Chromium (issue 5)", { timeout: 120_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  let url: string;

  beforeAll(async () => {
    ({ t, url } = await appServer(buildWeb()));
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("starts from the lobby's button and reaches day 1", async () => {
    const { page, errors } = await newPage(browser, PHONE);
    await page.goto(`${url}/register`);
    await page.getByLabel("Ник").fill("Новичок");
    await page.getByLabel("Пароль").fill("correct horse battery");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await page.getByRole("button", { name: "Выйти" }).waitFor();
    await page.goto(url);
    await page.getByRole("button", { name: "Сыграть демо-игру" }).click();
    await page.waitForURL(/\/games\/[^/]+/);
    await page.getByText("Ночь 1").first().waitFor();
    // Sixteen bots at the table, and the newcomer's own role card.
    const id = page.url().split("/games/")[1]!.split("/")[0]!;
    await page.goto(`${url}/games/${id}/players`);
    await expect.poll(() => page.getByText(/^Бот /).count()).toBeGreaterThanOrEqual(16);
    await screenshot(page, "demo-night-phone");
    // The phase is 2 minutes: the bots have acted at its start; the deadline opens day 1.
    await t.clock.advance(2 * 60_000);
    await page.getByText("День 1").first().waitFor({ timeout: 15_000 });
    await page.goto(`${url}/games/${id}/results`);
    await page.getByText("Итоги ночи 1").first().waitFor();
    await screenshot(page, "demo-day-phone");
    // English is a switch away; the game's own texts (the results) follow it too.
    await page.getByLabel("Язык").selectOption("en");
    await page.getByText("Night 1 results").first().waitFor();
    await page.getByRole("tab", { name: "Players" }).click();
    await page
      .getByRole("button", { name: /^Vote red for / })
      .first()
      .waitFor();
    await screenshot(page, "demo-players-en-phone");
    expect(errors).toEqual([]);
  });
});
