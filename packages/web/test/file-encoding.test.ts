import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserApp, browserMissing, PHONE, ROOT } from "./browser.ts";

/**
 * Issue 30, "Encodings": a GM on a windows-1251 or KOI8-R forum saves the thread's page and chooses the file
 * on /tools, in Chromium. The page is sent as its bytes and decoded on the server, so the count is exactly
 * its UTF-8 twin's, worked out by hand (the forum package's fixtures; the twins are made by
 * packages/forum/test/encoding-twins.ts).
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const PAGES = join(ROOT, "packages/forum/test/fixtures/pages");

interface Expected {
  readonly players: string;
  readonly gm: string;
  readonly day: number;
  readonly count: string;
}

describe.skipIf(missing !== null)(
  "a saved page in a Cyrillic encoding chosen on /tools (issue 30)",
  { timeout: 60_000 },
  () => {
    const app = browserApp();
    let context: BrowserContext;
    let tools: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      context = await app.browser.newContext({
        viewport: PHONE,
        locale: "ru-RU",
        timezoneId: "Europe/Moscow",
      });
      tools = await context.newPage();
      tools.on("pageerror", (e) => errors.push(String(e)));
    }, 60_000);
    afterAll(async () => context?.close());

    it.each([
      ["xenforo", "xenforo.windows-1251.nometa.html"],
      ["phpbb", "phpbb.koi8-r.nometa.html"],
    ])("V1: the %s page saved as %s gives the count worked out by hand", async (page, twin) => {
      const want = JSON.parse(readFileSync(join(PAGES, `${page}.expected.json`), "utf8")) as Expected;
      await tools.goto(`${app.url}/tools`);
      await tools.getByRole("textbox", { name: /^Список игроков/ }).fill(want.players);
      await tools.getByLabel("Ник ведущего (его посты не считаются)").fill(want.gm);
      await tools.getByLabel("День").fill(String(want.day));
      await tools
        .getByLabel(/^Или загрузите сохранённую страницу/)
        .setInputFiles(join(PAGES, "encodings", twin));
      // The file is read asynchronously (its bytes, then base64): the box says so once that is done.
      await expect
        .poll(() => tools.getByLabel("Тема с форума").inputValue(), { timeout: 30_000 })
        .toMatch(new RegExp(`^Сохранённая страница ${twin.replaceAll(".", "\\.")} \\(\\d+ КБ\\)$`, "u"));
      await tools
        .getByRole("region", { name: "Что найдено в теме" })
        .getByText(/^Найдено /)
        .waitFor();
      await tools.getByRole("button", { name: "Посчитать голоса" }).click();
      const post = tools.getByRole("textbox", { name: "Пост с голосованием" });
      await post.waitFor();
      expect(await post.inputValue()).toBe(want.count);
      expect(errors).toEqual([]);
    });
  },
);
