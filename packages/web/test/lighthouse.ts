import { rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { Client } from "../../server/test/client.ts";
import { expectOk, NICKS, playToEnd, setUpGame } from "../../server/test/play.ts";
import { appServer, browserMissing, buildWeb, CHROMIUM, CHROMIUM_ARGS } from "./browser.ts";

/**
 * What `npm run bench:lighthouse` and lighthouse.test.ts share (issue 32): the four pages Lighthouse
 * measures, on a real server with the built app and a few games, the one-line static page beside them,
 * Debian's chromium started by chrome-launcher (a dependency of lighthouse) and one Lighthouse run.
 */

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];
export const CATEGORY_TITLE: Record<Category, string> = {
  performance: "performance",
  accessibility: "accessibility",
  "best-practices": "best practices",
  seo: "SEO",
};

/** A page to measure: its URL, and the session cookie ("name=value") it is seen with, if any. */
export interface LhPage {
  readonly name: string;
  readonly label: string;
  readonly url: string;
  readonly cookie?: string;
}

export interface Run {
  readonly lhr: Result;
  /** Each category's score, 0–100. */
  readonly scores: Record<Category, number>;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

/** The one-line static page: the cheapest page a browser can show, named and described like the app. */
export const STATIC_PAGE =
  '<!doctype html><html lang="ru"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Форумная мафия</title><meta name="description" content="Форумная мафия: одна строка для сравнения."><link rel="icon" href="data:,"><p>Форумная мафия</p>';

/**
 * Build the app and serve it with: a finished game (17 players, played to the end by the test drivers),
 * a running game with a thread of posts and votes, and two open games in the lobby; and the static page
 * on a node http server of its own. The pages: the lobby (`/`, a guest), the running game's thread (a
 * player of it, signed in), the finished game's log (`/games/:id/log`, a guest) and /tools (a guest).
 */
export async function seedPages(): Promise<{ pages: LhPage[]; close: () => Promise<void> }> {
  const missing = browserMissing();
  if (missing) throw new Error(missing);
  const dist = buildWeb();
  const { t, url } = await appServer(dist);
  const app = () => t.server.app;
  // The finished game first: playing it moves the server's clock on by days.
  const ended = await setUpGame(t, "automatic");
  await playToEnd(t, ended, 32, "automatic");

  // The running game: its GM is another user; the same 17 players sign up.
  const gm = new Client(app, "Ведущая");
  expectOk(await gm.register());
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Партия в разгаре",
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode: "automatic",
  });
  expectOk(created);
  const running = created.body.id;
  for (const p of ended.players) expectOk(await p.post(`/api/games/${running}/signup`));
  expectOk(await gm.post(`/api/games/${running}/start`, { deal: "random" }));
  // Night 1 passes with no moves: day 1, when everyone may post and vote.
  await t.clock.advance(12 * 3_600_000 + 1);
  const words =
    "Вчера ночью кто-то явно сливал инфу. Я думаю, что мафия среди тихих, посмотрите на голоса.".split(" ");
  for (let i = 0; i < 40; i++) {
    const who = ended.players[i % ended.players.length]!;
    const text = Array.from({ length: 6 + ((i * 7) % 30) }, (_, k) => words[(i + k) % words.length]).join(
      " ",
    );
    const body =
      i % 10 === 3
        ? `[quote="${NICKS[(i + 1) % 17]}"]${text.slice(0, 60)}[/quote]\n[b]Не согласен.[/b] ${text}`
        : i % 9 === 5
          ? `${text}\n\n[color=red]${NICKS[(i + 2) % 17]}[/color]`
          : text;
    // A dead player (night 1's victims) cannot post: the next one does.
    const res = await who.post(`/api/games/${running}/posts`, { text: body });
    if (res.status >= 300)
      expectOk(await ended.players[(i + 1) % 17]!.post(`/api/games/${running}/posts`, { text: body }));
  }

  // Two open games in the lobby, with a few players signed up.
  const host = new Client(app, "Хозяйка");
  expectOk(await host.register());
  for (const title of ["Вечерняя партия", "Классика на 17"]) {
    const open = await host.post<{ id: string }>("/api/games", {
      title,
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "review",
    });
    expectOk(open);
    for (const p of ended.players.slice(0, 5)) expectOk(await p.post(`/api/games/${open.body.id}/signup`));
  }

  // The page at `/`; anything else (robots.txt, a favicon) is a 404, as on the app's server.
  const staticServer = createServer((req, res) => {
    if (req.url !== "/") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(STATIC_PAGE);
  });
  await new Promise<void>((resolve) => staticServer.listen(0, "127.0.0.1", resolve));
  const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`;

  const pages: LhPage[] = [
    { name: "lobby", label: "/, a guest", url: `${url}/` },
    {
      name: "game",
      label: `a running game's thread, day 1, 40 posts, as a player`,
      url: `${url}/games/${running}`,
      cookie: ended.players[0]!.cookie!,
    },
    { name: "log", label: "a finished game's log, a guest", url: `${url}/games/${ended.id}/log` },
    { name: "tools", label: "/tools, a guest", url: `${url}/tools` },
    { name: "static", label: "a one-line static page, node:http", url: staticUrl },
  ];
  return {
    pages,
    close: async () => {
      await new Promise((r) => staticServer.close(r));
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}

/** Debian's chromium for Lighthouse, with the browser tests' flags (headless, no sandbox). */
export async function startChrome(): Promise<{ port: number; close: () => Promise<void> }> {
  const chrome = await launchChrome({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_ARGS,
    logLevel: "silent",
  });
  return { port: chrome.port, close: async () => void chrome.kill() };
}

/**
 * One Lighthouse run of a page, the default (mobile) config, in English (the audits' titles). On a busy
 * machine Lighthouse now and then loses the trace (NO_NAVSTART, NO_FCP): such a run is made again, twice
 * at most.
 */
export async function runLighthouse(
  port: number,
  page: LhPage,
  categories: readonly Category[] = CATEGORIES,
): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(page.url, {
      port,
      logLevel: "error",
      output: "json",
      locale: "en-US",
      onlyCategories: [...categories],
      ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) {
      const why = `Lighthouse on ${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
      if (attempt < 3) {
        console.error(`${why}; again`);
        continue;
      }
      throw new Error(why);
    }
    const scores = {} as Record<Category, number>;
    for (const c of CATEGORIES) {
      const score = lhr.categories[c]?.score;
      scores[c] = score === null || score === undefined ? Number.NaN : Math.round(score * 100);
    }
    return { lhr, scores };
  }
}

/** The audits that keep a category below 100: scored, counted in it (weight > 0), and not passed. */
export function failing(lhr: Result, category: Category): { id: string; title: string }[] {
  const cat = lhr.categories[category];
  if (!cat) return [];
  return cat.auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id]!)
    .filter((a) => a.score !== null && a.score < 1)
    .map((a) => ({ id: a.id, title: a.title }));
}
