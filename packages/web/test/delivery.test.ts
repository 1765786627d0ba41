import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setUpGame, type Table } from "../../server/test/play.ts";
import {
  browserApp,
  browserMissing,
  FIRST_LOAD_JS_BUDGET,
  firstLoad,
  PHONE,
  type Received,
} from "./browser.ts";

/**
 * Issue 12, "Delivery": fast over a phone's link. The first load of `/` is measured in Chromium (the
 * bytes each response really took on the wire, not an estimate from the files), the app's files arrive
 * compressed, the screens behind the lobby load when opened, and a guest's console stays clean.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const KB = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const file = (r: Received): string => new URL(r.url).pathname.replace(/^\/assets\//, "");
/** The route chunks, which must not be part of the first load. */
const LAZY = /^(game|gm-console|game-log|tools|new-game)-[\w-]+\.js$/;
const lazyChunks = (load: { js: Received[] }): string[] => load.js.map(file).filter((f) => LAZY.test(f));

describe.skipIf(missing !== null)("delivery over a phone's link (issue 12)", { timeout: 120_000 }, () => {
  const app = browserApp();
  const lobbyShown = (page: Page) => page.getByRole("heading", { name: /форумную мафию/ }).waitFor();
  let table: Table | null = null;
  /** A running game of 17 players (one for the whole file). */
  const running = async (): Promise<Table> => (table ??= await setUpGame(app.t, "automatic"));

  it("the first load of / carries at most 100 KB of JavaScript on the wire, every script compressed", async () => {
    const load = await firstLoad(app.browser, app.url, { ready: lobbyShown });
    console.log(
      `first load of /: ${KB(load.jsBytes)} of JavaScript on the wire (budget ${KB(FIRST_LOAD_JS_BUDGET)}): ` +
        load.js.map((r) => `${file(r)} ${r.wireBytes} B ${r.encoding ?? "uncompressed"}`).join(", "),
    );
    const main = load.js.find((r) => /^index-[\w-]+\.js$/.test(file(r)));
    expect(main, "the entry script").toBeDefined();
    expect(main!.encoding).toMatch(/^(br|gzip)$/);
    for (const r of load.js) expect(r.encoding, file(r)).toMatch(/^(br|gzip)$/);
    // What travelled is the compressed copy, a third of the script or less.
    expect(main!.wireBytes).toBeGreaterThan(0);
    const raw = (await (await fetch(main!.url)).arrayBuffer()).byteLength;
    expect(main!.wireBytes).toBeLessThan(raw / 3);
    expect(lazyChunks(load)).toEqual([]);
    expect(load.jsBytes).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET);
    // The page itself and the styles came compressed too.
    for (const r of load.received.filter((r) => /text\/(html|css)/.test(r.type)))
      expect(r.encoding, file(r)).toMatch(/^(br|gzip)$/);
  });

  it("loads a route's code when it is opened: the tools, the game page, the GM console for the GM", async () => {
    const tools = await firstLoad(app.browser, app.url, {
      path: "/tools",
      ready: (page) => page.locator("#tools-heading").waitFor(),
    });
    expect(lazyChunks(tools)).toEqual([expect.stringMatching(/^tools-/)]);

    // A guest's game page: the game's code, not the GM's console, the log or the other screens.
    const { id, gm } = await running();
    const game = await firstLoad(app.browser, app.url, {
      path: `/games/${id}`,
      ready: (page) => page.locator("#game-title").waitFor(),
    });
    expect(lazyChunks(game)).toEqual([expect.stringMatching(/^game-/)]);

    // The GM's console comes with its tab, for the GM.
    const gmTab = await firstLoad(app.browser, app.url, {
      path: `/games/${id}/gm`,
      cookie: gm.cookie!,
      ready: (page) => page.getByRole("tab", { name: "Ведущий", selected: true }).waitFor(),
    });
    expect(lazyChunks(gmTab).sort()).toEqual([
      expect.stringMatching(/^game-/),
      expect.stringMatching(/^gm-console-/),
    ]);
  });

  it("a guest meets no console error and no failed request on the key screens", async () => {
    const { id } = await running();
    const screens: [string, string, (page: Page) => Promise<unknown>][] = [
      ["lobby", "/", lobbyShown],
      ["login", "/login", (page) => page.getByRole("heading", { name: "Вход" }).waitFor()],
      ["register", "/register", (page) => page.getByRole("heading", { name: "Регистрация" }).waitFor()],
      ["game", `/games/${id}`, (page) => page.locator("#game-title").waitFor()],
      [
        "game, players",
        `/games/${id}/players`,
        (page) => page.getByRole("tab", { name: "Игроки", selected: true }).waitFor(),
      ],
      ["tools", "/tools", (page) => page.locator("#tools-heading").waitFor()],
    ];
    const problems: string[] = [];
    for (const [name, path, ready] of screens) {
      const context = await app.browser.newContext({ viewport: PHONE, locale: "ru-RU" });
      const page = await context.newPage();
      const seen: string[] = [];
      // Every console error counts, "Failed to load resource" (a 401, a 404) included.
      page.on("console", (m) => {
        if (m.type() === "error") seen.push(`console: ${m.text()}`);
      });
      page.on("pageerror", (e) => seen.push(`page error: ${String(e)}`));
      page.on("response", (r) => {
        if (r.status() >= 400) seen.push(`${r.status()} ${r.request().method()} ${r.url()}`);
      });
      page.on("requestfailed", (r) => seen.push(`failed ${r.url()}: ${r.failure()?.errorText ?? "?"}`));
      await page.goto(`${app.url}${path}`);
      await ready(page);
      // Whatever the screen asks for once shown (the lobby's games, the game's stream) has time to come
      // back, and an error in it to be logged.
      await page.waitForLoadState("load");
      await page.waitForTimeout(500);
      // Closing the page ends its live stream: that is not a failure of the screen.
      problems.push(...seen.map((s) => `${name}: ${s}`));
      page.removeAllListeners();
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("answers a guest's /api/me with 200 and no user", async () => {
    const res = await fetch(`${app.url}/api/me`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
  });
});
