import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import {
  browserApp,
  browserMissing,
  newPage,
  PHONE,
  registerInApp,
  screenshot,
  type BrowserApp,
} from "./browser.ts";

/** Issue 5: a newcomer plays a whole game alone: "Сыграть демо-игру" in the lobby seats them with 16 bots. */

/** Restart the server on the same port, store and clock (issue 12): the pages keep their address and session. */
async function restart(app: BrowserApp): Promise<void> {
  const port = Number(new URL(app.url).port);
  app.t = await app.t.restart();
  await app.t.server.app.listen({ port, host: "127.0.0.1" });
}

const gameId = (url: string): string => url.split("/games/")[1]!.split(/[/?#]/)[0]!;

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
    // The deal is random: the newcomer may have died in the night or lost the vote, and then has no
    // vote buttons, only the list.
    const d = (await (await page.request.get(`${app.url}/api/games/${id}`)).json()) as GameDetail;
    const me = d.view!.seats[d.me.seat!]!;
    if (me.alive && !me.cannotVote)
      await page
        .getByRole("button", { name: /^Vote red for / })
        .first()
        .waitFor();
    else await page.locator(".seat-me").waitFor();
    await screenshot(page, "demo-players-en-phone");
    expect(errors).toEqual([]);
  });

  it("issue 12: after a restart with a demo running, the button starts a new demo that reaches night 1", async () => {
    const { page, errors } = await newPage(app.browser, PHONE);
    await registerInApp(page, app.url, "Вернувшийся");
    await page.goto(app.url);
    await page.getByRole("button", { name: "Сыграть демо-игру" }).click();
    await page.waitForURL(/\/games\/[^/]+/);
    await page.getByText("Ночь 1").first().waitFor();
    const first = gameId(page.url());
    // A second player's demo runs too: the restarted server has more than one demo to take up again.
    const other = await newPage(app.browser, PHONE);
    await registerInApp(other.page, app.url, "Соседка");
    await other.page.goto(app.url);
    await other.page.getByRole("button", { name: "Сыграть демо-игру" }).click();
    await other.page.waitForURL(/\/games\/[^/]+/);
    await other.context.close();
    // The server restarts while the player looks at the game (its live stream open).
    await page.goto(`${app.url}/games/${first}`);
    await page.getByText("Ночь 1").first().waitFor();
    await restart(app);
    for (let round = 0; round < 2; round++) {
      await page.goto(app.url);
      await page.getByRole("button", { name: "Сыграть демо-игру" }).click();
      await page.waitForURL(/\/games\/[^/]+/);
      await page.getByText("Ночь 1").first().waitFor();
      expect(gameId(page.url())).not.toBe(first);
    }
    // No half-made demo is left taking signups, and the player's demos are listed as theirs.
    await page.goto(app.url);
    await page.getByText("Нет игр в наборе.").waitFor();
    const mine = page.getByRole("listitem").filter({ hasText: "Демо-игра: Вернувшийся" });
    await expect.poll(() => mine.count()).toBe(3);
    await expect.poll(() => mine.filter({ hasText: "Вы играете" }).count()).toBe(3);
    // Nobody else's demo is in this player's list.
    expect(await page.getByText("Демо-игра: Соседка").count()).toBe(0);
    // The demo from before the restart goes on: its night closes into day 1.
    await page.goto(`${app.url}/games/${first}`);
    await page.getByText("Ночь 1").first().waitFor();
    await app.t.clock.advance(2 * 60_000);
    await page.getByText("День 1").first().waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });

  it("issue 12: «Зарегистрироваться и сыграть демо» registers, then starts the demo at once", async () => {
    const { page, errors } = await newPage(app.browser, PHONE);
    await page.goto(app.url);
    await page.getByRole("link", { name: "Зарегистрироваться и сыграть демо" }).click();
    await page.waitForURL(/\/register\?next=demo$/);
    // A guest's lobby shows nobody's demo.
    await page.goto(app.url);
    await page.getByText("Нет игр в наборе.").waitFor();
    expect(await page.getByText(/^Демо-игра/).count()).toBe(0);
    await page.getByRole("link", { name: "Зарегистрироваться и сыграть демо" }).click();
    await page.getByText("Сразу после входа начнётся демо-игра").waitFor();
    await page.getByLabel("Ник").fill("Гостья");
    await page.getByLabel("Пароль").fill("correct horse battery");
    await page.getByRole("button", { name: "Зарегистрироваться" }).click();
    await page.waitForURL(/\/games\/[^/]+/);
    await page.getByText("Ночь 1").first().waitFor();
    await page.getByRole("button", { name: "Выйти" }).waitFor();
    await screenshot(page, "demo-after-register-phone");
    // Back leads to the lobby, not to the registration form.
    await page.goBack();
    await page.waitForURL(`${app.url}/`);
    expect(errors).toEqual([]);
  });
});
