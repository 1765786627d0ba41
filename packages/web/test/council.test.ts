import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { detail, expectOk, NICKS, NIGHT_MS } from "../../server/test/play.ts";
import { browserApp, browserMissing, DESKTOP, newPage, PHONE, registerInApp, screenshot } from "./browser.ts";

/**
 * M2c in real Chromium: the mafia's night form offers the council's listed questions (radio buttons, on a
 * 360 px phone), and a question of one's own only in a game with a GM; the GM sees the rules' answer and
 * is asked for a reason to give another (F2). The hand deal follows RULES.md §1's table: Аня boss, Борис
 * troll, … Зоя doctor, … The boss plays in the browser; the others act through the API.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const DOCTOR_ALIVE = "Есть ли среди живых доктор?";
const DOCTOR_ALIVE_EN = "Is the doctor among the living?";

describe.skipIf(missing !== null)("the council in Chromium", { timeout: 120_000 }, () => {
  const app = browserApp();
  const api = new Map<string, Client>();
  let boss: { page: Page; errors: string[] };
  let gm: { page: Page; errors: string[] };

  beforeAll(async () => {
    boss = await newPage(app.browser, PHONE);
    await registerInApp(boss.page, app.url, NICKS[0]!);
    gm = await newPage(app.browser, DESKTOP);
    await registerInApp(gm.page, app.url, "Ведущий");
    for (const nick of ["Ведущий", ...NICKS]) {
      const c = new Client(() => app.t.server.app, nick);
      if (nick === "Ведущий" || nick === NICKS[0])
        expectOk(await c.req("POST", "/api/login", { nick, password: "correct horse battery" }));
      else expectOk(await c.register());
      api.set(nick, c);
    }
  }, 120_000);

  afterEach(() => {
    expect({ boss: boss.errors.splice(0), gm: gm.errors.splice(0) }).toEqual({ boss: [], gm: [] });
  });

  let games = 0;
  const started = async (mode: "automatic" | "review"): Promise<string> => {
    const created = await api.get("Ведущий")!.post<{ id: string }>("/api/games", {
      title: `Совет ${++games}`,
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode,
    });
    expectOk(created);
    const id = created.body.id;
    for (const nick of NICKS) expectOk(await api.get(nick)!.post(`/api/games/${id}/signup`));
    expectOk(
      await api.get("Ведущий")!.post(`/api/games/${id}/start`, { deal: { hand: [...DEFAULT_ROLES] } }),
    );
    return id;
  };
  const gmDetail = (id: string): Promise<GameDetail> => detail(api.get("Ведущий")!, id);

  it("M2c: without a GM the mafia choose from the list only, by keyboard on a phone; English is a switch away", async () => {
    const id = await started("automatic");
    const page = boss.page;
    await page.goto(`${app.url}/games/${id}/role`);
    await page.getByRole("radio", { name: /Вопрос совету/ }).check();
    const list = page.getByRole("group", { name: "Вопрос совету" });
    await list.waitFor();
    expect(await list.getByRole("radio").count()).toBe(13);
    expect(await page.getByRole("radio", { name: /Свой вопрос/ }).count()).toBe(0);
    expect(await page.locator("textarea").count()).toBe(0);
    await page.getByText("В игре без ведущего совет отвечает только на вопросы из списка.").waitFor();
    expect(await page.getByRole("button", { name: "Отправить ход" }).isDisabled()).toBe(true);
    // The keyboard: focus the first question, move with the arrows.
    await list.getByRole("radio").first().focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.getByRole("radio", { name: DOCTOR_ALIVE }).isChecked()).toBe(true);
    await screenshot(page, "council-list-phone");
    await page.getByRole("button", { name: "Отправить ход" }).click();
    await page.getByText("Ход принят").waitFor();
    const d = await gmDetail(id);
    expect(d.view!.submissions).toContainEqual(
      expect.objectContaining({ seat: 0, action: { act: "council", question: DOCTOR_ALIVE } }),
    );
    // The Russian UI holds no English question.
    expect(await page.locator("main").innerText()).not.toContain(DOCTOR_ALIVE_EN);
    await page.getByLabel("Язык").selectOption("en");
    await page.getByText(`question to the council: “${DOCTOR_ALIVE_EN}”`).first().waitFor();
    await page.getByRole("radio", { name: DOCTOR_ALIVE_EN }).waitFor();
    await page.getByLabel("Language").selectOption("ru");
    // At the deadline the rules answer it: the doctor is alive.
    await app.t.clock.advance(NIGHT_MS);
    const troll = await detail(api.get("Борис")!, id);
    expect(troll.view!.privateResults.map((r) => r.council)).toEqual([
      { question: DOCTOR_ALIVE, answer: "yes" },
    ]);
  });

  it("M2c: with a GM the mafia may also write a question of their own", async () => {
    const id = await started("review");
    const page = boss.page;
    await page.goto(`${app.url}/games/${id}/role`);
    await page.getByRole("radio", { name: /Вопрос совету/ }).check();
    await page.getByRole("radio", { name: /Свой вопрос/ }).check();
    expect(await page.getByRole("button", { name: "Отправить ход" }).isDisabled()).toBe(true);
    await page.getByLabel("Ваш вопрос (ответ «да» или «нет»)").fill("Стоит ли нам затаиться?");
    await screenshot(page, "council-own-phone");
    await page.getByRole("button", { name: "Отправить ход" }).click();
    await page.getByText("Ход принят").waitFor();
    expect((await gmDetail(id)).gm!.council).toEqual({
      question: "Стоит ли нам затаиться?",
      answer: null,
      suggested: null,
    });
  });

  it("F2: the GM sees the rules' answer, and gives another only with a reason", async () => {
    const id = await started("review");
    expectOk(
      await api.get(NICKS[0]!)!.post(`/api/games/${id}/actions`, { act: "council", question: DOCTOR_ALIVE }),
    );
    const page = gm.page;
    await page.goto(`${app.url}/games/${id}/gm`);
    await page.getByRole("heading", { name: "Вопрос совету" }).waitFor();
    await page.getByText("Ответ по правилам: да.").waitFor();
    await page.getByRole("button", { name: "Ответ совета: нет" }).click();
    await page.getByText("Этот ответ не совпадает с ответом по правилам: укажите причину.").waitFor();
    expect((await gmDetail(id)).gm!.council!.answer).toBeNull();
    await page.getByLabel(/^Причина \(нужна/).fill("совет ошибся нарочно");
    await page.getByRole("button", { name: "Ответ совета: нет" }).click();
    await page.getByText("Ответ совету записан").waitFor();
    expect((await gmDetail(id)).gm!.council).toEqual({
      question: DOCTOR_ALIVE,
      answer: "no",
      suggested: "yes",
    });
    await screenshot(page, "council-gm-desktop");
    // Accepting the rules' answer needs no reason.
    await page.getByRole("button", { name: "Ответ совета: да (по правилам)" }).click();
    await expect.poll(async () => (await gmDetail(id)).gm!.council!.answer).toBe("yes");
    const room = app.t.server.games.rooms.get(id)!;
    expect(room.moderation.filter((m) => m.kind === "council").map((m) => [m.detail, m.reason])).toEqual([
      ["no", "совет ошибся нарочно"],
      ["yes", ""],
    ]);
  });
});
