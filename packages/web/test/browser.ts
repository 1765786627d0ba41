import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { DEFAULT_ROLES, type RoleId } from "@forum-mafia/engine";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { testServer, type TestServer } from "../../server/test/harness.ts";

/**
 * What the browser tests and the web benchmark share: the built app, a real HTTP server that serves it,
 * and Debian's chromium driven by playwright-core (STYLE.md: no browser download works here).
 */

export const ROOT = join(import.meta.dirname, "../../..");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const OUTPUT = join(ROOT, "test-output");

/** Why the browser tests cannot run here, or null. CI must have chromium (.ci/run installs it). */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `no chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;
  if (process.env.CI) throw new Error(why);
  return why;
}

/**
 * Build the web app into a folder of its own under a cache folder (the served copy, not
 * packages/web/dist). The browser test files run at once, each building: a shared folder would be emptied
 * by one build while another file's server is sending from it. `browserApp` removes its folder after.
 */
export function buildWeb(): string {
  // WEB_TEST_DIST: a folder of one's own, when several test runs build at once.
  const base = process.env.WEB_TEST_DIST ?? join(ROOT, "node_modules/.cache/web-test-dist");
  mkdirSync(base, { recursive: true });
  const out = mkdtempSync(join(base, "build-"));
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin/vite.js");
  execFileSync(
    process.execPath,
    [vite, "build", join(ROOT, "packages/web"), "--outDir", out, "--emptyOutDir", "--logLevel", "error"],
    {
      cwd: ROOT,
      // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  return out;
}

/**
 * An estimate of the JavaScript a first visit loads, from the files: the entry script and the chunks it
 * preloads, gzipped. `firstLoad` measures what really travels; this stays for the older budget check.
 */
export function initialJs(dist: string): { files: string[]; gzipBytes: number; rawBytes: number } {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const f of files) {
    const body = readFileSync(join(dist, f));
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return { files, gzipBytes, rawBytes };
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });

/** RULES.md §1's seventeen roles dealt with the mafia boss at seat 0 (the browser's player has a night move). */
export const BOSS_FIRST: readonly RoleId[] = [
  "boss",
  ...DEFAULT_ROLES.filter((_, i) => i !== DEFAULT_ROLES.indexOf("boss")),
];
/** The roles not of the town (RULES.md §1: the mafia's five and the maniac). */
export const EVIL: ReadonlySet<RoleId> = new Set<RoleId>([
  "boss",
  "troll",
  "elf",
  "lawyer",
  "thug",
  "maniac",
]);

export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };

/** The first load of `/` carries at most this much JavaScript on the wire (issue 12). */
export const FIRST_LOAD_JS_BUDGET = 100 * 1024;

/** One response of a page load, as Chromium received it. */
export interface Received {
  readonly url: string;
  readonly status: number;
  readonly type: string;
  /** The Content-Encoding it came with (br, gzip), or null when it came as it is. */
  readonly encoding: string | null;
  /** The body's bytes on the wire (Chromium's responseBodySize: after compression, before decoding). */
  readonly wireBytes: number;
}

/**
 * Measure a first visit to `path` in a fresh browser context (empty cache; no cookies, a guest, unless a
 * session `cookie` "name=value" is given): every response until the page is loaded and `ready` is
 * shown, with its encoding and its bytes on the wire. `js` is the JavaScript among them; `jsBytes` their
 * sum, which the budget limits.
 */
export async function firstLoad(
  browser: Browser,
  url: string,
  opts: {
    path?: string;
    ready?: (page: Page) => Promise<unknown>;
    size?: typeof PHONE;
    cookie?: string;
  } = {},
): Promise<{ received: Received[]; js: Received[]; jsBytes: number }> {
  const context = await browser.newContext({ viewport: opts.size ?? PHONE, locale: "ru-RU" });
  try {
    if (opts.cookie) {
      const [name, value] = opts.cookie.split("=") as [string, string];
      await context.addCookies([{ name, value, url }]);
    }
    const page = await context.newPage();
    const pending: Promise<Received>[] = [];
    page.on("requestfinished", (request) =>
      pending.push(
        (async () => {
          const [response, sizes] = await Promise.all([request.response(), request.sizes()]);
          const headers = (await response?.allHeaders()) ?? {};
          return {
            url: request.url(),
            status: response?.status() ?? 0,
            type: headers["content-type"] ?? "",
            encoding: headers["content-encoding"] ?? null,
            wireBytes: sizes.responseBodySize,
          };
        })(),
      ),
    );
    // Not "networkidle": a game page's live stream stays open.
    await page.goto(`${url}${opts.path ?? "/"}`);
    if (opts.ready) await opts.ready(page);
    await page.waitForLoadState("networkidle", { timeout: 2_000 }).catch(() => undefined);
    const received = await Promise.all(pending);
    const js = received.filter((r) => /javascript/.test(r.type));
    return { received, js, jsBytes: js.reduce((sum, r) => sum + r.wireBytes, 0) };
  } finally {
    await context.close();
  }
}

/** A test server listening on a real port, serving the built app. */
export async function appServer(
  webRoot: string,
  seed?: () => string,
): Promise<{ t: TestServer; url: string }> {
  const t = await testServer({ webRoot, ...(seed ? { seed } : {}) });
  await t.server.app.listen({ port: 0, host: "127.0.0.1" });
  const addr = t.server.app.server.address();
  if (!addr || typeof addr === "string") throw new Error("the server has no port");
  return { t, url: `http://127.0.0.1:${addr.port}` };
}

/**
 * A browser page of its own (own cookies), the size of a phone or a desktop, failing on page errors. The
 * app's service worker (issue 32) is blocked unless `serviceWorkers` is "allow": a request it answered
 * would not reach a test's `page.route`, and only pwa.test.ts is about it.
 */
export async function newPage(
  browser: Browser,
  size = PHONE,
  serviceWorkers: "allow" | "block" = "block",
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: size,
    locale: "ru-RU",
    timezoneId: "Europe/Moscow",
    serviceWorkers,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * Save a screenshot of a key screen with the test output (test-output/screenshots), and check the screen
 * the way a phone and a keyboard user meet it: nothing wider than the window (360 px on a phone), and
 * every control named (a label, aria-label or text), so it can be found and used without a mouse.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(OUTPUT, "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth)
      out.push(`the page is ${width} px wide in a ${window.innerWidth} px window`);
    for (const el of document.querySelectorAll("button, input, select, textarea, a[href]")) {
      const h = el as HTMLElement;
      if (h.offsetParent === null && h.getAttribute("type") !== "hidden") continue; // not shown
      const input = el as HTMLInputElement;
      const named =
        (h.getAttribute("aria-label") ?? "").trim() !== "" ||
        h.hasAttribute("aria-labelledby") ||
        (input.labels !== undefined && input.labels !== null && input.labels.length > 0) ||
        (h.textContent ?? "").trim() !== "" ||
        (h.getAttribute("title") ?? "").trim() !== "";
      if (!named) out.push(`an unnamed ${el.tagName.toLowerCase()}: ${h.outerHTML.slice(0, 120)}`);
    }
    return out;
  });
  if (problems.length > 0) throw new Error(`${name}: ${problems.join("; ")}`);
}

export interface BrowserApp {
  browser: Browser;
  t: TestServer;
  url: string;
  dist: string;
}

/** Inside a describe: build and serve the app and start chromium before its tests, stop both after. */
export function browserApp(): BrowserApp {
  const app = {} as BrowserApp;
  beforeAll(async () => {
    app.dist = buildWeb();
    const served = await appServer(app.dist);
    app.t = served.t;
    app.url = served.url;
    app.browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await app.browser?.close();
    await app.t?.close();
    if (app.dist) rmSync(app.dist, { recursive: true, force: true });
  });
  return app;
}

/** Register through the app's form; the page is then logged in. */
export async function registerInApp(page: Page, url: string, nick: string): Promise<void> {
  await page.goto(`${url}/register`);
  await page.getByLabel("Ник").fill(nick);
  await page.getByLabel("Пароль").fill("correct horse battery");
  await page.getByRole("button", { name: "Зарегистрироваться" }).click();
  await page.getByRole("button", { name: "Выйти" }).waitFor();
}
