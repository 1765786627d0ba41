import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BalanceEstimate, GameDetail, Setup } from "@forum-mafia/protocol";
import { PRESET_ESTIMATES } from "@forum-mafia/protocol/preset-estimates";
import { SETUP_PRESETS, THRESHOLDS } from "@forum-mafia/protocol/setups";
import type { Page, Request, Route } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { expectOk } from "../../server/test/play.ts";
import { browserApp, browserMissing, DESKTOP, newPage, OUTPUT, PHONE, screenshot } from "./browser.ts";

/**
 * Issue 17 in Chromium: the setup editor of the new-game page. A preset fills it (the player count, the
 * thresholds) and the balance panel shows its win rates at once, from the figures kept with the code
 * (issue 32, PRESET_ESTIMATES), as the picker does under each preset's name, with no request; any other
 * setup gets the bot games' win rates with their intervals and the mean length from the server; a change while an estimate is on its way aborts it and only the new setup's figures show; an S3
 * fault is said in words and blocks creating the game; a game created from the 12 preset shows its setup
 * post to a guest; a saved setup survives a reload, fills the editor and can be deleted; at 360 px nothing
 * is wider than the screen, every control is reached with Tab, and the Russian page shows no English and
 * no internal ids.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const MEDIUM = SETUP_PRESETS.find((p) => p.id === "medium12")!;
/**
 * A hang guard for an estimate: the issue asks for 3 s, measured and recorded, not asserted by time. An
 * estimate took over 60 s in a clean clone's CI run beside other suites, so the guard is far above that.
 */
const ESTIMATE_WAIT = 150_000;
const THRESHOLD_LABELS: Record<(typeof THRESHOLDS)[number], string> = {
  revealAbove: "Роли вскрываются, пока живых больше",
  threeIntimidationsFrom: "Три запугивания — при живых от",
  serumRepeatBelow: "Сыворотка не две ночи подряд — при живых меньше",
  lapseAt: "Запреты на повтор снимаются при живых",
  earlyFromDay: "«Досрочно» действует с дня",
};

const pct = (share: number): number => Math.round(share * 100);
/** The figures the panel must show for an estimate, side by side: «Город 46% (44–49%)». */
const figuresOf = (e: BalanceEstimate): string[] =>
  (["town", "mafia", "maniac", "draw"] as const).map((side) => {
    const r = e.winRates[side];
    return `${pct(r.rate)}% (${pct(r.low)}–${pct(r.high)}%)`;
  });

/** The figures the panel shows now (empty while it counts). */
const panelFigures = (page: Page): Promise<string[]> =>
  page.locator(".estimate .rate-figure").allInnerTexts();

/** «5,4 дня», «4 дня»: a mean length as the panel words it, to a tenth. */
const ruDays = (d: number): string => {
  const r = Math.round(d * 10) / 10;
  const unit = Number.isInteger(r)
    ? r % 10 === 1 && r % 100 !== 11
      ? "день"
      : r % 10 >= 2 && r % 10 <= 4 && (r % 100 < 12 || r % 100 > 14)
        ? "дня"
        : "дней"
    : "дня";
  return `${r.toLocaleString("ru-RU")} ${unit}`;
};
/** A button's description as Chromium's accessibility tree holds it (what a screen reader reads after its name). */
async function description(page: Page, button: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const found = nodes.filter(
      (n) => n.role?.value === "button" && String(n.name?.value ?? "").includes(button),
    );
    expect(found, button).toHaveLength(1);
    return String(found[0]!.description?.value ?? "");
  } finally {
    await cdp.detach();
  }
}

const isEstimate = (r: Request): boolean => r.method() === "POST" && r.url().endsWith("/api/setups/estimate");
const bodyOf = (r: Request): Setup => r.postDataJSON() as Setup;

describe.skipIf(missing !== null)("the setup editor (issue 17)", { timeout: 600_000 }, () => {
  const app = browserApp();
  let gm: Client;
  const pageErrors: { who: string; errors: string[] }[] = [];

  beforeAll(async () => {
    gm = new Client(() => app.t.server.app, "Ведущий");
    expectOk(await gm.register());
  });

  // No screen logs an error, in any test.
  afterEach(() => {
    const seen = pageErrors.splice(0);
    for (const { who, errors } of seen) expect({ who, errors }).toEqual({ who, errors: [] });
  });

  /** A page of the GM's (its session cookie) at /new, the editor shown. */
  const editor = async (size = DESKTOP) => {
    const p = await newPage(app.browser, size);
    pageErrors.push({ who: "gm", errors: p.errors });
    const [name, ...value] = gm.cookie!.split("=");
    await p.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
    await p.page.goto(`${app.url}/new`);
    await p.page.getByRole("checkbox", { name: "Босс мафии" }).waitFor();
    return p;
  };
  const preset = (page: Page, name: string) => page.getByRole("button", { name: `Взять расклад «${name}»` });
  const waitFigures = (page: Page) =>
    expect.poll(() => panelFigures(page), { timeout: ESTIMATE_WAIT }).toHaveLength(4);

  it("the 12 preset: 12 players, its thresholds, its kept balance; one threshold changed, the bots' balance with intervals and the mean length", async () => {
    const { page, context } = await editor();
    // The classic setup's balance first: the page opens with it.
    await waitFigures(page);

    await preset(page, MEDIUM.name.ru).click();
    await expect.poll(() => page.locator(".seat-count").textContent()).toBe("Игроков в партии: 12 игроков");
    await expect.poll(() => preset(page, MEDIUM.name.ru).getAttribute("aria-pressed")).toBe("true");
    for (const name of THRESHOLDS)
      expect(await page.getByLabel(THRESHOLD_LABELS[name], { exact: true }).inputValue(), name).toBe(
        String(MEDIUM.setup.options[name]),
      );
    expect(await page.getByRole("checkbox", { name: "Злой эльф" }).isChecked()).toBe(false);
    // Issue 32: the preset's balance is kept with the code, on screen at once.
    expect(await panelFigures(page)).toEqual(figuresOf(PRESET_ESTIMATES.medium12));

    // One threshold changed, the setup is no preset: the request is the setup on screen, and the panel
    // shows its answer.
    const options = { ...MEDIUM.setup.options, revealAbove: 8 };
    const asked = page.waitForRequest((r) => isEstimate(r) && bodyOf(r).roles.length === 12);
    const answered = page.waitForResponse(
      (r) => isEstimate(r.request()) && bodyOf(r.request()).roles.length === 12,
      { timeout: ESTIMATE_WAIT },
    );
    const changed = Date.now();
    await page.getByLabel(THRESHOLD_LABELS.revealAbove, { exact: true }).fill("8");
    expect(bodyOf(await asked)).toEqual({ roles: [...MEDIUM.setup.roles], options });
    const response = await answered;
    const estimate = (await response.json()) as BalanceEstimate;
    await expect.poll(() => panelFigures(page), { timeout: ESTIMATE_WAIT }).toEqual(figuresOf(estimate));
    const ms = Date.now() - changed;
    const panel = page.locator(".estimate");
    const text = await panel.innerText();
    expect(text).toMatch(/Город\s+\d+% \(\d+–\d+%\)/);
    expect(text).toMatch(/Мафия\s+\d+% \(\d+–\d+%\)/);
    expect(text).toMatch(/Маньяк\s+\d+% \(\d+–\d+%\)/);
    expect(text).toMatch(/Ничья\s+\d+% \(\d+–\d+%\)/);
    expect(text).toMatch(/Средняя длина: \d+(,\d)? (день|дня|дней)/);
    expect(text).toContain(`по ${estimate.games} партий ботов`);
    expect(estimate.games).toBeGreaterThanOrEqual(2000);

    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(
      join(OUTPUT, "setup-estimate.json"),
      `${JSON.stringify(
        {
          setup: "medium12, revealAbove 8",
          fromChangeToFiguresMs: ms,
          // The request's own time, from its start to the answer's last byte (the server's share).
          requestMs: Math.round(response.request().timing().responseEnd),
          games: estimate.games,
          estimate,
        },
        null,
        2,
      )}\n`,
    );
    console.log(
      `the 12 preset's variant's estimate shown ${ms} ms after the change (${estimate.games} bot games)`,
    );
    await context.close();
  });

  it("a change while an estimate is pending aborts it, and only the new setup's figures show", async () => {
    const { page, context } = await editor();
    await waitFigures(page);

    // The request for the 12 with one threshold changed is held on its way; a stale answer would say 94% for a draw.
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const stale: BalanceEstimate = {
      games: 2000,
      winRates: {
        town: { rate: 0.01, low: 0.0, high: 0.02 },
        mafia: { rate: 0.02, low: 0.01, high: 0.03 },
        maniac: { rate: 0.03, low: 0.02, high: 0.04 },
        draw: { rate: 0.94, low: 0.93, high: 0.95 },
      },
      stalled: { rate: 0, low: 0, high: 0.002 },
      phaseCap: 200,
      meanDays: 99,
      meanPhases: 198,
    };
    let held: Request | null = null;
    await page.route("**/api/setups/estimate", async (route: Route) => {
      if (held === null && bodyOf(route.request()).roles.length === 12) {
        held = route.request();
        await released;
        // Aborted by the page, the request can no longer be answered: that is the point.
        await route.fulfill({ json: stale }).catch(() => undefined);
        return;
      }
      await route.continue();
    });
    const aborted = page.waitForEvent("requestfailed", {
      predicate: (r) => isEstimate(r) && bodyOf(r).roles.length === 12,
      timeout: 30_000,
    });

    await preset(page, MEDIUM.name.ru).click();
    // A preset is not asked for (issue 32); one threshold changed, the 12 is.
    await page.getByLabel(THRESHOLD_LABELS.revealAbove, { exact: true }).fill("8");
    await expect.poll(() => held !== null, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.locator(".estimate-body").innerText()).toBe("считаем…");
    // A role changes while the 12's estimate is pending.
    const fresh = page.waitForResponse(
      (r) => isEstimate(r.request()) && bodyOf(r.request()).roles.length === 11,
      { timeout: ESTIMATE_WAIT },
    );
    await page.getByRole("checkbox", { name: "Злой тролль" }).uncheck();
    const failed = await aborted;
    expect(failed.failure()?.errorText).toMatch(/ABORTED/);
    const answer = await fresh;
    expect(bodyOf(answer.request()).roles).not.toContain("troll");
    const estimate = (await answer.json()) as BalanceEstimate;
    await expect.poll(() => panelFigures(page), { timeout: ESTIMATE_WAIT }).toEqual(figuresOf(estimate));
    expect(await page.locator(".seat-count").innerText()).toContain("11 игроков");

    // The held request is let go: nothing of it reaches the panel.
    release();
    await page.waitForTimeout(500);
    expect(await panelFigures(page)).toEqual(figuresOf(estimate));
    expect(await page.locator(".estimate").innerText()).not.toContain("94%");
    await page.unroute("**/api/setups/estimate");
    await context.close();
  });

  it("issue 32: each preset's balance is in the picker, and picked, in the panel at once: the kept figures, with no request", async () => {
    const opened = await newPage(app.browser, DESKTOP);
    pageErrors.push({ who: "gm", errors: opened.errors });
    const { page, context } = opened;
    // Every estimate request of the page, from its first load.
    const asked: Setup[] = [];
    page.on("request", (r) => {
      if (isEstimate(r)) asked.push(bodyOf(r));
    });
    const [name, ...value] = gm.cookie!.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
    await page.goto(`${app.url}/new`);
    await page.getByRole("checkbox", { name: "Босс мафии" }).waitFor();
    // The page opens with the classic: its kept figures.
    await expect.poll(() => panelFigures(page)).toEqual(figuresOf(PRESET_ESTIMATES.classic17));

    // The classic last, so that every pick is a change.
    for (const p of [...SETUP_PRESETS].reverse()) {
      const kept = PRESET_ESTIMATES[p.id];
      const { town, mafia, maniac } = kept.winRates;
      const button = preset(page, p.name.ru);
      // In the picker, before it is picked: the rates in short, and in words for a screen reader.
      expect(await button.locator(".preset-odds").innerText(), p.id).toBe(
        `Город ${pct(town.rate)}% · Мафия ${pct(mafia.rate)}% · Маньяк ${pct(maniac.rate)}%`,
      );
      expect(await description(page, p.name.ru), p.id).toContain(
        `Баланс по партиям ботов: город побеждает в ${pct(town.rate)}% партий, мафия — в ${pct(mafia.rate)}%, ` +
          `маньяк — в ${pct(maniac.rate)}%.`,
      );
      await button.click();
      await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
      // Rendered with the pick itself (no «считаем…» in between): read once, not waited for.
      expect(await panelFigures(page), p.id).toEqual(figuresOf(kept));
      expect(await page.locator(".estimate-length").innerText(), p.id).toBe(
        `Средняя длина: ${ruDays(kept.meanDays)}`,
      );
      expect(await page.locator(".estimate-from").innerText(), p.id).toContain(
        `по ${kept.games} партий ботов`,
      );
    }

    // A setup that is no preset is asked for; requests go out in order, so any for a preset came before it.
    const troll = page.waitForRequest((r) => isEstimate(r));
    await page.getByRole("checkbox", { name: "Злой тролль" }).uncheck();
    expect(bodyOf(await troll).roles).toHaveLength(16);
    expect(asked.map((s) => s.roles.length)).toEqual([16]);

    // In English, the same figures in English words. The choice is saved to the GM's profile: waited for
    // here, and set back to Russian below, for the tests after this one.
    try {
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().endsWith("/api/me"),
      );
      await page.getByLabel("Язык").selectOption("en");
      expect((await saved).status()).toBe(200);
      const classic = SETUP_PRESETS[0]!;
      const { town, mafia, maniac } = PRESET_ESTIMATES.classic17.winRates;
      const button = page.getByRole("button", { name: `Use the setup “${classic.name.en}”` });
      expect(await button.locator(".preset-odds").innerText()).toBe(
        `Town ${pct(town.rate)}% · Mafia ${pct(mafia.rate)}% · Maniac ${pct(maniac.rate)}%`,
      );
      expect(await description(page, classic.name.en)).toContain(
        `Balance from bot games: the town wins ${pct(town.rate)}% of games, the mafia ${pct(mafia.rate)}%, ` +
          `the maniac ${pct(maniac.rate)}%.`,
      );
    } finally {
      await context.close();
      expectOk(await gm.req("PATCH", "/api/me", { lang: "ru" }));
    }
  });

  it("S3: no mafia and no maniac is said in words and blocks creating the game", async () => {
    const { page, context } = await editor();
    const create = page.getByRole("button", { name: "Создать игру" });
    expect(await create.isDisabled()).toBe(false);
    for (const role of ["Босс мафии", "Злой тролль", "Злой эльф", "Адвокат", "Громила", "Маньяк"])
      await page.getByRole("checkbox", { name: role }).uncheck();
    const alert = page.locator("#setup-fault");
    await expect.poll(() => alert.innerText()).toContain("нет ни мафии, ни маньяка");
    expect(await alert.getAttribute("role")).toBe("alert");
    expect(await create.isDisabled()).toBe(true);
    await page.getByText("Пока расклад не исправлен, игру не создать.").waitFor();
    // No figures for a setup that cannot be played.
    await page.getByText("Исправьте расклад — тогда посчитаем баланс.").waitFor();
    expect(await panelFigures(page)).toEqual([]);

    // Back to a playable list, then no town at all: the other fault.
    await page.getByRole("checkbox", { name: "Маньяк" }).check();
    await expect.poll(() => create.isDisabled()).toBe(false);
    for (const role of ["Шериф", "Сержант", "Доктор", "Девочка", "Прокурор", "Шахид"])
      await page.getByRole("checkbox", { name: role }).uncheck();
    const fewer = page.getByRole("button", { name: "Убрать мирного жителя" });
    while (await fewer.isEnabled()) await fewer.click();
    await expect.poll(() => alert.innerText()).toContain("нет города");
    expect(await create.isDisabled()).toBe(true);
    await context.close();
  });

  it("issue 28: the classic 17 with lapseAt 7 at 360 px: its balance, and the games that did not end said in words", async () => {
    const { page, context } = await editor(PHONE);
    await waitFigures(page);
    // Playwright's own wait is 30 s, which a loaded CI run went past: the estimate's hang guard instead.
    const answered = page.waitForResponse(
      (r) => isEstimate(r.request()) && bodyOf(r.request()).options.lapseAt === 7,
      { timeout: ESTIMATE_WAIT },
    );
    await page.getByLabel(THRESHOLD_LABELS.lapseAt, { exact: true }).fill("7");
    const response = await answered;
    expect(response.status()).toBe(200);
    const estimate = (await response.json()) as BalanceEstimate;
    await expect.poll(() => panelFigures(page), { timeout: ESTIMATE_WAIT }).toEqual(figuresOf(estimate));
    // 2 of the 2,000 games never end (counted apart in the engine's and the server's tests): 0.1%.
    const stalled = page.locator(".estimate-stalled");
    await expect
      .poll(() => stalled.innerText(), { timeout: ESTIMATE_WAIT })
      .toContain("Не закончились: 0,1% (0–0,4%)");
    const words = await stalled.innerText();
    expect(words).toContain("2 из 2000 партий не закончились и за 100 дней");
    expect(words).toContain("без смертей и повешений");
    expect(words).not.toMatch(/[A-Za-z]/);
    expect(await page.locator(".estimate-from").innerText()).toContain("доли — от всех партий");
    await stalled.scrollIntoViewIfNeeded();
    await screenshot(page, "setup-estimate-stalled-360");
    await context.close();
  });

  it("a game created from the 12 preset shows its setup post to a guest, in signups", async () => {
    const { page, context } = await editor();
    await page.getByLabel("Название игры").fill("Средняя партия");
    await preset(page, MEDIUM.name.ru).click();
    const created = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/games"));
    await page.getByRole("button", { name: "Создать игру" }).click();
    const body = (await created).postDataJSON() as { roles: string[]; options: Record<string, unknown> };
    expect(body.roles).toEqual([...MEDIUM.setup.roles]);
    expect(Object.keys(body.options).sort()).toEqual(Object.keys(MEDIUM.setup.options).sort());
    expect(body.options).toEqual(MEDIUM.setup.options);
    await page.waitForURL(/\/games\/[^/]+$/);
    const id = page.url().split("/games/")[1]!;
    const detail = await gm.get<GameDetail>(`/api/games/${id}`);
    expect(detail.body.settings.seats).toBe(12);
    expect(detail.body.settings.options).toEqual(MEDIUM.setup.options);
    // The GM's deal by hand offers the game's own role list, not the classic 17's first twelve.
    await page.locator("details.hand summary").click();
    const hand = await page
      .locator("details.hand select")
      .evaluateAll((els) => els.map((e) => (e as HTMLSelectElement).value));
    expect(hand).toEqual([...MEDIUM.setup.roles]);
    await context.close();

    const guest = await newPage(app.browser, PHONE);
    pageErrors.push({ who: "guest", errors: guest.errors });
    await guest.page.goto(`${app.url}/games/${id}`);
    const post = guest.page.locator(".setup-post");
    await post.getByText("Расклад: 12 игроков").waitFor();
    const text = await post.innerText();
    expect(text).toContain("Мафия (3): Босс мафии, Злой тролль, Адвокат");
    expect(text).toContain("Сам за себя (1): Маньяк");
    expect(text).toContain("Город (8): Шериф, Сержант, Доктор, Девочка, Мирный житель ×4");
    expect(text).toContain("пока живых больше 7");
    expect(text).toContain("при 11 живых и больше");
    expect(text).toContain("когда живых меньше 10");
    expect(text).toContain("При 3 живых");
    expect(text).toContain("«Досрочно» действует с 3-го дня");
    await screenshot(guest.page, "setup-post-phone");
    // The lobby counts 12 seats.
    await guest.page.goto(`${app.url}/lobby`);
    await guest.page.getByText("записалось 0/12").waitFor();
    await guest.context.close();
  });

  it("a running game shows its setup post above the tabs, to a spectator and to a player", async () => {
    const small = SETUP_PRESETS.find((p) => p.id === "small9")!;
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Малая партия",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
      roles: small.setup.roles,
      options: small.setup.options,
    });
    expectOk(created);
    const id = created.body.id;
    const players: Client[] = [];
    for (let i = 0; i < small.setup.roles.length; i++) {
      const c = new Client(() => app.t.server.app, `Игрок малой ${i + 1}`);
      expectOk(await c.register());
      expectOk(await c.post(`/api/games/${id}/signup`));
      players.push(c);
    }
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: "random" }));

    const guest = await newPage(app.browser, PHONE);
    pageErrors.push({ who: "guest", errors: guest.errors });
    const player = await newPage(app.browser, PHONE);
    pageErrors.push({ who: "player", errors: player.errors });
    const [name, ...value] = players[0]!.cookie!.split("=");
    await player.context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
    for (const { page } of [guest, player]) {
      await page.goto(`${app.url}/games/${id}`);
      await page.getByRole("tab", { name: "Тема" }).waitFor();
      const summary = page.locator(".setup-post summary");
      await summary.getByText("Расклад: 9 игроков").waitFor();
      await summary.click();
      const text = await page.locator(".setup-post").innerText();
      expect(text).toContain("Мафия (2): Босс мафии, Громила");
      expect(text).toContain("Город (6): Шериф, Доктор, Мирный житель ×4");
      expect(text).toContain("пока живых больше 6");
      expect(text).toContain("«Досрочно» действует со 2-го дня");
    }
    await screenshot(player.page, "setup-post-running-phone");
    await guest.context.close();
    await player.context.close();
  });

  it("a saved setup survives a reload, fills the editor when picked, and can be deleted", async () => {
    const { page, context } = await editor();
    await preset(page, MEDIUM.name.ru).click();
    await page.getByRole("button", { name: "Добавить мирного жителя" }).click();
    await page.getByLabel(THRESHOLD_LABELS.revealAbove, { exact: true }).fill("8");
    await page.getByLabel("Имя расклада").fill("Наш четверг");
    await page.getByRole("button", { name: "Сохранить расклад" }).click();
    await page.getByText("Расклад «Наш четверг» сохранён.").waitFor();

    await page.reload();
    const mine = page.getByRole("button", { name: "Взять мой расклад «Наш четверг»" });
    await mine.waitFor();
    // The editor starts with the classic; the saved one fills it.
    expect(await page.locator(".seat-count").innerText()).toContain("17 игроков");
    await mine.click();
    await expect.poll(() => page.locator(".seat-count").innerText()).toContain("13 игроков");
    expect(await page.getByLabel(THRESHOLD_LABELS.revealAbove, { exact: true }).inputValue()).toBe("8");
    expect(await mine.getAttribute("aria-pressed")).toBe("true");

    await page.getByRole("button", { name: "Удалить расклад «Наш четверг»" }).click();
    await page.getByText("Расклад «Наш четверг» удалён.").waitFor();
    expect(await mine.count()).toBe(0);
    await page.reload();
    await page.getByText("Сохранённых раскладов пока нет.").waitFor();
    const saved = await gm.get<{ setups: unknown[] }>("/api/me/setups");
    expect(saved.body.setups).toEqual([]);
    await context.close();
  });

  it("at 360 px: no sideways scroll, every control reached with Tab, Russian words only", async () => {
    const { page, context } = await editor(PHONE);
    await waitFigures(page);
    // screenshot() fails on anything wider than the window and on an unnamed control.
    await screenshot(page, "setup-editor-phone");
    await page.screenshot({
      path: join(OUTPUT, "screenshots", "setup-editor-phone-full.png"),
      fullPage: true,
    });
    // Each part on its own, readable at full size.
    for (const part of ["setup-presets", "setup-roles", "setup-thresholds", "estimate"])
      await page
        .locator(`.${part}`)
        .screenshot({ path: join(OUTPUT, "screenshots", `setup-phone-${part}.png`) });

    // Tab from the top of the page: every control of the form, the panel's link and the submit come in turn.
    const controls = await page.evaluate(() =>
      [...document.querySelectorAll(".new-game form :is(button, input, select, a[href])")]
        .filter((el) => !(el as HTMLInputElement).disabled)
        .filter((el) => !(el instanceof HTMLInputElement && el.type === "radio" && !el.checked))
        .map((el, i) => {
          (el as HTMLElement).dataset.tabCheck = String(i);
          return i;
        }),
    );
    await page.locator("body").focus();
    const reached = new Set<string>();
    for (let i = 0; i < controls.length + 40 && reached.size < controls.length; i++) {
      await page.keyboard.press("Tab");
      const mark = await page.evaluate(
        () => (document.activeElement as HTMLElement | null)?.dataset.tabCheck,
      );
      if (mark !== undefined) reached.add(mark);
    }
    expect(controls.filter((i) => !reached.has(String(i)))).toEqual([]);

    // The balance is one keypress from the player count: the link jumps to the panel.
    await page.getByRole("link", { name: "Баланс ↓" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.classList.contains("estimate")))
      .toBe(true);
    // A citizen more, by keyboard only.
    const more = page.getByRole("button", { name: "Добавить мирного жителя" });
    await more.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".seat-count").innerText()).toContain("18 игроков");

    // No English words, no threshold ids, no codes in the Russian page (fields and the language menu aside).
    const text = await page.evaluate(() => {
      const out: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest("select, option, script, style")) continue;
        if (!parent.checkVisibility()) continue;
        out.push(node.textContent ?? "");
      }
      const labels = [...document.querySelectorAll("[aria-label]")].map((el) =>
        el.getAttribute("aria-label"),
      );
      return [...out, ...labels].join(" ");
    });
    for (const id of THRESHOLDS) expect(text).not.toContain(id);
    // The one Latin text allowed: the time zone's name (IANA's, as the browser and the account have it).
    expect(text.replaceAll("Europe/Moscow", "").match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);
    expect(text).not.toMatch(/setup\/|\b[A-Z]\d+[a-z]?\b/);

    // English, switched in the header: the editor's words and the role names follow.
    await page.getByLabel("Язык").selectOption("en");
    await page.getByRole("heading", { name: "Setup", exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Mafia boss" }).waitFor();
    await page.getByLabel("Roles revealed while alive is above", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Use the setup “Medium, 12 players”" }).waitFor();
    await page.getByLabel("Language").selectOption("ru");
    await page.getByRole("checkbox", { name: "Босс мафии" }).waitFor();

    await page.setViewportSize(DESKTOP);
    await waitFigures(page);
    await page
      .locator(".setup-roles")
      .evaluate((el) => window.scrollTo(0, (el as HTMLElement).offsetTop - 8));
    await screenshot(page, "setup-editor-desktop");
    await page.screenshot({
      path: join(OUTPUT, "screenshots", "setup-editor-desktop-full.png"),
      fullPage: true,
    });
    await context.close();
  });
});
