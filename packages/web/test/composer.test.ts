import { DEFAULT_ROLES, type RoleId } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { DAY_MS, detail, expectOk, NICKS, NIGHT_MS } from "../../server/test/play.ts";
import { browserApp, browserMissing, newPage, PHONE, registerInApp, screenshot } from "./browser.ts";

/**
 * Issue 12, "what a player needs to see", on a phone (360 px): the composer says what a post will count
 * as before it is sent, one-tap votes can be undone and an early vote is confirmed, and the night form
 * preselects nothing and lists the targets closed tonight with the reason. One player (the girl) uses the
 * browser; the other sixteen act through the API, passing every night and voting blue by day, so nobody
 * dies and nobody collects strikes.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const ME = "Вика";
const RABBIT = "Белый Кролик";
const VISITED = "Олег";
const OTHERS = [...NICKS.filter((n) => n !== ME).slice(0, DEFAULT_ROLES.length - 2), RABBIT];
const PLAYERS = [ME, ...OTHERS];
const HAND: RoleId[] = (() => {
  const rest = [...DEFAULT_ROLES];
  rest.splice(rest.indexOf("girl"), 1);
  return ["girl", ...rest];
})();
const seatOf = (nick: string): number => PLAYERS.indexOf(nick);

describe.skipIf(missing !== null)(
  "the composer, the votes and the night form (issue 12)",
  { timeout: 120_000 },
  () => {
    const app = browserApp();
    let page: Page;
    let errors: string[] = [];
    let gm: Client;
    let me: Client;
    const clients = new Map<string, Client>();
    const gmDetail = (id: string): Promise<GameDetail> => detail(gm, id);

    // Every test sets up the game it needs (no test relies on another having run): the accounts are made
    // once, here. The girl registers in a phone's browser (the page stays logged in); the rest use the API.
    beforeAll(async () => {
      const p = await newPage(app.browser, PHONE);
      page = p.page;
      errors = p.errors;
      await registerInApp(page, app.url, ME);
      me = new Client(() => app.t.server.app, ME);
      expectOk(await me.req("POST", "/api/login", { nick: ME, password: "correct horse battery" }));
      gm = new Client(() => app.t.server.app, "Ведущий");
      expectOk(await gm.register());
      for (const nick of OTHERS) {
        const c = new Client(() => app.t.server.app, nick);
        expectOk(await c.register());
        clients.set(nick, c);
      }
    }, 120_000);

    // No page error in any test (each test's own).
    afterEach(() => {
      expect(errors.splice(0)).toEqual([]);
    });

    let games = 0;
    /** Night 1 of an automatic game: the girl (me) in seat 0, the sixteen others after her. */
    const nightOne = async (): Promise<{ id: string; title: string }> => {
      const title = `Партия про композер ${++games}`;
      const created = await gm.post<{ id: string }>("/api/games", {
        title,
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
      });
      expectOk(created);
      const id = created.body.id;
      expectOk(await me.post(`/api/games/${id}/signup`));
      for (const nick of OTHERS) expectOk(await clients.get(nick)!.post(`/api/games/${id}/signup`));
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: HAND } }));
      return { id, title };
    };
    /** Day 1: at night the girl visited VISITED and the others passed. */
    const dayOne = async (): Promise<string> => {
      const { id } = await nightOne();
      expectOk(await me.post(`/api/games/${id}/actions`, { act: "visit", target: seatOf(VISITED) }));
      await othersPass(id);
      await app.t.clock.advance(NIGHT_MS);
      expect(await phase(id)).toMatchObject({ kind: "day", number: 1 });
      return id;
    };
    /** Night 2: by day the girl voted red for the rabbit, the others blue, and nobody was hanged. */
    const nightTwo = async (): Promise<string> => {
      const id = await dayOne();
      expectOk(await me.post(`/api/games/${id}/votes`, { color: "red", target: seatOf(RABBIT) }));
      await othersVoteBlue(id);
      await app.t.clock.advance(DAY_MS);
      expect(await phase(id)).toMatchObject({ kind: "night", number: 2 });
      return id;
    };
    /** Day 3, after two more quiet phases of the same kind. */
    const dayThree = async (): Promise<string> => {
      const id = await nightTwo();
      expectOk(await me.post(`/api/games/${id}/actions`, { act: "visit", target: seatOf(RABBIT) }));
      await othersPass(id);
      await app.t.clock.advance(NIGHT_MS);
      expectOk(await me.post(`/api/games/${id}/votes`, { color: "red", target: seatOf(RABBIT) }));
      await othersVoteBlue(id);
      await app.t.clock.advance(DAY_MS);
      expectOk(await me.post(`/api/games/${id}/actions`, { act: "pass" }));
      await othersPass(id);
      await app.t.clock.advance(NIGHT_MS);
      expect(await phase(id)).toMatchObject({ kind: "day", number: 3 });
      return id;
    };

    /** Every API player with a night form passes (no deaths, no strikes). */
    const othersPass = async (id: string) => {
      for (const nick of OTHERS) {
        const c = clients.get(nick)!;
        if ((await detail(c, id)).form) expectOk(await c.post(`/api/games/${id}/actions`, { act: "pass" }));
      }
    };
    /** Every API player votes blue for the rabbit (the rabbit for me): a negative score, nobody hanged (V5). */
    const othersVoteBlue = async (id: string) => {
      const seats = (await gmDetail(id)).view!.seats;
      for (const nick of OTHERS) {
        if (seats[seatOf(nick)]!.cannotVote) continue; // T4: the girl's visit may take a vote (V6)
        const target = nick === RABBIT ? seatOf(ME) : seatOf(RABBIT);
        expectOk(await clients.get(nick)!.post(`/api/games/${id}/votes`, { color: "blue", target }));
      }
    };
    const phase = async (id: string) => (await gmDetail(id)).view!.phase;
    const composer = () => page.getByLabel("Сообщение в тему");

    it("sets up a game: the girl in a phone's browser, sixteen players through the API", async () => {
      const { id } = await nightOne();
      expect((await gmDetail(id)).view!.seats.map((s) => s.name)).toEqual(PLAYERS);
      expect(await phase(id)).toEqual({ kind: "night", number: 1 });
    });

    it("the night form preselects nothing and lists oneself disabled, with the reason", async () => {
      const { id } = await nightOne();
      await page.goto(`${app.url}/games/${id}/role`);
      const visit = page.getByRole("radio", { name: /Навестить/ });
      await visit.waitFor();
      expect(await page.locator("input[type=radio]:checked").count()).toBe(0);
      const submit = page.getByRole("button", { name: "Отправить ход" });
      expect(await submit.isDisabled()).toBe(true);
      await page.getByText("Выберите действие.").waitFor();
      await visit.check();
      expect(await page.locator("input[type=radio]:checked").count()).toBe(1); // the act, no target
      expect(await submit.isDisabled()).toBe(true);
      await page.getByText("Выберите цель.").waitFor();
      const self = page.getByRole("radio", { name: new RegExp(`${ME} \\(вы\\)`) });
      expect(await self.isDisabled()).toBe(true);
      await page.getByText("на себя нельзя").waitFor();
      await page.getByRole("radio", { name: VISITED, exact: true }).check();
      await submit.click();
      await page.getByText("Ход принят").waitFor();
    });

    it("at night the composer offers no vote buttons and says coloured names are not votes", async () => {
      const { id } = await nightOne();
      await page.goto(`${app.url}/games/${id}`);
      await composer().waitFor();
      expect(await page.getByRole("button", { name: "Голос красным" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Голос синим" }).count()).toBe(0);
      await composer().fill(`[color=red]${RABBIT}[/color]`);
      await page.getByText("Ночью цветные ники — не голоса.").waitFor();
      await screenshot(page, "composer-night-phone");
      await composer().fill("");
    });

    it("by day the composer shows the detected vote, and warns that a red «Кролик» names nobody", async () => {
      const id = await dayOne();
      await page.goto(`${app.url}/games/${id}`);
      await page.getByRole("button", { name: "Голос красным" }).waitFor();
      await composer().fill(`Я за [color=red]${RABBIT}[/color]`);
      await page.getByText(`Голос: КРАСНЫМ против ${RABBIT}`).waitFor();
      await composer().fill("[color=red]Кролик[/color]");
      await page
        .getByText(`Цветом выделено «Кролик», но такого игрока нет: это не голос. Возможно: ${RABBIT}`)
        .waitFor();
      expect(await page.getByText(`Голос: КРАСНЫМ против ${RABBIT}`).count()).toBe(0);
      await composer().fill(`[color=red]${ME}[/color]`);
      await page.getByText(/Голос не засчитается, и пост не отправится: Нельзя голосовать за себя/).waitFor();
      await screenshot(page, "composer-warning-phone");
      await composer().fill("");
      // Nothing was stored by the previews.
      expect((await gmDetail(id)).view!.votes).toEqual([]);
    });

    it("a one-tap vote waits with an undo button; undone, it is never sent; left alone, it is", async () => {
      const id = await dayOne();
      await page.goto(`${app.url}/games/${id}/players`);
      await page.getByRole("button", { name: `Голосовать красным за ${RABBIT}` }).click();
      await page.getByText(new RegExp(`Голос КРАСНЫМ против ${RABBIT} уйдёт через \\d с`)).waitFor();
      await screenshot(page, "vote-undo-phone");
      await page.getByRole("button", { name: `Отменить голос за ${RABBIT}` }).click();
      await page.getByText(`Голос за ${RABBIT} отменён и не отправлен.`).waitFor();
      await page.waitForTimeout(6_000);
      expect((await gmDetail(id)).view!.votes).toEqual([]);

      // By keyboard: the button takes focus and Enter taps it; the countdown runs out and the vote is sent.
      await page.getByRole("button", { name: `Голосовать красным за ${RABBIT}` }).focus();
      await page.keyboard.press("Enter");
      await page.getByText(`Голос за ${RABBIT} отправлен.`).waitFor({ timeout: 10_000 });
      expect((await gmDetail(id)).view!.votes).toContainEqual(
        expect.objectContaining({ seat: seatOf(ME), color: "red", target: seatOf(RABBIT) }),
      );
    });

    it("on night 2 the form lists last night's visit disabled: not two nights in a row (T4)", async () => {
      const id = await nightTwo();
      await page.goto(`${app.url}/games/${id}/role`);
      await page.getByRole("radio", { name: /Навестить/ }).check();
      const visited = page.getByRole("radio", { name: new RegExp(`^${VISITED}`) });
      expect(await visited.isDisabled()).toBe(true);
      await page.getByText(`${VISITED} — нельзя два раза подряд`).waitFor();
      await screenshot(page, "night-form-closed-target-phone");
      await page.getByRole("radio", { name: RABBIT, exact: true }).check();
      await page.getByRole("button", { name: "Отправить ход" }).click();
      await page.getByText("Ход принят").waitFor();
    });

    it("from day 3 an early vote asks for confirmation first (V7), by keyboard", async () => {
      const id = await dayThree();
      await page.goto(`${app.url}/games/${id}/players`);
      await page.getByLabel("Досрочно").check();
      await page.getByRole("button", { name: `Голосовать синим за ${RABBIT}` }).click();
      const question = page.getByRole("group", { name: "Подтверждение досрочного голоса" });
      await question.getByText(/нельзя будет изменить до конца дня/).waitFor();
      await screenshot(page, "early-confirm-phone");
      // Cancelled: nothing is held or sent.
      await question.getByRole("button", { name: "Отмена" }).click();
      expect(await page.getByRole("button", { name: /Отменить голос/ }).count()).toBe(0);
      // Confirmed with the keyboard (the question takes focus): held, then sent as early.
      await page.getByRole("button", { name: `Голосовать синим за ${RABBIT}` }).click();
      await page.keyboard.press("Enter");
      await page.getByText(new RegExp(`Голос СИНИМ в защиту ${RABBIT} \\(досрочно\\) уйдёт через`)).waitFor();
      await page.getByText(`Голос за ${RABBIT} отправлен.`).waitFor({ timeout: 10_000 });
      expect((await gmDetail(id)).view!.votes).toContainEqual(
        expect.objectContaining({ seat: seatOf(ME), color: "blue", target: seatOf(RABBIT), early: true }),
      );
    });

    it("offers the Ctrl+Enter hint with a mouse and not on a touch screen", async () => {
      const { id } = await nightOne();
      await page.goto(`${app.url}/games/${id}`);
      await composer().waitFor();
      expect(await page.getByText("Ctrl+Enter").count()).toBe(1);
      // The same session on a phone's touch screen: the primary pointer is coarse.
      const touch = await app.browser.newContext({
        viewport: PHONE,
        locale: "ru-RU",
        hasTouch: true,
        isMobile: true,
        storageState: await page.context().storageState(),
      });
      try {
        const phone = await touch.newPage();
        const touchErrors: string[] = [];
        phone.on("pageerror", (e) => touchErrors.push(String(e)));
        await phone.goto(`${app.url}/games/${id}`);
        await phone.getByLabel("Сообщение в тему").waitFor();
        expect(await phone.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
        expect(await phone.getByText("Ctrl+Enter").count()).toBe(0);
        expect(touchErrors).toEqual([]);
      } finally {
        await touch.close();
      }
    });

    it("shows every key screen of a player without a console error", async () => {
      const id = await dayOne();
      const title = (await gmDetail(id)).summary.title;
      for (const tab of ["", "/players", "/role", "/chats", "/results"]) {
        await page.goto(`${app.url}/games/${id}${tab}`);
        await page.getByRole("tablist").first().waitFor();
        await page.waitForTimeout(300);
        await screenshot(page, `issue12${tab.replace("/", "-") || "-thread"}-phone`);
      }
      await page.goto(app.url);
      await page.getByText(title).first().waitFor();
    });
  },
);
