import type { RoleId } from "@forum-mafia/engine";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../server/test/client.ts";
import { detail, expectOk, NICKS, NIGHT_MS } from "../../server/test/play.ts";
import { browserApp, browserMissing, DESKTOP, newPage, PHONE, ROOT, BOSS_FIRST, EVIL } from "./browser.ts";

/**
 * Issue 32: axe-core on every screen of the app, at 360×740 and 1280×800 in the light scheme and at
 * 360×740 in the dark one: signed out, as a player, as the GM and in a finished game. No violation of
 * impact "serious" or "critical" may stand; the failure lists each rule, its impact and the elements.
 * A new page kind in router.tsx's `Route` fails the test until a screen of it is listed in SCREENS.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

// Seat 0 holds the mafia boss: the player in the browser has a night form, a role and the mafia's chat.
const HAND: RoleId[] = [...BOSS_FIRST];
const PLAYER = 0;

type Who = "guest" | "player" | "gm";
type PageKind =
  | "lobby"
  | "allGames"
  | "settings"
  | "profile"
  | "login"
  | "register"
  | "new"
  | "tools"
  | "game"
  | "notebooks"
  | "notebookNew"
  | "notebook"
  | "notebookLog"
  | "notFound";

interface Ids {
  /** Day 1 of a review game, with red and blue votes in its thread. */
  running: string;
  /** A game that ended on day 1, after red and blue votes. */
  ended: string;
  notebook: string;
  /** A notebook played to its end and published. */
  published: string;
}

interface Screen {
  readonly name: string;
  readonly kind: PageKind;
  readonly who: Who;
  readonly path: (ids: Ids) => string;
  /** What shows once the screen has loaded. */
  readonly ready: (page: Page) => Promise<unknown>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole("heading", { name }).first().waitFor();
/** The game's tab `name` is selected (at 1280 px the players sit beside the thread: no tab of theirs). */
const tab = (name: string) => async (page: Page) => {
  await page.getByRole("tablist", { name: "Разделы игры" }).waitFor();
  const t = page.getByRole("tab", { name, exact: true });
  if ((await t.count()) > 0) await expect.poll(() => t.getAttribute("aria-selected")).toBe("true");
};
const text = (words: string | RegExp) => (page: Page) => page.getByText(words).first().waitFor();
const both =
  (...steps: ((page: Page) => Promise<unknown>)[]) =>
  async (page: Page) => {
    for (const step of steps) await step(page);
  };

/** Every screen of the app, by who sees it. A new screen is added here (docs/testing.md). */
const SCREENS: readonly Screen[] = [
  // Signed out.
  {
    name: "lobby (guest)",
    kind: "lobby",
    who: "guest",
    path: () => "/",
    ready: (p) => p.locator(".lobby h2").first().waitFor(),
  },
  {
    name: "all games (guest)",
    kind: "allGames",
    who: "guest",
    path: () => "/lobby",
    ready: (p) => p.locator(".lobby h2").first().waitFor(),
  },
  {
    name: "login",
    kind: "login",
    who: "guest",
    path: () => "/login",
    ready: (p) => p.getByLabel("Пароль").waitFor(),
  },
  {
    name: "register",
    kind: "register",
    who: "guest",
    path: () => "/register",
    ready: (p) => p.getByLabel("Пароль").waitFor(),
  },
  {
    name: "tools",
    kind: "tools",
    who: "guest",
    path: () => "/tools",
    ready: (p) => p.getByLabel("Список игроков").waitFor(),
  },
  {
    name: "profile",
    kind: "profile",
    who: "guest",
    path: () => `/u/${encodeURIComponent(NICKS[PLAYER]!)}`,
    ready: heading(NICKS[PLAYER]!),
  },
  { name: "404", kind: "notFound", who: "guest", path: () => "/no/such/page/here", ready: heading("404") },
  {
    name: "running game thread (guest)",
    kind: "game",
    who: "guest",
    path: (i) => `/games/${i.running}`,
    ready: (p) => p.locator("article").first().waitFor(),
  },
  {
    name: "running game players (guest)",
    kind: "game",
    who: "guest",
    path: (i) => `/games/${i.running}/players`,
    ready: tab("Игроки"),
  },
  {
    name: "finished game log (guest)",
    kind: "game",
    who: "guest",
    path: (i) => `/games/${i.ended}/log`,
    ready: text("✓ совпадает"),
  },
  {
    name: "published notebook",
    kind: "notebookLog",
    who: "guest",
    path: (i) => `/notebooks/${i.published}/log`,
    ready: text("Победа города!"),
  },
  // A player.
  {
    name: "my games",
    kind: "lobby",
    who: "player",
    path: () => "/",
    ready: (p) => p.getByRole("button", { name: "Выйти" }).waitFor(),
  },
  {
    name: "all games (player)",
    kind: "allGames",
    who: "player",
    path: () => "/lobby",
    ready: (p) => p.locator(".lobby h2").first().waitFor(),
  },
  {
    name: "settings",
    kind: "settings",
    who: "player",
    path: () => "/settings",
    ready: (p) => p.locator("main h1").first().waitFor(),
  },
  {
    name: "new game with the setup editor",
    kind: "new",
    who: "player",
    path: () => "/new",
    ready: (p) => p.locator(".setup-presets").first().waitFor(),
  },
  {
    name: "thread (player)",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.running}`,
    ready: both(tab("Тема"), (p) => p.locator("article").first().waitFor()),
  },
  {
    name: "players (player)",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.running}/players`,
    ready: both(tab("Игроки"), heading("Голосование")),
  },
  {
    name: "role (player)",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.running}/role`,
    ready: both(tab("Роль"), heading("Босс мафии")),
  },
  {
    name: "chats (player)",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.running}/chats`,
    ready: tab("Чаты"),
  },
  {
    name: "results (player)",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.running}/results`,
    ready: both(tab("Итоги"), heading("Итоги ночей и дней")),
  },
  {
    name: "notebooks",
    kind: "notebooks",
    who: "player",
    path: () => "/notebooks",
    ready: (p) => p.locator(".nb-list li").first().waitFor(),
  },
  {
    name: "new notebook",
    kind: "notebookNew",
    who: "player",
    path: () => "/notebooks/new",
    ready: (p) => p.locator("main form").first().waitFor(),
  },
  {
    name: "notebook",
    kind: "notebook",
    who: "player",
    path: (i) => `/notebooks/${i.notebook}`,
    ready: heading("День 1: голосование"),
  },
  {
    name: "notebook, finished",
    kind: "notebook",
    who: "player",
    path: (i) => `/notebooks/${i.published}`,
    ready: text("Победа города!"),
  },
  // The GM of the running game.
  {
    name: "GM console",
    kind: "game",
    who: "gm",
    path: (i) => `/games/${i.running}/gm`,
    ready: both(tab("Ведущий"), (p) => p.locator("section.gm").waitFor()),
  },
  {
    name: "thread (GM)",
    kind: "game",
    who: "gm",
    path: (i) => `/games/${i.running}`,
    ready: both(tab("Тема"), (p) => p.locator("article").first().waitFor()),
  },
  // The finished game, every tab, as a player (the boss) and as its GM.
  {
    name: "finished thread",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}`,
    ready: both(tab("Тема"), (p) => p.locator("article").first().waitFor()),
  },
  {
    name: "finished players",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}/players`,
    ready: tab("Игроки"),
  },
  {
    name: "finished role",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}/role`,
    ready: both(tab("Роль"), heading("Босс мафии")),
  },
  {
    name: "finished chats",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}/chats`,
    ready: tab("Чаты"),
  },
  {
    name: "finished results",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}/results`,
    ready: tab("Итоги"),
  },
  {
    name: "finished log",
    kind: "game",
    who: "player",
    path: (i) => `/games/${i.ended}/log`,
    ready: both(tab("Лог"), text("✓ совпадает")),
  },
  {
    name: "finished GM tab",
    kind: "game",
    who: "gm",
    path: (i) => `/games/${i.ended}/gm`,
    ready: both(tab("Ведущий"), (p) => p.locator("section.gm").waitFor()),
  },
];

/** Wait until `check` holds (expect.poll works only inside a test, not in beforeAll). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** The page kinds of router.tsx's `Route`, read from its source. */
function routePages(): string[] {
  const source = readFileSync(join(ROOT, "packages/web/src/router.tsx"), "utf8");
  const type = /export type Route =([\s\S]*?);\n/.exec(source)?.[1];
  if (!type) throw new Error("router.tsx: no `export type Route = …;`");
  return [...type.matchAll(/page:\s*"([A-Za-z]+)"/g)].map((m) => m[1]!);
}

interface Variant {
  readonly name: string;
  readonly size: typeof PHONE;
  readonly scheme: "light" | "dark";
}
const VARIANTS: readonly Variant[] = [
  { name: "360 px, light", size: PHONE, scheme: "light" },
  { name: "360 px, dark", size: PHONE, scheme: "dark" },
  { name: "1280 px, light", size: DESKTOP, scheme: "light" },
];

/**
 * axe's serious and critical violations on the page, one line per rule: its id, impact and count, then
 * each element's selector (for color-contrast with its colours and their ratio).
 */
async function seriousViolations(page: Page): Promise<string[]> {
  // What a fold (<details>: the GM console's closed sections) holds is checked too: axe skips what is hidden.
  await page
    .locator("details:not([open])")
    .evaluateAll((folds) => folds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => {
      const nodes = v.nodes.map((n) => {
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
        const colours = data?.fgColor ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : "";
        return `${n.target.join(" ")}${colours}`;
      });
      return `${v.id} (${v.impact}, ${v.nodes.length}): ${nodes.join(" | ")}`;
    });
}

describe("axe's screen list covers router.tsx's Route", () => {
  it("every page kind of Route has a screen in SCREENS", () => {
    const pages = routePages();
    expect(pages.length).toBeGreaterThan(10);
    const covered = new Set(SCREENS.map((s) => s.kind));
    const uncovered = pages.filter((p) => !covered.has(p as PageKind));
    expect(uncovered, "router.tsx's page kinds with no screen in axe.test.ts's SCREENS").toEqual([]);
  });
});

describe.skipIf(missing !== null)("axe on every screen (issue 32)", { timeout: 240_000 }, () => {
  const app = browserApp();
  const ids = {} as Ids;
  const accounts = new Map<Who, Client>();

  beforeAll(async () => {
    const server = () => app.t.server.app;
    const gm = new Client(server, "Ведущий");
    expectOk(await gm.register());
    const players: Client[] = [];
    for (const nick of NICKS) {
      const c = new Client(server, nick);
      expectOk(await c.register());
      players.push(c);
    }
    accounts.set("gm", gm);
    accounts.set("player", players[PLAYER]!);

    // Two review games dealt HAND, at night 1 with the boss's kill and the mafia's chat, then day 1.
    const game = async (title: string): Promise<string> => {
      const created = await gm.post<{ id: string }>("/api/games", {
        title,
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "review",
      });
      expectOk(created);
      const id = created.body.id;
      for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: HAND } }));
      const victim = HAND.indexOf("citizen");
      expectOk(await players[PLAYER]!.post(`/api/games/${id}/actions`, { act: "mafia", kill: [victim] }));
      expectOk(
        await players[PLAYER]!.post(`/api/games/${id}/channels/mafia`, { text: "Ночью берём горожанина." }),
      );
      return id;
    };
    ids.running = await game("Партия для axe");
    ids.ended = await game("Законченная партия для axe");
    await app.t.clock.advance(NIGHT_MS);
    for (const id of [ids.running, ids.ended]) {
      expectOk(await gm.post(`/api/games/${id}/gm/publish`));
      await until("day 1", async () => (await detail(gm, id)).view!.phase.kind === "day");
      // Red and blue votes, written in posts and sent by the vote buttons, and plain talk.
      for (let seat = 1; seat < 9; seat++) {
        const d = await detail(players[seat]!, id);
        if (!d.view!.seats[seat]!.alive) continue;
        const target = NICKS[(seat % 3) + 1]!;
        const text =
          seat % 2 === 0
            ? `Голосую [color=red]${target}[/color], он молчит.`
            : `Защищаю [color=blue]${target}[/color], а ты [color=#ff0000]подумай[/color].`;
        expectOk(await players[seat]!.post(`/api/games/${id}/posts`, { text }));
      }
      expectOk(await players[10]!.post(`/api/games/${id}/votes`, { color: "red", target: 2 }));
      expectOk(await players[11]!.post(`/api/games/${id}/votes`, { color: "blue", target: 3 }));
    }
    // The second game ends: the GM modkills the mafia and the maniac, and the town wins.
    for (let seat = 0; seat < NICKS.length; seat++)
      if (EVIL.has(HAND[seat]!))
        expectOk(await gm.post(`/api/games/${ids.ended}/gm/modkill`, { seat, reason: "проверка" }));
    expectOk(await gm.post(`/api/games/${ids.ended}/gm/close`));
    await until("the end", async () => (await detail(gm, ids.ended)).summary.status === "ended");

    // The player's notebooks: one at day 1, one played to its end (the sheriff shoots the boss) and published.
    const notebook = async (
      body: Record<string, unknown>,
      moves: { seat: number; action: Record<string, unknown> }[],
    ): Promise<string> => {
      const c = players[PLAYER]!;
      const made = await c.post<{ id: string }>("/api/notebooks", body);
      expectOk(made);
      for (const m of moves) expectOk(await c.post(`/api/notebooks/${made.body.id}/actions`, m));
      expectOk(await c.post(`/api/notebooks/${made.body.id}/close`, {}));
      return made.body.id;
    };
    const five = ["boss", "sheriff", "citizen", "citizen", "citizen"];
    ids.notebook = await notebook(
      {
        title: "Блокнот",
        players: ["Аня", "Борис", "Вика", "Гоша", "Дима"],
        roles: five,
        deal: { kind: "hand", roles: five },
      },
      [0, 1].map((seat) => ({ seat, action: { act: "pass" } })),
    );
    const three = ["boss", "sheriff", "citizen"];
    ids.published = await notebook(
      {
        title: "Блокнот до конца",
        players: ["Аня", "Борис", "Вика"],
        roles: three,
        deal: { kind: "hand", roles: three },
      },
      [
        { seat: 0, action: { act: "pass" } },
        { seat: 1, action: { act: "shoot", target: 0 } },
      ],
    );
    expectOk(await players[PLAYER]!.post(`/api/notebooks/${ids.published}/publish`, {}));
  }, 240_000);

  it("V2: a vote colour in a post is not the only mark: a screen reader says «красный» / «синий» (English: red / blue)", async () => {
    for (const [lang, red, blue] of [
      ["ru", "красный", "синий"],
      ["en", "red", "blue"],
    ] as const) {
      const { context, page, errors } = await newPage(app.browser, PHONE);
      await page.addInitScript((l) => localStorage.setItem("lang", l), lang);
      await page.goto(`${app.url}/games/${ids.running}`);
      const post = (target: string, color: string) =>
        page
          .locator(".post-body", { hasText: target })
          .filter({ has: page.locator(`.vote-${color}`) })
          .first();
      // The words are in the accessibility tree, right before the coloured nick, and out of sight.
      const redPost = post("Голосую", "red");
      await redPost.waitFor();
      expect(await redPost.ariaSnapshot()).toMatch(new RegExp(`Голосую ${red}: \\S+`));
      expect(await post("Защищаю", "blue").ariaSnapshot()).toMatch(new RegExp(`Защищаю ${blue}: \\S+`));
      const word = page.locator(".vote-red .vote-word").first();
      expect(await word.evaluate((el) => el.getBoundingClientRect().width <= 1)).toBe(true);
      // The app's red, not the writer's pure red (4.0:1 on white).
      const color = await page
        .locator(".post-body .vote-red")
        .first()
        .evaluate((el) => getComputedStyle(el).color);
      expect(color).not.toBe("rgb(255, 0, 0)");
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  for (const variant of VARIANTS)
    describe(variant.name, () => {
      for (const screen of SCREENS)
        it(`${screen.name}: no serious or critical violation`, async () => {
          const { context, page, errors } = await newPage(app.browser, variant.size);
          try {
            const client = accounts.get(screen.who);
            if (client?.cookie) {
              const [name, ...value] = client.cookie.split("=");
              await context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);
            }
            await page.emulateMedia({ colorScheme: variant.scheme });
            await page.goto(`${app.url}${screen.path(ids)}`);
            await screen.ready(page);
            await expect.poll(() => page.getByText("Загрузка…").count()).toBe(0);
            const found = await seriousViolations(page);
            expect({ screen: screen.name, variant: variant.name, violations: found }).toEqual({
              screen: screen.name,
              variant: variant.name,
              violations: [],
            });
            expect(errors).toEqual([]);
          } finally {
            await context.close();
          }
        });
    });
});
