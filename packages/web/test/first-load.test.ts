import { expect, it, describe } from "vitest";
import { expectOk, setUpGame } from "../../server/test/play.ts";
import { browserApp, browserMissing, newPage, PHONE } from "./browser.ts";

/**
 * Issue 32: a game page asks for the detail and the thread at once (early.ts, use-game.ts), so either may
 * be read first. A post made between the two reads must still show, and once: the thread says where the
 * reader's stream stood when it was read (`?stream=1`), and the stream opens at the earlier point.
 */

const missing = browserMissing();
if (missing) console.warn(`skipping the browser tests: ${missing}`);

describe.skipIf(missing !== null)("a game page's first load (issue 32)", { timeout: 120_000 }, () => {
  const app = browserApp();

  it("shows, once, a post made after the thread was read and before the detail was", async () => {
    const table = await setUpGame(app.t, "automatic");
    const [reader, writer] = [table.players[0]!, table.players[1]!];
    expectOk(await writer.post(`/api/games/${table.id}/posts`, { text: "Сказано до загрузки" }));
    const { context, page, errors } = await newPage(app.browser, PHONE);
    const [name, ...value] = reader.cookie!.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: app.url }]);

    // The thread is read first; then a post is made; only then is the detail read.
    let threadRead!: () => void;
    const read = new Promise<void>((resolve) => (threadRead = resolve));
    let threads = 0;
    await page.route(
      (u) => u.pathname === `/api/games/${table.id}/posts`,
      async (route) => {
        const response = await route.fetch();
        threads++;
        threadRead();
        await route.fulfill({ response });
      },
    );
    await page.route(
      (u) => u.pathname === `/api/games/${table.id}`,
      async (route) => {
        await read;
        expectOk(await writer.post(`/api/games/${table.id}/posts`, { text: "Сказано между чтениями" }));
        await route.continue();
      },
    );
    await page.goto(`${app.url}/games/${table.id}`);
    const rows = page.locator(".thread-row");
    await rows.filter({ hasText: "Сказано между чтениями" }).waitFor();
    await rows.filter({ hasText: "Сказано до загрузки" }).waitFor();
    // The stream brings the post the thread lacked; the thread and the stream both hold the first one.
    expect(threads).toBe(1);
    expect(await rows.filter({ hasText: "Сказано между чтениями" }).count()).toBe(1);
    expect(await rows.filter({ hasText: "Сказано до загрузки" }).count()).toBe(1);
    await expect.poll(() => page.locator(".thread-count").textContent()).toMatch(/2/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
