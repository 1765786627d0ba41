import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { browserApp, browserMissing, newPage, PHONE, ROOT, screenshot } from "./browser.ts";

/** Issue 6, "In the app": a GM of a game on another forum pastes the thread and gets the count post. */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

const THREAD = [
  { author: "Вася", time: "2026-11-30T10:00:00Z", body: "Я за [color=red]Петю[/color]" },
  {
    author: "Коля",
    time: "2026-11-30T10:05:00Z",
    body: '[quote="Вася"][color=red]Маша[/color][/quote] Петя КРАСНЫМ',
  },
  { author: "Маша", time: "2026-11-30T10:07:00Z", body: '<span style="color: blue">Петя</span>' },
];

describe.skipIf(missing !== null)("the GM tools page in Chromium (issue 6)", { timeout: 120_000 }, () => {
  const app = browserApp();

  it("V2, V4: counts a pasted thread without an account, and writes a replay's results post", async () => {
    const { page, errors } = await newPage(app.browser, PHONE);
    await page.goto(`${app.url}/tools`);
    await page.getByLabel("Список игроков").fill("Вася\nПетя\nКоля\nМаша");
    await page.getByLabel("Тема с форума").fill(JSON.stringify(THREAD));
    await page.getByRole("button", { name: "Посчитать голоса" }).click();
    const post = page.getByRole("textbox", { name: "Пост с голосованием" });
    await post.waitFor();
    // The quoted vote for Маша does not count; Коля's plain-text vote and Маша's blue one do.
    const text = await post.inputValue();
    expect(text).toContain("Петя (2): Вася, Коля");
    expect(text).not.toContain("Маша (");
    await screenshot(page, "tools-phone");

    const replay = readFileSync(join(ROOT, "packages/engine/samples/full-game.json"), "utf8");
    await page.getByLabel("Реплей (JSON)").fill(replay);
    await page.getByRole("button", { name: "Написать итоги" }).click();
    await page
      .getByText(/Итоги (ночи|дня) \d+/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  });
});
