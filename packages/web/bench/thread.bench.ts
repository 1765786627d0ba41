import { rmSync } from "node:fs";
import type { PostView } from "@forum-mafia/protocol";
import type { Page } from "playwright-core";
import { Client } from "../../server/test/client.ts";
import { expectOk, NICKS, setUpGame } from "../../server/test/play.ts";
import {
  appServer,
  browserMissing,
  buildWeb,
  DESKTOP,
  FIRST_LOAD_JS_BUDGET,
  firstLoad,
  launch,
  PHONE,
} from "../test/browser.ts";

/**
 * `npm run bench:web`: the web app's budgets.
 * - The first load's JavaScript on the wire: a guest's first visit to `/` in Chromium, the bytes each
 *   script took as it arrived (compressed), summed (budget: 100 KB).
 * - A thread of 2,000 posts: how long it takes to open, and how smoothly it scrolls from top to bottom,
 *   at phone and desktop width. The baseline, measured in the same run, is the same 2,000 posts as a
 *   plain static page (the server's HTML, no script): the ratio says what the app costs over the
 *   cheapest possible page. Medians of several runs; the machine is noisy.
 */

const POSTS = Number(process.env.POSTS ?? 2000);
const RUNS = Number(process.env.RUNS ?? 3);

const missing = browserMissing();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Scroll {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  /** Frames longer than 50 ms: what a reader feels as a stutter. */
  janky: number;
}

/** Scroll the window from top to bottom, a step per frame, recording every frame's length. */
async function scrollThrough(page: Page, step: number): Promise<Scroll> {
  return page.evaluate(async (step) => {
    window.scrollTo(0, 0);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const deltas: number[] = [];
    let last = performance.now();
    // Until the window stops moving for 30 frames (the end), or 60 s at most.
    const started = performance.now();
    // A frame that never comes (a throttled page) counts as 100 ms instead of hanging the run.
    let still = 0;
    while (still < 30 && performance.now() - started < 60_000) {
      const before = window.scrollY;
      window.scrollBy(0, step);
      await Promise.race([
        new Promise((r) => requestAnimationFrame(r)),
        new Promise((r) => setTimeout(r, 100)),
      ]);
      const now = performance.now();
      deltas.push(now - last);
      last = now;
      still = window.scrollY === before ? still + 1 : 0;
    }
    deltas.splice(deltas.length - still); // the frames spent at the end, not scrolling
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    const s = [...deltas].sort((a, b) => a - b);
    return {
      frames: s.length,
      p50: s[Math.floor(0.5 * s.length)]!,
      p95: s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]!,
      max: s[s.length - 1]!,
      janky: s.filter((d) => d > 50).length,
    };
  }, step);
}

async function seed(): Promise<{
  url: string;
  id: string;
  cookie: string;
  posts: PostView[];
  close: () => Promise<void>;
}> {
  const dist = buildWeb();
  const { t, url } = await appServer(dist);
  const table = await setUpGame(t, "automatic");
  const words =
    "Вчера ночью кто-то явно сливал инфу. Я думаю, что мафия среди тихих, посмотрите на голоса.".split(" ");
  for (let i = 0; i < POSTS; i++) {
    const who = table.players[i % table.players.length]!;
    const len = 5 + ((i * 7919) % 60);
    const text = Array.from({ length: len }, (_, k) => words[(i + k) % words.length]).join(" ");
    const body =
      i % 10 === 3
        ? `[quote="${NICKS[(i + 1) % 17]}"]${text.slice(0, 80)}[/quote]\n[b]Не согласен.[/b] ${text}`
        : i % 7 === 0
          ? `${text}\n\n[spoiler]${text}[/spoiler]`
          : text;
    expectOk(await who.post(`/api/games/${table.id}/posts`, { text: body }));
  }
  const all: PostView[] = [];
  for (let after = 0; after < POSTS; after += 500)
    all.push(
      ...(
        await table.players[0]!.get<{ posts: PostView[] }>(
          `/api/games/${table.id}/posts?after=${after}&limit=500`,
        )
      ).body.posts,
    );
  const reader = table.players[0]! as Client;
  const close = async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  };
  return { url, id: table.id, cookie: reader.cookie!, posts: all, close };
}

async function measure(run: () => Promise<{ open: number; scroll: Scroll; longTasks: number }>) {
  const opens: number[] = [];
  const p95s: number[] = [];
  const maxes: number[] = [];
  const janks: number[] = [];
  const longs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run();
    opens.push(r.open);
    p95s.push(r.scroll.p95);
    maxes.push(r.scroll.max);
    janks.push(r.scroll.janky);
    longs.push(r.longTasks);
  }
  return {
    open: median(opens),
    p95: median(p95s),
    max: median(maxes),
    janky: median(janks),
    longTasks: median(longs),
  };
}

const s = await seed();
const browser = await launch();
try {
  const load = await firstLoad(browser, s.url, {
    ready: (page) => page.getByRole("heading", { name: /форумную мафию/ }).waitFor(),
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const all = load.received.reduce((sum, r) => sum + r.wireBytes, 0);
  console.log(
    `first load of / (a guest, measured in Chromium): ${kb(load.jsBytes)} of JavaScript on the wire ` +
      `(${load.jsBytes} bytes), budget ${kb(FIRST_LOAD_JS_BUDGET)} (${FIRST_LOAD_JS_BUDGET} bytes): ` +
      `${load.jsBytes <= FIRST_LOAD_JS_BUDGET ? "within" : "OVER"}; ${kb(all)} in all`,
  );
  for (const r of load.received)
    console.log(`  ${new URL(r.url).pathname}  ${r.wireBytes} B  ${r.encoding ?? "uncompressed"}`);
  // The game page's own code comes when it is opened, on top of the first load's.
  const game = await firstLoad(browser, s.url, {
    path: `/games/${s.id}`,
    ready: (page) => page.locator("#game-title").waitFor(),
  });
  const more = game.js.filter((r) => !load.js.some((l) => l.url === r.url));
  console.log(
    `opening a game page adds ${kb(more.reduce((sum, r) => sum + r.wireBytes, 0))} of JavaScript on the wire: ` +
      more
        .map((r) => `${new URL(r.url).pathname} ${r.wireBytes} B ${r.encoding ?? "uncompressed"}`)
        .join(", "),
  );
  const rows: string[] = [];
  for (const [label, size] of [
    ["phone 360×740", PHONE],
    ["desktop 1280×800", DESKTOP],
  ] as const) {
    const app = await measure(async () => {
      const context = await browser.newContext({ viewport: size, locale: "ru-RU" });
      const [name, value] = s.cookie.split("=") as [string, string];
      await context.addCookies([{ name, value, url: s.url }]);
      const page = await context.newPage();
      await page.addInitScript(() => {
        (window as unknown as { __long: number }).__long = 0;
        new PerformanceObserver((l) => {
          (window as unknown as { __long: number }).__long += l.getEntries().length;
        }).observe({ type: "longtask", buffered: true });
      });
      const start = Date.now();
      await page.goto(`${s.url}/games/${s.id}`);
      await page.locator("article").first().waitFor();
      const open = Date.now() - start;
      const longTasks = await page.evaluate(() => (window as unknown as { __long: number }).__long);
      const scroll = await scrollThrough(page, Math.round(size.height * 0.6));
      await context.close();
      return { open, scroll, longTasks };
    });
    const base = await measure(async () => {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      const html = `<!doctype html><meta charset=utf-8><body style="font-family:system-ui;max-width:1100px;margin:auto">${s.posts
        .map(
          (p) =>
            `<article style="border:1px solid #ddd;margin:8px;padding:8px"><b>${p.author}</b><div>${p.html}</div></article>`,
        )
        .join("")}</body>`;
      const start = Date.now();
      await page.setContent(html);
      await page.locator("article").first().waitFor();
      const open = Date.now() - start;
      const scroll = await scrollThrough(page, Math.round(size.height * 0.6));
      await context.close();
      return { open, scroll, longTasks: 0 };
    });
    rows.push(
      `| ${label} | app | ${app.open} | ${app.longTasks} | ${app.p95.toFixed(1)} | ${app.max.toFixed(1)} | ${app.janky} |`,
      `| ${label} | static page (baseline) | ${base.open} | – | ${base.p95.toFixed(1)} | ${base.max.toFixed(1)} | ${base.janky} |`,
      `| ${label} | app / baseline | ${(app.open / base.open).toFixed(2)} | | ${(app.p95 / base.p95).toFixed(2)} | ${(app.max / base.max).toFixed(2)} | |`,
    );
  }
  console.log(
    `\nA thread of ${s.posts.length} posts, medians of ${RUNS} runs (open: navigation to the first post shown; scroll: top to bottom, 60% of a screen a frame)\n`,
  );
  console.log(
    "| viewport | page | open ms | long tasks while opening | frame p95 ms | worst frame ms | frames > 50 ms |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
} finally {
  await browser.close();
  await s.close();
}
