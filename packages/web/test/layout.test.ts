import type { RoleId } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { detail, expectOk, NICKS, type Table } from "../../server/test/play.ts";
import { browserApp, browserMissing, newPage, PHONE, screenshot, BOSS_FIRST, EVIL } from "./browser.ts";

/**
 * Issue 12: the game page's frame on a phone (360×740) and its words. Every tab can be reached and
 * clicked, the seed's SHA-256 shows from the deal with a copy button (F1), the offline notice stays in
 * view, the «Роль» tab still shows the player's role after the end (R3), and the Russian screens show
 * no English, no internal codes and no clause ids; no screen logs an error, for a guest or a player.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

// Seat 0 holds the mafia boss, so the player in the browser has a night action to look back on.
const HAND: RoleId[] = [...BOSS_FIRST];
const PLAYER = 0;

/**
 * Latin words a Russian screen may show: the hash's name, file formats and the samples of a file's
 * fields and of the command that writes the same post; the language switch names English in English.
 */
const LATIN_OK = new Set([
  ...["SHA", "JSON", "json", "BBCode", "REPLAY", "md"],
  ...["npm", "run", "results", "replay", "author", "time", "body"],
  // The composer's formatting buttons (bold, italic) and the keys of its shortcut; BBCode in a quoted post.
  ...["B", "I", "Ctrl", "Enter", "color", "red", "blue"],
  // The tools' thread box (issue 18): the copy and paste keys and the files it takes.
  ...["C", "V", "html", "txt"],
  "English",
]);

interface Scan {
  readonly latin: string[];
  readonly clauses: string[];
  readonly codes: string[];
}

/**
 * The visible text of the page, word by word: Latin-only words outside the allow-list, clause ids
 * ("(S2)", "правило V3") and internal codes ("night/repeat-target"). Code samples (code, pre), form
 * fields and the language menu are left out: what they hold is typed or pasted, not the app's words.
 */
async function scanWords(page: Page): Promise<Scan> {
  const text = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("code, pre, textarea, select, option, script, style")) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      out.push(node.textContent ?? "");
    }
    return out.join(" ");
  });
  const latin = [...text.matchAll(/(?<![\p{L}\p{N}])[A-Za-z]+(?![\p{L}\p{N}])/gu)]
    .map((m) => m[0])
    .filter((w) => !LATIN_OK.has(w));
  const clauses = [
    ...text.matchAll(/\(\s*[A-Z]\d+[a-z]?(?:\s*,\s*[A-Z]\d+[a-z]?)*\s*\)|правил[оаеу]?\s+[A-Z]\d+/gu),
  ].map((m) => m[0]);
  const codes = [...text.matchAll(/(?<![\p{L}\p{N}])[a-z]+\/[a-z-]+/gu)].map((m) => m[0]);
  return { latin, clauses, codes };
}

async function expectRussianWords(page: Page, screen: string): Promise<void> {
  const scan = await scanWords(page);
  expect({ screen, ...scan }).toEqual({ screen, latin: [], clauses: [], codes: [] });
}

/** Every tab of the tab bar, reachable at 360 px: in view once scrolled to, and it opens its panel. */
async function expectTabsReachable(page: Page, tabs: readonly string[]): Promise<void> {
  const bar = page.getByRole("tablist", { name: "Разделы игры" });
  expect(await bar.getByRole("tab").allInnerTexts()).toEqual(tabs);
  for (const name of tabs) {
    const tab = bar.getByRole("tab", { name, exact: true });
    // The panel just opened may still move the page (the thread scrolls to its first unread post), so
    // scroll to the tab and look again until it stays in view; a tab that never comes into view fails.
    await expect
      .poll(async () => {
        await tab.scrollIntoViewIfNeeded();
        const box = (await tab.boundingBox())!;
        return { name, box, inside: inside(box) };
      })
      .toMatchObject({ name, inside: true });
    await tab.click();
    await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
  }
}

const inside = (b: { x: number; y: number; width: number; height: number }): boolean =>
  b.x >= 0 && b.y >= 0 && b.x + b.width <= PHONE.width + 0.5 && b.y + b.height <= PHONE.height + 0.5;

describe.skipIf(missing !== null)(
  "the game page on a phone and its words (issue 12)",
  { timeout: 120_000 },
  () => {
    const app = browserApp();
    let table: Table;
    let id = "";
    const pageErrors: { who: string; errors: string[] }[] = [];

    /** A phone-sized page, logged in as `client` (its session cookie) or a guest. */
    const phone = async (
      who: string,
      client: Client | null,
    ): Promise<{ page: Page; context: BrowserContext }> => {
      const p = await newPage(app.browser, PHONE);
      pageErrors.push({ who, errors: p.errors });
      if (client?.cookie) {
        const [name, ...value] = client.cookie.split("=");
        await p.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
      }
      return p;
    };
    const gmDetail = (gameId = id): Promise<GameDetail> => detail(table.gm, gameId);

    let games = 0;
    /** A game of the GM and the seventeen (dealt HAND) at night 1, with a thread long enough to scroll on a phone. */
    const newGame = async (accounts: Pick<Table, "gm" | "players">): Promise<Table> => {
      const created = await accounts.gm.post<{ id: string }>("/api/games", {
        title: `Партия на телефоне ${++games}`,
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
      });
      expectOk(created);
      const gameId = created.body.id;
      for (const p of accounts.players) expectOk(await p.post(`/api/games/${gameId}/signup`));
      expectOk(await accounts.gm.post(`/api/games/${gameId}/start`, { deal: { hand: HAND } }));
      for (let i = 0; i < 24; i++)
        expectOk(
          await accounts.players[i % 6]!.post(`/api/games/${gameId}/posts`, {
            text: `Пост номер ${i + 1}: доброй ночи, город. Кто сегодня пойдёт на охоту? Я пока молчу и слушаю.`,
          }),
        );
      return { ...accounts, id: gameId };
    };

    // The accounts, and one game at night 1 that no test changes (a test that changes a game makes its
    // own, and moves no clock: every test may run alone or in any order).
    beforeAll(async () => {
      const gm = new Client(() => app.t.server.app, "Ведущий");
      expectOk(await gm.register());
      const players: Client[] = [];
      for (const nick of NICKS) {
        const c = new Client(() => app.t.server.app, nick);
        expectOk(await c.register());
        players.push(c);
      }
      table = await newGame({ gm, players });
      id = table.id;
    }, 120_000);

    // No screen logs an error, in any test (each test's own pages).
    afterEach(() => {
      const seen = pageErrors.splice(0);
      for (const { who, errors } of seen) expect({ who, errors }).toEqual({ who, errors: [] });
    });

    it("F1: the seed's SHA-256 shows in the header from night 1, with a button that copies it", async () => {
      const d = await gmDetail();
      expect(d.view!.phase).toEqual({ kind: "night", number: 1 });
      const commitment = d.commitment!;
      expect(commitment).toMatch(/^[0-9a-f]{64}$/);

      const guest = await phone("guest", null);
      await guest.page.goto(`${app.url}/games/${id}`);
      const head = guest.page.locator("header.game-head");
      await head.getByText("SHA-256 сида:").waitFor();
      await head.getByText(`${commitment.slice(0, 8)}…`).waitFor();
      await head.getByRole("button", { name: "Копировать SHA-256 сида" }).waitFor();
      await screenshot(guest.page, "seed-hash-phone");

      const player = await phone("player", table.players[PLAYER]!);
      await player.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await player.page.goto(`${app.url}/games/${id}/role`);
      await player.page.getByRole("button", { name: "Копировать SHA-256 сида" }).click();
      await player.page.getByText("Скопировано.").waitFor();
      expect(await player.page.evaluate(() => navigator.clipboard.readText())).toBe(commitment);
      // The whole value is a tap away.
      // The summary is named by the short value it shows, then what it opens (axe: label-content-name-mismatch).
      await player.page
        .locator("summary", { hasText: `${commitment.slice(0, 8)}… Полный отпечаток сида` })
        .click();
      await player.page.getByText(commitment, { exact: true }).waitFor();
      await guest.context.close();
      await player.context.close();
    });

    it("at 360×740 every tab is in view and opens, and a deep link shows its own tab", async () => {
      const { page, context } = await phone("player", table.players[PLAYER]!);
      // A deep link to the last tab: the tab bar shows the selected tab without any scrolling.
      await page.goto(`${app.url}/games/${id}/results`);
      const results = page.getByRole("tab", { name: "Итоги", exact: true });
      await expect.poll(() => results.getAttribute("aria-selected")).toBe("true");
      expect(inside((await results.boundingBox())!)).toBe(true);
      await expectTabsReachable(page, ["Тема", "Игроки", "Роль", "Чаты", "Итоги"]);
      await screenshot(page, "tabs-phone");
      await context.close();
    });

    it("shows the live count above the players, and the offline notice stays in view when scrolled", async () => {
      const { page, context } = await phone("player", table.players[PLAYER]!);
      await page.goto(`${app.url}/games/${id}/players`);
      const count = page.getByRole("heading", { name: "Голосование" });
      const players = page.getByRole("heading", { name: "Игроки", exact: true });
      await players.waitFor();
      expect((await count.boundingBox())!.y).toBeLessThan((await players.boundingBox())!.y);
      // The seat number shares the nick's line.
      const row = page.locator(".seat").first();
      const no = (await row.locator(".seat-no").boundingBox())!;
      const nick = (await row.locator(".seat-name").boundingBox())!;
      expect(Math.abs(no.y + no.height / 2 - (nick.y + nick.height / 2))).toBeLessThan(8);
      await expectRussianWords(page, "players");

      // The stream cannot connect: after a few seconds the notice shows, and stays in view down the thread.
      await page.route(/\/stream\?/, (route) => route.abort());
      await page.goto(`${app.url}/games/${id}`);
      const notice = page.getByText("Нет связи с сервером", { exact: false });
      await notice.waitFor({ timeout: 10_000 });
      for (const y of [0, 1500, 100_000]) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await page.waitForTimeout(100);
        expect({ y, inView: inside((await notice.boundingBox())!) }).toEqual({ y, inView: true });
        if (y === 1500) {
          // Up the thread, «К новым ↓» sits in its own bar at the bottom of the window, within it.
          const toNew = page.getByRole("button", { name: /К новым/ });
          await toNew.waitFor();
          expect(inside((await toNew.boundingBox())!)).toBe(true);
          await screenshot(page, "to-new-phone");
        }
      }
      await screenshot(page, "offline-phone");
      await context.close();
    });

    it("the Russian screens show no English, codes or clause ids: lobby, thread, role, results, tools", async () => {
      const guest = await phone("guest", null);
      await guest.page.goto(app.url);
      await guest.page.locator(".lobby h2").first().waitFor();
      await guest.page.getByText(/Загрузка/).waitFor({ state: "detached" });
      await expectRussianWords(guest.page, "lobby (guest)");
      // Issue 32: a description for search engines and link previews, in Russian.
      const description = await guest.page.locator('meta[name="description"]').getAttribute("content");
      expect(description).toMatch(/^Форумная мафия[^A-Za-z]{40,}$/);
      await guest.page.goto(`${app.url}/games/${id}`);
      await guest.page.locator("article").first().waitFor();
      await expectRussianWords(guest.page, "thread (guest)");

      const { page, context } = await phone("player", table.players[PLAYER]!);
      await page.goto(`${app.url}/games/${id}`);
      await page.locator("article").first().waitFor();
      await expectRussianWords(page, "thread (player)");
      await page.goto(`${app.url}/games/${id}/role`);
      await page.getByRole("heading", { name: "Босс мафии" }).waitFor();
      await expectRussianWords(page, "role (player)");
      await page.goto(`${app.url}/games/${id}/results`);
      await page.getByRole("heading", { name: "Итоги ночей и дней" }).waitFor();
      await expectRussianWords(page, "results (player)");

      // The tools: a vote for a non-player is ignored with the reason in words; a bad replay is refused in words.
      await guest.page.goto(`${app.url}/tools`);
      await guest.page.getByLabel("Список игроков").fill("Вася\nПетя");
      await guest.page
        .getByLabel("Тема с форума")
        .fill(JSON.stringify([{ author: "Вася", time: "", body: "[color=red]Гена[/color]" }]));
      await guest.page.getByRole("button", { name: "Посчитать голоса" }).click();
      await guest.page.getByText("голос за того, кого нет среди игроков").waitFor();
      await guest.page.getByLabel("Реплей (JSON)").fill(JSON.stringify({ players: [], phases: 3 }));
      await guest.page.getByRole("button", { name: "Написать итоги" }).click();
      await guest.page.getByText("Файл реплея не подходит").waitFor();
      await expectRussianWords(guest.page, "tools with a bad file (guest)");
      await screenshot(guest.page, "tools-refusal-phone");
      await guest.context.close();
      await context.close();
    });

    it("R3: after the end the «Роль» tab shows the player's role and moves; every tab reachable, the log in words", async () => {
      // A game of its own. Night 1: the boss's move. Then the GM modkills the mafia and the maniac and
      // closes the night (not by the clock, which every game shares), and the town wins at dawn.
      const own = await newGame(table);
      const id = own.id;
      const boss = own.players[PLAYER]!;
      const victim = HAND.indexOf("citizen");
      expectOk(await boss.post(`/api/games/${id}/actions`, { act: "mafia", kill: [victim] }));
      for (let seat = 0; seat < NICKS.length; seat++)
        if (EVIL.has(HAND[seat]!))
          expectOk(await own.gm.post(`/api/games/${id}/gm/modkill`, { seat, reason: "проверка" }));
      expectOk(await own.gm.post(`/api/games/${id}/gm/close`));
      await expect.poll(async () => (await gmDetail(id)).summary.status, { timeout: 10_000 }).toBe("ended");

      const { page, context } = await phone("player", boss);
      await page.goto(`${app.url}/games/${id}/role`);
      await page.getByRole("heading", { name: "Босс мафии" }).waitFor();
      await page
        .getByText(new RegExp(`Ночь 1.*${NICKS[victim]}`))
        .first()
        .waitFor();
      expect(await page.locator("body").innerText()).not.toContain("видны только");
      await expectRussianWords(page, "role after the end (player)");
      await screenshot(page, "role-ended-phone");

      await page.goto(`${app.url}/games/${id}/log`);
      const log = page.getByRole("tab", { name: "Лог", exact: true });
      await expect.poll(() => log.getAttribute("aria-selected")).toBe("true");
      expect(inside((await log.boundingBox())!)).toBe(true);
      await page.getByText("✓ совпадает").waitFor();
      await expectRussianWords(page, "log (player)");
      // The log's tables scroll inside their own box: the page is no wider than the window.
      await screenshot(page, "log-ended-phone");
      await expectTabsReachable(page, ["Тема", "Игроки", "Роль", "Чаты", "Итоги", "Лог"]);
      await context.close();

      const gm = await phone("GM", table.gm);
      await gm.page.goto(`${app.url}/games/${id}/log`);
      await gm.page.getByText("✓ совпадает").waitFor();
      await expectTabsReachable(gm.page, ["Тема", "Игроки", "Чаты", "Итоги", "Ведущий", "Лог"]);
      await gm.context.close();
    });
  },
);
