import type { RoleId } from "@forum-mafia/engine";
import type { MyGames, MySettings } from "@forum-mafia/protocol";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { expectOk, NICKS } from "../../server/test/play.ts";
import { browserApp, browserMissing, DESKTOP, newPage, PHONE, screenshot, BOSS_FIRST } from "./browser.ts";

/**
 * Issue 15 in Chromium: «Мои игры» at `/` for a signed-in player (what is owed, and that it goes once
 * done; the data refreshed every minute and when the tab comes back), the settings page (reminder times
 * and quiet hours saved and shown after a reload; e-mail off on a server without it; the browser's
 * refusal of notifications), and the reminder banner (a due reminder at the top of every page, at 360 px,
 * by keyboard, dismissed for good; one browser notification per reminder).
 *
 * The server's clock is the test's; each browser page's clock is set to it (`page.clock`), so "осталось"
 * and "через 5 минут" read as a player would see them.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

// Seat 0 holds the mafia boss: the player in the browser owes a night move on night 1.
const HAND: RoleId[] = [...BOSS_FIRST];
const MINUTE = 60_000;
/** Ten-minute phases: with the default reminders (2 h, 15 min), cut to half a phase, one at 5 minutes left. */
const PHASE_MINUTES = 10;

/**
 * A stand-in for the browser's Notification, installed before the app's scripts: it records each
 * notification in localStorage (so a reload keeps the record) and answers the permission asked with
 * `answer`.
 */
function fakeNotifications(answer: NotificationPermission): void {
  const log = (title: string, options?: NotificationOptions) => {
    const notes: unknown[] = JSON.parse(localStorage.getItem("test.notes") ?? "[]");
    notes.push({ title, body: options?.body, tag: options?.tag });
    localStorage.setItem("test.notes", JSON.stringify(notes));
  };
  let permission: NotificationPermission = answer === "granted" ? "granted" : "default";
  class FakeNotification {
    static get permission(): NotificationPermission {
      return permission;
    }
    static async requestPermission(): Promise<NotificationPermission> {
      permission = answer;
      return answer;
    }
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      log(title, options);
    }
    close(): void {}
  }
  Object.defineProperty(window, "Notification", { value: FakeNotification, configurable: true });
}

const notes = (page: Page): Promise<{ title: string; body: string; tag: string }[]> =>
  page.evaluate(() => JSON.parse(localStorage.getItem("test.notes") ?? "[]"));

/** The visible words of the page outside form fields and the language menu that are Latin letters. */
const latinWords = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("code, pre, select, option, script, style, input, textarea")) continue;
      if (!parent.checkVisibility()) continue;
      out.push(...((node.textContent ?? "").match(/[A-Za-z]{2,}/g) ?? []));
    }
    return out;
  });

describe.skipIf(missing !== null)(
  "«Мои игры», settings and reminders (issue 15)",
  { timeout: 180_000 },
  () => {
    const app = browserApp();
    let gm: Client;
    let players: Client[];

    beforeAll(async () => {
      gm = new Client(() => app.t.server.app, "Ведущий");
      expectOk(await gm.register());
      players = [];
      for (const nick of NICKS) {
        const c = new Client(() => app.t.server.app, nick);
        expectOk(await c.register());
        players.push(c);
      }
    });

    /** A game of the GM and the seventeen (dealt HAND), started: night 1 of ten minutes. */
    const newGame = async (title: string): Promise<string> => {
      const created = await gm.post<{ id: string }>("/api/games", {
        title,
        night: { amount: PHASE_MINUTES, unit: "minutes" },
        day: { amount: PHASE_MINUTES, unit: "minutes" },
        mode: "automatic",
      });
      expectOk(created);
      const id = created.body.id;
      for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: HAND } }));
      return id;
    };

    /** A browser page logged in as `client`, its clock at the server's. */
    const browserAs = async (
      client: Client,
      opts: { size?: typeof PHONE; notifications?: NotificationPermission } = {},
    ) => {
      const p = await newPage(app.browser, opts.size ?? PHONE);
      const [name, ...value] = client.cookie!.split("=");
      await p.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
      if (opts.notifications) await p.context.addInitScript(fakeNotifications, opts.notifications);
      await p.page.clock.install({ time: app.t.clock.now() });
      return p;
    };
    /** Move the server's clock on, and the page's with it. */
    const advance = async (page: Page, ms: number) => {
      await app.t.clock.advance(ms);
      await page.clock.setSystemTime(app.t.clock.now());
    };
    const myGames = async (c: Client): Promise<MyGames> => (await c.get<MyGames>("/api/me/games")).body;

    it("«Мои игры» shows the active game with the move owed, and the move goes once made; signups, hosting, unread", async () => {
      const id = await newGame("Партия Ани");
      const signup = await gm.post<{ id: string }>("/api/games", {
        title: "Набор для Ани",
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
      });
      expectOk(signup);
      expectOk(await players[0]!.post(`/api/games/${signup.body.id}/signup`));
      for (const [i, p] of [players[1]!, players[2]!, players[1]!].entries())
        expectOk(await p.post(`/api/games/${id}/posts`, { text: `Доброй ночи, город! Пост ${i + 1}.` }));

      const { page, errors } = await browserAs(players[0]!);
      await page.goto(app.url);
      await page.getByRole("heading", { name: "Мои игры", level: 1 }).waitFor();
      const card = page.getByRole("article", { name: "Партия Ани" });
      await card.getByText("Вы ещё не сделали ночной ход").waitFor();
      await card.getByText("Ночь 1").waitFor();
      await card.getByText(/^осталось 10 мин|^осталось 9 мин/).waitFor();
      // The unread posts, per game and in the tab's title (the server's count, as the page shows it).
      const mine = (await myGames(players[0]!)).active.find((g) => g.id === id)!;
      expect(mine.unread.thread).toBeGreaterThanOrEqual(3);
      await card.getByText(new RegExp(`^${mine.unread.thread} новы(й|х) пост`)).waitFor();
      const total = (await myGames(players[0]!)).active.reduce(
        (n, g) => n + g.unread.thread + g.unread.channels,
        0,
      );
      await expect.poll(() => page.title()).toBe(`(${total}) Форумная мафия`);
      // The signup, with its place; the lobby's own controls below.
      await page
        .getByRole("article", { name: "Набор для Ани" })
        .getByText("Вы записаны: место 1 из 17")
        .waitFor();
      await page.getByRole("button", { name: "Сыграть демо-игру" }).waitFor();
      await screenshot(page, "my-games-phone");
      expect(await latinWords(page)).toEqual([]);

      // The move is made (in another tab, say); back to «Мои игры» by keyboard, it is no longer owed.
      await page.goto(`${app.url}/games/${id}`);
      expectOk(await players[0]!.post(`/api/games/${id}/actions`, { act: "pass" }));
      await page.getByRole("link", { name: "Мои игры" }).focus();
      await page.keyboard.press("Enter");
      await card.getByText("Сейчас от вас ничего не ждут.").waitFor();
      expect(await card.getByText("Вы ещё не сделали ночной ход").count()).toBe(0);

      // Day 1: the vote is owed; cast elsewhere, it goes at the page's next minute without a reload.
      await advance(page, PHASE_MINUTES * MINUTE);
      await page.reload();
      await card.getByText("День 1").waitFor();
      await card.getByText("Вы ещё не проголосовали").waitFor();
      expectOk(await players[0]!.post(`/api/games/${id}/votes`, { color: "red", target: 5 }));
      await page.waitForTimeout(300);
      expect(await card.getByText("Вы ещё не проголосовали").count()).toBe(1);
      await page.clock.fastForward(MINUTE);
      await card.getByText("Сейчас от вас ничего не ждут.").waitFor();

      // The GM's «Мои игры»: the game is under «Веду», with the console a link away.
      const host = await browserAs(gm, { size: DESKTOP });
      await host.page.goto(app.url);
      const hosting = host.page.getByRole("region", { name: /^Веду/ });
      await hosting.getByRole("article", { name: "Партия Ани" }).getByText("День 1").waitFor();
      await hosting.getByRole("link", { name: "Пульт ведущего игры «Партия Ани»" }).click();
      await host.page.waitForURL(new RegExp(`/games/${id}/gm$`));
      await host.page.goto(app.url);
      await hosting.getByRole("article", { name: "Партия Ани" }).waitFor();
      await screenshot(host.page, "my-games-gm-desktop");
      expect([...errors, ...host.errors]).toEqual([]);
      await host.context.close();
      await page.context().close();
    });

    it("the banner shows a due reminder on every page, at 360 px and by keyboard; one browser notification", async () => {
      const id = await newGame("Партия с напоминанием");
      const { page, errors, context } = await browserAs(players[0]!, { notifications: "granted" });
      // Browser notifications on (the fake browser allows them).
      await page.goto(`${app.url}/settings`);
      await page.getByLabel("Показывать уведомления браузера").check();
      await page.getByRole("button", { name: "Сохранить настройки" }).click();
      await page.getByText("Настройки сохранены.").waitFor();

      await page.goto(app.url);
      await page.getByRole("article", { name: "Партия с напоминанием" }).waitFor();
      expect(await page.getByRole("region", { name: "Напоминания" }).count()).toBe(0);
      // Five minutes before the night's end the reminder is due; the tab coming back looks again.
      await advance(page, (PHASE_MINUTES / 2) * MINUTE);
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      const banner = page.getByRole("region", { name: "Напоминания" });
      const text =
        "Через 5 минут заканчивается ночь 1 в игре «Партия с напоминанием»: вы ещё не сделали ночной ход.";
      await banner.getByText(text).waitFor();
      await expect.poll(async () => (await notes(page)).map((n) => n.body)).toEqual([text]);
      await screenshot(page, "reminder-phone");
      expect(await latinWords(page)).toEqual([]);
      // At the top of every page.
      await page.goto(`${app.url}/tools`);
      await banner.getByText(text).waitFor();
      // A new page load notifies no more: once per reminder.
      await page.waitForTimeout(300);
      expect((await notes(page)).length).toBe(1);
      await screenshot(page, "reminder-tools-phone");

      // By keyboard: the skip link, then the banner's link to the game.
      await page.keyboard.press("Tab");
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("К содержимому");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe("К игре «Партия с напоминанием»");
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`/games/${id}$`));
      await banner.getByText(text).waitFor();
      // Dismissed by keyboard, for good: a reload shows it no more, and notifies no more.
      await page.getByRole("button", { name: "Скрыть напоминание об игре «Партия с напоминанием»" }).focus();
      await page.keyboard.press("Enter");
      await banner.waitFor({ state: "detached" });
      await page.reload();
      await page.locator("#game-title").waitFor();
      await page.waitForTimeout(500);
      expect(await page.getByRole("region", { name: "Напоминания" }).count()).toBe(0);
      expect((await notes(page)).length).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("the banner goes once the move is made", async () => {
      const id = await newGame("Партия без долгов");
      const { page, errors, context } = await browserAs(players[0]!);
      await advance(page, (PHASE_MINUTES / 2) * MINUTE);
      await page.goto(app.url);
      const banner = page.getByRole("region", { name: "Напоминания" });
      await banner.getByText(/^Через 5 минут заканчивается ночь 1 в игре «Партия без долгов»/).waitFor();
      expectOk(await players[0]!.post(`/api/games/${id}/actions`, { act: "pass" }));
      // While a reminder shows, a change of page (in the app, no reload) looks again.
      await banner.getByRole("link", { name: "К игре «Партия без долгов»" }).click();
      await page.waitForURL(new RegExp(`/games/${id}$`));
      await expect.poll(() => page.getByRole("region", { name: "Напоминания" }).count()).toBe(0);
      await page.getByRole("link", { name: "Мои игры" }).click();
      const card = page.getByRole("article", { name: "Партия без долгов" });
      await card.getByText("Сейчас от вас ничего не ждут.").waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });

    it("the settings save the reminder times and quiet hours (a reload shows them); e-mail is off on this server", async () => {
      const borya = players[1]!;
      const { page, errors, context } = await browserAs(borya);
      await page.goto(`${app.url}/settings`);
      await page.getByRole("heading", { name: "Настройки", level: 1 }).waitFor();
      const settings = (await borya.get<MySettings>("/api/me/settings")).body;
      expect(settings.emailAvailable).toBe(false);
      await page.getByText("На этом сервере письма не отправляются").waitFor();
      expect(await page.getByLabel("Адрес почты").isDisabled()).toBe(true);
      // The defaults: 2 hours and 15 minutes.
      const amount = (n: number) => page.getByLabel(`Напоминание ${n}: за`);
      const unit = (n: number) => page.getByLabel(`Единица времени напоминания ${n}`);
      expect([await amount(1).inputValue(), await unit(1).inputValue()]).toEqual(["2", "h"]);
      expect([await amount(2).inputValue(), await unit(2).inputValue()]).toEqual(["15", "m"]);
      await screenshot(page, "settings-phone");
      expect(await latinWords(page)).toEqual([]);

      // A wrong time is said in words, next to the field, and gets the focus.
      await amount(1).fill("3");
      await amount(2).fill("0");
      await page.getByRole("button", { name: "Сохранить настройки" }).click();
      await page
        .getByRole("alert")
        .getByText("Напоминание 2: целое число от 1 минуты до 48 часов.")
        .waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid")))
        .toBe("true");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("45");
      // Two more by keyboard (the new one gets the focus), the fourth fills the list; one removed.
      const add = page.getByRole("button", { name: "Добавить напоминание" });
      await add.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => amount(3).evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press("Control+A");
      await page.keyboard.type("1");
      await unit(3).selectOption("h");
      await add.click();
      expect(await add.isDisabled()).toBe(true);
      await page.getByText("Напоминаний может быть не больше четырёх.").waitFor();
      await page.getByRole("button", { name: "Убрать напоминание 4" }).click();
      expect(await add.isDisabled()).toBe(false);
      // Quiet hours, in the user's time zone (named in words).
      await page.getByLabel("Не присылать напоминания в тихие часы").check();
      await page.getByLabel("С", { exact: true }).fill("22:30");
      await page.getByLabel("До", { exact: true }).fill("07:45");
      await page.getByText(/Время по вашему часовому поясу: Москва/).waitFor();
      await page.getByRole("button", { name: "Сохранить настройки" }).click();
      await page.getByText("Настройки сохранены.").waitFor();
      const saved = (await borya.get<MySettings>("/api/me/settings")).body;
      expect(saved.reminders).toEqual({
        before: ["3h", "45m", "1h"],
        quietHours: { from: "22:30", to: "07:45" },
      });

      await page.reload();
      await amount(3).waitFor();
      expect([await amount(1).inputValue(), await unit(1).inputValue()]).toEqual(["3", "h"]);
      expect([await amount(2).inputValue(), await unit(2).inputValue()]).toEqual(["45", "m"]);
      expect([await amount(3).inputValue(), await unit(3).inputValue()]).toEqual(["1", "h"]);
      expect(await amount(4).count()).toBe(0);
      expect(await page.getByLabel("Не присылать напоминания в тихие часы").isChecked()).toBe(true);
      expect(await page.getByLabel("С", { exact: true }).inputValue()).toBe("22:30");
      expect(await page.getByLabel("До", { exact: true }).inputValue()).toBe("07:45");

      // After the e-mail's confirmation link: a note, and the address loses its mark.
      await page.goto(`${app.url}/settings?confirmed=1`);
      await page.getByText("Адрес почты подтверждён").waitFor();
      await page.waitForURL(`${app.url}/settings`);
      await screenshot(page, "settings-confirmed-phone");
      expect(errors).toEqual([]);
      await context.close();
    });

    it("says when the browser refuses notifications; English is a switch away", async () => {
      const { page, errors, context } = await browserAs(players[2]!, {
        notifications: "denied",
        size: DESKTOP,
      });
      await page.goto(`${app.url}/settings`);
      const box = page.getByLabel("Показывать уведомления браузера");
      await box.click();
      await page.getByText("Браузер запретил уведомления для этого сайта").waitFor();
      expect(await box.isChecked()).toBe(false);
      await screenshot(page, "settings-denied-desktop");
      await page.getByLabel("Язык").selectOption("en");
      await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
      await page.getByRole("link", { name: "My games" }).click();
      await page.getByRole("heading", { name: "My games", level: 1 }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  },
);
