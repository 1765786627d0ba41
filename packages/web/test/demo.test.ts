import { describe, expect, it } from "vitest";
import { browserApp, browserMissing, newPage, PHONE, registerInApp, screenshot } from "./browser.ts";

/** Issue 5: a newcomer plays a whole game alone: "Сыграть демо-игру" in the lobby seats them with 16 bots. */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

describe.skipIf(missing !== null)("the demo game in Chromium (issue 5)", { timeout: 120_000 }, () => {
  const app = browserApp();

  it("starts from the lobby's button and reaches day 1", async () => {
    const { page, errors } = await newPage(app.browser, PHONE);
    await registerInApp(page, app.url, "Новичок");
    await page.goto(app.url);
    await page.getByRole("button", { name: "Сыграть демо-игру" }).click();
    await page.waitForURL(/\/games\/[^/]+/);
    await page.getByText("Ночь 1").first().waitFor();
    // Sixteen bots at the table, and the newcomer's own role card.
    const id = page.url().split("/games/")[1]!.split("/")[0]!;
    await page.goto(`${app.url}/games/${id}/players`);
    await expect.poll(() => page.getByText(/^Бот /).count()).toBeGreaterThanOrEqual(16);
    await screenshot(page, "demo-night-phone");
    // The phase is 2 minutes: the bots have acted at its start; the deadline opens day 1.
    await app.t.clock.advance(2 * 60_000);
    await page.getByText("День 1").first().waitFor({ timeout: 15_000 });
    await page.goto(`${app.url}/games/${id}/results`);
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
