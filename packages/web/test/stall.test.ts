import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../../server/test/client.ts";
import { setUpGame, type Table } from "../../server/test/play.ts";
import { FOUR, quietDay, quietNight } from "../../server/test/quiet.ts";
import { browserApp, browserMissing, newPage, PHONE, screenshot } from "./browser.ts";

/**
 * Issue 28 in Chromium, at 360 px: a game driven to a stall (three nights and three days with no death
 * and no hanging) shows the notice on its page to a player, a guest and the GM (with what the rules let
 * the GM do, and the console a link away), and a line on its card in «Мои игры»; in Russian words only.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const FACTS = "С 1-й ночи уже 3 ночи и 3 дня подряд никто не погиб и никого не повесили.";

describe.skipIf(missing !== null)("a stalled game (issue 28)", { timeout: 180_000 }, () => {
  const app = browserApp();
  let table: Table;
  const pageErrors: string[][] = [];

  beforeAll(async () => {
    table = await setUpGame(app.t, "automatic", "random", FOUR);
    for (let n = 1; n <= 3; n++) {
      await quietNight(app.t, table);
      await quietDay(app.t, table);
    }
  });
  afterEach(() => {
    for (const errors of pageErrors.splice(0)) expect(errors).toEqual([]);
  });

  /** A phone page, signed in as `who` (a guest when null), at `path`. */
  const open = async (
    who: Client | null,
    path: string,
  ): Promise<{ page: Page; close: () => Promise<void> }> => {
    const p = await newPage(app.browser, PHONE);
    pageErrors.push(p.errors);
    if (who) {
      const [name, ...value] = who.cookie!.split("=");
      await p.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
    }
    await p.page.goto(`${app.url}${path}`);
    return { page: p.page, close: () => p.context.close() };
  };
  const latin = (text: string): string[] => text.match(/[A-Za-z]{2,}/g) ?? [];

  it("a player and a guest read the notice above the thread: how long, and that the GM can move it on", async () => {
    for (const who of [table.players[1]!, null]) {
      const { page, close } = await open(who, `/games/${table.id}`);
      const notice = page.locator(".notice.stall");
      await notice.waitFor();
      const text = await notice.innerText();
      expect(text).toContain("Игра стоит на месте.");
      expect(text).toContain(FACTS);
      expect(text).toContain("Сдвинуть игру может ведущий: правила позволяют исключить игрока (модкилл).");
      expect(text).not.toContain("пульт");
      expect(latin(text)).toEqual([]);
      expect(await notice.getAttribute("role")).toBe("status");
      if (who) await screenshot(page, "stall-player-360");
      await close();
    }
  });

  it("the GM reads what the rules allow, with the console a link away", async () => {
    const { page, close } = await open(table.gm, `/games/${table.id}`);
    const notice = page.locator(".notice.stall");
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toContain(FACTS);
    expect(text).toContain("Что можно сделать по правилам: дать модкилл с указанием причины");
    expect(text).toContain("второй страйк — это модкилл");
    expect(latin(text)).toEqual([]);
    const link = notice.getByRole("link", { name: "Открыть пульт ведущего" });
    expect(await link.getAttribute("href")).toBe(`/games/${table.id}/gm`);
    await screenshot(page, "stall-gm-360");
    await close();
  });

  it("«Мои игры» shows the stall on the game's card, for a player and for the GM", async () => {
    for (const [who, more] of [
      [table.players[2]!, null],
      [table.gm, " — можно дать модкилл"],
    ] as const) {
      const { page, close } = await open(who, "/");
      const line = page.locator(".stall-line");
      await line.waitFor();
      const text = await line.innerText();
      expect(text).toContain("Игра стоит на месте: 3 ночи и 3 дня без смертей и повешений");
      if (more) expect(text).toContain(more);
      else expect(text).not.toContain("модкилл");
      if (who === table.gm) await screenshot(page, "stall-my-games-360");
      await close();
    }
  });
});
