import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { detail, expectOk, NICKS } from "../../server/test/play.ts";
import { browserApp, browserMissing, newPage, PHONE, screenshot } from "./browser.ts";

/**
 * Issue 15 in the browser: unread counts in the tabs and the page's title, the line before what is new
 * since the last visit, reading on one device clearing the count on another, profiles and «Посты игрока».
 * Аня (the mafia boss, seat 0) has two phones (two browser contexts with one session); Борис (the troll,
 * seat 1, so the two share the mafia's chat) writes from a phone of his own; the other fifteen and the GM
 * use the API.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const ANYA = NICKS[0]!;
const BORIS = NICKS[1]!;
const APP = "Форумная мафия";
const EVIL = new Set(["boss", "troll", "elf", "lawyer", "thug", "maniac"]);

describe.skipIf(missing !== null)(
  "unread marks, profiles and «Посты игрока» (issue 15)",
  { timeout: 120_000 },
  () => {
    const app = browserApp();
    let gm: Client;
    const players = new Map<string, Client>();
    const pageErrors: { who: string; errors: string[] }[] = [];

    /** A phone logged in as `client` (its session cookie): two phones of one client share the session. */
    const phone = async (who: string, client: Client): Promise<{ page: Page; context: BrowserContext }> => {
      const p = await newPage(app.browser, PHONE);
      pageErrors.push({ who, errors: p.errors });
      const [name, ...value] = client.cookie!.split("=");
      await p.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
      return p;
    };
    const client = (nick: string): Client => players.get(nick)!;
    const say = async (nick: string, id: string, text: string) =>
      expectOk(await client(nick).post(`/api/games/${id}/posts`, { text }));
    const unreadOf = async (nick: string, id: string): Promise<GameDetail["unread"]> =>
      (await detail(client(nick), id)).unread;

    let games = 0;
    /** A game at night 1, dealt in the standard order: Аня the boss, Борис the troll. */
    const newGame = async (): Promise<string> => {
      const created = await gm.post<{ id: string }>("/api/games", {
        title: `Партия про непрочитанное ${++games}`,
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
      });
      expectOk(created);
      const id = created.body.id;
      for (const nick of NICKS) expectOk(await client(nick).post(`/api/games/${id}/signup`));
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: DEFAULT_ROLES } }));
      return id;
    };

    beforeAll(async () => {
      gm = new Client(() => app.t.server.app, "Ведущий");
      expectOk(await gm.register());
      for (const nick of NICKS) {
        const c = new Client(() => app.t.server.app, nick);
        expectOk(await c.register());
        players.set(nick, c);
      }
    }, 120_000);

    afterEach(() => {
      const seen = pageErrors.splice(0);
      for (const { who, errors } of seen) expect({ who, errors }).toEqual({ who, errors: [] });
    });

    /**
     * A game tab's unread count as the reader meets it: the number on the tab and the description the tab
     * is read out with. Null when the tab shows none.
     */
    const tabCount = (page: Page, tab: string): Promise<{ shown: string; said: string } | null> =>
      page.evaluate((tab) => {
        const el = document.getElementById(`game-tab-${tab}`);
        const badge = el?.querySelector(".unread-badge");
        if (!el || !badge) return null;
        const said = document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent ?? "";
        return { shown: badge.getAttribute("data-count") ?? "", said };
      }, tab);
    /** The tab shows `n` unread, and the title the game's whole count (`total`: the tab's unless said). */
    const expectCount = async (page: Page, tab: string, n: number, total = n) => {
      await expect
        .poll(() => tabCount(page, tab), { timeout: 10_000 })
        .toEqual(n === 0 ? null : { shown: String(n), said: `Непрочитанных: ${n}` });
      await expect
        .poll(() => page.title(), { timeout: 10_000 })
        .toBe(total === 0 ? APP : `(${total}) ${APP}`);
    };
    /** The one unread item of a fresh game: the role message in the player's chat with the GM. Read it. */
    const readRoleMessage = async (page: Page, id: string) => {
      await page.goto(`${app.url}/games/${id}/players`);
      await expectCount(page, "chats", 1);
      await tab(page, "Чаты").click();
      await page.getByRole("tab", { name: "Личка с ведущим" }).click();
      await page.getByText("Ваша роль: Босс мафии").waitFor();
      await expectCount(page, "chats", 0);
    };
    /** The page goes to the background or comes back (a headless page is always "visible" otherwise). */
    const setVisibility = (page: Page, state: "hidden" | "visible") =>
      page.evaluate((state) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
        Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    /** The phone is put away and picked up again. */
    const hideAndShow = async (page: Page) => {
      await setVisibility(page, "hidden");
      await setVisibility(page, "visible");
    };
    const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });

    it("counts the others' posts in the tab and the title, never one's own; the line stands before what is new", async () => {
      const id = await newGame();
      const anya = await phone("Аня", client(ANYA));
      const boris = await phone("Борис", client(BORIS));
      // Аня reads her role, then keeps the players tab open: the thread's count is on its tab and in the title.
      await readRoleMessage(anya.page, id);
      await tab(anya.page, "Игроки").click();
      await expectCount(anya.page, "thread", 0);

      await boris.page.goto(`${app.url}/games/${id}`);
      const composer = boris.page.getByLabel("Сообщение в тему");
      await composer.fill("Первый пост Бориса: доброй ночи, город.");
      await boris.page.getByRole("button", { name: "Отправить", exact: true }).click();
      await expectCount(anya.page, "thread", 1);
      await composer.fill("Второй пост Бориса: кто не спит?");
      await boris.page.getByRole("button", { name: "Отправить", exact: true }).click();
      await expectCount(anya.page, "thread", 2);
      // Борис reads as he writes: his own posts never count for him.
      await expect.poll(async () => (await unreadOf(BORIS, id))!.thread.unread, { timeout: 10_000 }).toBe(0);

      // Аня's own post (from another device) does not count; the next of Борис's does.
      await say(ANYA, id, "Пост Ани: я тут.");
      await say(BORIS, id, "Третий пост Бориса.");
      await expectCount(anya.page, "thread", 3);
      expect(await tab(anya.page, "Тема").getAttribute("aria-describedby")).toBe("game-tab-thread-unread");
      await screenshot(anya.page, "unread-tabs-phone");

      // She opens the thread: the posts on screen are read (one request for all of them), and the count goes.
      await tab(anya.page, "Тема").click();
      await expectCount(anya.page, "thread", 0);
      await expect.poll(async () => (await unreadOf(ANYA, id))!.thread.readUpTo, { timeout: 10_000 }).toBe(4);
      // No line on this visit: nothing had been read before it.
      expect(await anya.page.getByText("Новое с прошлого визита").count()).toBe(0);

      // She leaves for the players tab; two more posts come; she comes back to the thread after a reload.
      await tab(anya.page, "Игроки").click();
      await say(BORIS, id, "Пятый пост: а теперь к делу.");
      await say(NICKS[2]!, id, "Шестой пост, от Вики.");
      await expectCount(anya.page, "thread", 2);
      await anya.page.goto(`${app.url}/games/${id}`);
      const line = anya.page.locator(".thread-new");
      await line.waitFor();
      expect(await line.innerText()).toBe("Новое с прошлого визита");
      // It stands in the row of the first unread post, before the post itself.
      const row = anya.page.locator(".thread-row", { has: line });
      expect(await row.locator("article").innerText()).toContain("Пятый пост");
      expect(await row.evaluate((r) => r.firstElementChild?.classList.contains("thread-new"))).toBe(true);
      await screenshot(anya.page, "unread-line-phone");
      // Reading on, the posts are read, and the line stays where it was.
      await expect.poll(async () => (await unreadOf(ANYA, id))!.thread.readUpTo, { timeout: 10_000 }).toBe(6);
      await expectCount(anya.page, "thread", 0);
      expect(await anya.page.locator(".thread-row", { has: line }).locator("article").innerText()).toContain(
        "Пятый пост",
      );
      await anya.context.close();
      await boris.context.close();
    });

    it("reading on one phone clears the count on the other once it is looked at again", async () => {
      const id = await newGame();
      const first = await phone("Аня, телефон 1", client(ANYA));
      const second = await phone("Аня, телефон 2", client(ANYA));
      await readRoleMessage(first.page, id);
      await say(BORIS, id, "Пост для двух телефонов Ани.");
      for (const p of [first, second]) {
        await p.page.goto(`${app.url}/games/${id}/players`);
        await expectCount(p.page, "thread", 1);
      }
      // The first phone opens the thread and reads it.
      await tab(first.page, "Тема").click();
      await expectCount(first.page, "thread", 0);
      await expect.poll(async () => (await unreadOf(ANYA, id))!.thread.unread, { timeout: 10_000 }).toBe(0);
      // The second still shows what it knew, until it is looked at again.
      await expectCount(second.page, "thread", 1);
      await hideAndShow(second.page);
      await expectCount(second.page, "thread", 0);

      // A post that comes while the first phone lies in the background, its thread open at the end, is not
      // read: it shows on screen, but nobody is looking. It is read once the phone is looked at again.
      await setVisibility(first.page, "hidden");
      await say(BORIS, id, "Пост, пока телефон в кармане.");
      await first.page.getByText("Пост, пока телефон в кармане.").waitFor();
      await expectCount(first.page, "thread", 1);
      await first.page.waitForTimeout(1_500);
      expect((await unreadOf(ANYA, id))!.thread.unread).toBe(1);
      await setVisibility(first.page, "visible");
      await expectCount(first.page, "thread", 0);
      await expect.poll(async () => (await unreadOf(ANYA, id))!.thread.unread, { timeout: 10_000 }).toBe(0);
      await first.context.close();
      await second.context.close();
    });

    it("a chat counts only the others' messages, and an open chat is read", async () => {
      const id = await newGame();
      const anya = await phone("Аня", client(ANYA));
      await anya.page.goto(`${app.url}/games/${id}/players`);
      // The role message in her chat with the GM is unread from the start.
      await expectCount(anya.page, "chats", 1);
      const message = async (nick: string, text: string) =>
        expectOk(await client(nick).post(`/api/games/${id}/channels/mafia`, { text }));
      await message(BORIS, "Кого берём этой ночью?");
      await expectCount(anya.page, "chats", 2);
      // Her own message (sent from another device) does not count; the next of his does.
      await message(ANYA, "Думаю над этим.");
      await message(BORIS, "Предлагаю Олега.");
      await expectCount(anya.page, "chats", 3);

      // The chats tab opens on the mafia's chat: read. The chat with the GM keeps its count until opened.
      await tab(anya.page, "Чаты").click();
      const mafia = anya.page.getByRole("tab", { name: "Чат мафии" });
      const withGm = anya.page.getByRole("tab", { name: "Личка с ведущим" });
      await expect.poll(() => mafia.getAttribute("aria-selected")).toBe("true");
      await expectCount(anya.page, "chats", 1);
      expect(await mafia.locator(".unread-badge").count()).toBe(0);
      expect(await withGm.locator(".unread-badge").getAttribute("data-count")).toBe("1");
      await screenshot(anya.page, "unread-chats-phone");
      await withGm.click();
      await expectCount(anya.page, "chats", 0);
      await expect
        .poll(async () => (await unreadOf(ANYA, id))!.channels.map((c) => [c.id, c.unread]), {
          timeout: 10_000,
        })
        .toEqual([
          ["mafia", 0],
          ["gm:0", 0],
        ]);
      await anya.context.close();
    });

    it("«Посты игрока» shows only that player's posts, by keyboard, and leads back to the whole thread", async () => {
      const id = await newGame();
      for (let i = 1; i <= 3; i++) {
        await say(BORIS, id, `Борис, пост ${i}.`);
        await say(NICKS[2]!, id, `Вика, пост ${i}.`);
      }
      const anya = await phone("Аня", client(ANYA));
      await anya.page.goto(`${app.url}/games/${id}`);
      await anya.page.getByText("Вика, пост 3.").waitFor();
      const button = anya.page.getByRole("button", { name: `Посты игрока ${BORIS}` }).first();
      await button.focus();
      await anya.page.keyboard.press("Enter");
      const bar = anya.page.getByRole("region", { name: "Фильтр темы" });
      await bar.getByText(`Показаны только посты игрока ${BORIS}: 3`).waitFor();
      // The bar takes the focus, and every post shown is his.
      expect(
        await anya.page.evaluate(() => document.activeElement?.classList.contains("thread-filter")),
      ).toBe(true);
      const authors = await anya.page.locator("article").evaluateAll((els) => els.map((e) => e.ariaLabel));
      expect(authors).toEqual([`Пост ${BORIS}`, `Пост ${BORIS}`, `Пост ${BORIS}`]);
      expect(await anya.page.getByText("Вика, пост").count()).toBe(0);
      // A new post of his joins the filtered thread live; hers does not.
      await say(BORIS, id, "Борис, пост 4.");
      await say(NICKS[2]!, id, "Вика, пост 4.");
      await bar.getByText(`Показаны только посты игрока ${BORIS}: 4`).waitFor();
      expect(await anya.page.getByText("Вика, пост").count()).toBe(0);
      await screenshot(anya.page, "posts-of-phone");

      // Back to the whole thread by keyboard.
      await bar.getByRole("button", { name: "Вся тема" }).focus();
      await anya.page.keyboard.press("Enter");
      await anya.page.getByText("Вика, пост 4.").waitFor();
      expect(await anya.page.evaluate(() => document.activeElement?.textContent)).toBe("Постов: 8");
      expect(await anya.page.getByRole("region", { name: "Фильтр темы" }).count()).toBe(0);

      // From the players list as well: it opens the thread with the filter on.
      await tab(anya.page, "Игроки").click();
      const fromList = anya.page.getByRole("button", { name: `Посты игрока ${NICKS[2]}` });
      await fromList.scrollIntoViewIfNeeded();
      await screenshot(anya.page, "players-posts-of-phone");
      await fromList.click();
      await bar.getByText(`Показаны только посты игрока ${NICKS[2]}: 4`).waitFor();
      expect(await tab(anya.page, "Тема").getAttribute("aria-selected")).toBe("true");
      await anya.context.close();
    });

    it("a profile shows an ended game's role and result; the author's nick leads there; an unknown nick is a 404 in words", async () => {
      // A game that ends at once: the GM modkills the mafia and the maniac and closes the night.
      const id = await newGame();
      await say(ANYA, id, "Пост Ани перед концом.");
      for (let seat = 0; seat < NICKS.length; seat++)
        if (EVIL.has(DEFAULT_ROLES[seat]!))
          expectOk(await gm.post(`/api/games/${id}/gm/modkill`, { seat, reason: "проверка профиля" }));
      expectOk(await gm.post(`/api/games/${id}/gm/close`));
      await expect.poll(async () => (await detail(gm, id)).summary.status, { timeout: 10_000 }).toBe("ended");

      const vika = await phone("Вика", client(NICKS[2]!));
      await vika.page.goto(`${app.url}/games/${id}`);
      await vika.page
        .getByRole("link", { name: `Профиль игрока ${ANYA}` })
        .first()
        .click();
      await vika.page.getByRole("heading", { name: `Игрок ${ANYA}` }).waitFor();
      expect(new URL(vika.page.url()).pathname).toBe(`/u/${encodeURIComponent(ANYA)}`);
      const game = vika.page
        .locator(".profile-games li")
        .filter({ hasText: "Партия про непрочитанное" })
        .first();
      await game.getByText("Роль: Босс мафии (Мафия)").waitFor();
      await game.getByText("поражение").waitFor();
      await game.getByText(/модкилл/).waitFor();
      await vika.page.getByRole("table", { name: "Победы по сторонам" }).waitFor();
      await screenshot(vika.page, "profile-phone");

      await vika.page.goto(`${app.url}/u/${encodeURIComponent("Нет Такого")}`);
      await vika.page.getByText("Игрока с ником «Нет Такого» нет").waitFor();
      await vika.context.close();
    });
  },
);
