import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { G5_HTML } from "../../server/test/g5-thread.ts";
import { expectG5Flags } from "./g5-found.ts";
import { browserApp, browserMissing, newPage, PHONE, registerInApp, screenshot } from "./browser.ts";

/**
 * Issue 30 in Chromium, the notebook's loose ends: the GM gives their forum nick beside the day's paste,
 * and the pasted thread's posts by that nick are named as the GM's, never offered as an unknown author to
 * add to a seat; the finished game's replay file downloads under the notebook's (Russian) title. Issue 31:
 * the day's pasted posts that break G5 are listed with the words marked.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

/** A notebook made through the API from the page (its session), then night 1 closed with `moves`. */
async function notebook(
  page: Page,
  body: Record<string, unknown>,
  moves: readonly { seat: number; action: Record<string, unknown> }[],
): Promise<string> {
  return page.evaluate(
    async ({ body, moves }) => {
      const post = async (path: string, b: unknown): Promise<{ id: string }> => {
        const r = await fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(b),
        });
        if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
        return (await r.json()) as { id: string };
      };
      const { id } = await post("/api/notebooks", body);
      for (const m of moves) await post(`/api/notebooks/${id}/actions`, m);
      await post(`/api/notebooks/${id}/close`, {});
      return id;
    },
    { body, moves },
  );
}

/** A phpBB post as the forum page shows it. */
const post = (n: number, author: string, content: string): string =>
  `<div id="p${n}" class="post bg2"><div class="inner"><div class="postbody"><p class="author">by <a class="username">${author}</a> » 3 дек 2026, 10:${n}</p><div class="content">${content}</div></div></div></div>`;

/** Put HTML on the clipboard, focus the paste box and press Ctrl+V: a real paste event. */
async function pasteThread(page: Page, html: string): Promise<void> {
  await page.evaluate(async (h) => {
    const item = new ClipboardItem({
      "text/html": new Blob([h], { type: "text/html" }),
      "text/plain": new Blob([h.replace(/<[^>]+>/g, " ")], { type: "text/plain" }),
    });
    await navigator.clipboard.write([item]);
  }, html);
  await page.getByLabel("Вставьте сюда тему дня (Ctrl+V)").focus();
  await page.keyboard.press("Control+V");
}

describe.skipIf(missing !== null)(
  "issue 30: the notebook's GM nick and replay file in Chromium",
  { timeout: 240_000 },
  () => {
    const app = browserApp();

    it("the GM's posts are named as the GM's, not offered as an unknown author; the replay file has the title's name", async () => {
      const { context, page, errors } = await newPage(app.browser, PHONE);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await registerInApp(page, app.url, "Ведущий Четыре");

      // Day 1 of a five-seat game, night 1 passed by the two seats with a move; no GM nick given yet.
      const roles = ["boss", "sheriff", "citizen", "citizen", "citizen"];
      const id = await notebook(
        page,
        {
          title: "Пятеро",
          players: ["Аня", "Борис", "Вика", "Гоша", "Дима"],
          roles,
          deal: { kind: "hand", roles },
        },
        [0, 1].map((seat) => ({ seat, action: { act: "pass" } })),
      );
      await page.goto(`${app.url}/notebooks/${id}`);
      await page.getByRole("heading", { name: "День 1: голосование" }).waitFor();
      const gmField = page.getByLabel("Ваш ник на форуме (ведущего)");
      await gmField.fill("Ведущий");
      await page.getByRole("button", { name: "Сохранить ник ведущего" }).click();
      await page.getByText("Ник ведущего сохранён").waitFor();

      // The GM opens the day (no coloured nick), Аня votes, «Вика_» (Вика's other spelling) votes.
      await pasteThread(
        page,
        `<div class="topic">${[
          post(11, "Ведущий", "День 1. Голосуем: ник КРАСНЫМ — против, СИНИМ — в защиту."),
          post(12, "Аня", 'Голосую <span style="color: #FF0000">Борис</span>'),
          post(13, "Вика_", 'Я за <span style="color: #FF0000">Аня</span>'),
        ].join("\n")}</div>`,
      );
      const found = page.locator(".nb-found");
      await found.getByText("Найдено: 3 поста от 3 авторов").waitFor();
      await found.getByText("Посты ведущего (Ведущий): 1 пост, голосами не считаются.").waitFor();
      expect(await found.locator(".nb-unknown li strong").allInnerTexts()).toEqual(["Вика_"]);
      expect(errors).toEqual([]);

      // A game that ends at night 1: the sheriff shoots the boss (T1), no mafia is left (W1).
      const title = "Мафия «Осень»: финал";
      const ended = await notebook(
        page,
        {
          title,
          players: ["Аня", "Борис", "Вика"],
          roles: ["boss", "sheriff", "citizen"],
          deal: { kind: "hand", roles: ["boss", "sheriff", "citizen"] },
        },
        [
          { seat: 0, action: { act: "pass" } },
          { seat: 1, action: { act: "shoot", target: 0 } },
        ],
      );
      await page.goto(`${app.url}/notebooks/${ended}`);
      const link = page.getByRole("link", { name: "Скачать файл реплея" });
      await link.waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      // `:` may not stand in a file name (Windows), so it becomes `_`, as in the app's own name for the link.
      expect(download.suggestedFilename()).toBe("Мафия «Осень»_ финал.json");
      expect(errors).toEqual([]);
    });

    it("G5: the day's pasted posts with мат and an insult are listed with the words marked, at 360 px", async () => {
      const { context, page, errors } = await newPage(app.browser, PHONE);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
      await registerInApp(page, app.url, "Ведущий Шесть");
      const roles = ["boss", "sheriff", "citizen", "citizen", "citizen"];
      const id = await notebook(
        page,
        {
          title: "День с матом",
          players: ["Вася", "Петя", "Маша", "Коля", "Гоша"],
          roles,
          deal: { kind: "hand", roles },
        },
        [0, 1].map((seat) => ({ seat, action: { act: "pass" } })),
      );
      await page.goto(`${app.url}/notebooks/${id}`);
      await page.getByRole("heading", { name: "День 1: голосование" }).waitFor();
      // server/test/g5-thread.ts's thread: g5-found.ts says what it holds and what must be flagged.
      await pasteThread(page, G5_HTML);
      const found = page.locator(".nb-found");
      await found.getByText("Найдено: 5 постов от 5 авторов").waitFor();
      const flags = await expectG5Flags(found);
      await screenshot(page, "notebook-g5-phone");
      // Shown again when the notebook is opened afresh.
      await page.reload();
      await flags.waitFor();
      expect(await flags.locator("li mark").allTextContents()).toEqual(["х*й", "дебил"]);
      expect(errors).toEqual([]);
      await context.close();
    });
  },
);
