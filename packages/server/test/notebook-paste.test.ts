import type { NotebookView, RoleId } from "@forum-mafia/protocol";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

/**
 * Issue 18: a day of a notebook counted from a forum page as the GM copies it: each engine's fixture page
 * (packages/forum/test/fixtures/pages, written and counted by hand there) pasted as HTML into a notebook
 * whose players are the page's roster. The notebook's count post must be the fixture's hand-written count,
 * with the day the notebook is in (day 1 here, the page's day 2 in its title).
 */

const PAGES = fileURLToPath(new URL("../../forum/test/fixtures/pages/", import.meta.url));
const engines = readdirSync(PAGES)
  .filter((f) => f.endsWith(".expected.json"))
  .map((f) => f.replace(".expected.json", ""))
  .sort();

interface Expected {
  readonly players: string;
  readonly day: number;
  readonly posts: number;
  readonly first: string | null;
  readonly last: string | null;
  readonly count: string;
}

describe("issue 18: a notebook's day pasted from each forum engine's page", () => {
  let t: TestServer;
  let gm: Client;
  beforeAll(async () => {
    t = await testServer();
    gm = new Client(() => t.server.app, "Ведущий");
    expectOk(await gm.register());
  }, 60_000);
  afterAll(() => t.close());

  it("has the pages to paste", () => {
    expect(engines.length).toBeGreaterThanOrEqual(8);
  });

  for (const engine of engines) {
    it(`V2, V4: ${engine}: the page's votes give the count written by hand`, async () => {
      const expected = JSON.parse(readFileSync(`${PAGES}${engine}.expected.json`, "utf8")) as Expected;
      const html = readFileSync(`${PAGES}${engine}.html`, "utf8");
      const lines = expected.players.split("\n").map((l) => l.split("|").map((p) => p.trim()));
      const players = lines.map((l) => l[0]!);
      // S3: a mafia member, a town role with a move, citizens; dealt by hand in seat order.
      const roles: RoleId[] = ["boss", "sheriff", ...players.slice(2).map((): RoleId => "citizen")];
      const created = await gm.post<NotebookView>("/api/notebooks", {
        title: `День с форума (${engine})`,
        players,
        roles,
        deal: { kind: "hand", roles },
      });
      expect(created.status, created.raw).toBe(201);
      const id = created.body.id;
      for (const [seat, l] of lines.entries())
        if (l.length > 1)
          expectOk(await gm.post(`/api/notebooks/${id}/aliases`, { seat, aliases: l.slice(1) }));
      // Night 1 passes quietly: nobody dies, nobody owes a move.
      for (const seat of [0, 1])
        expectOk(await gm.post(`/api/notebooks/${id}/actions`, { seat, action: { act: "pass" } }));
      expectOk(await gm.post(`/api/notebooks/${id}/close`, {}));
      const r = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, { html });
      expect(r.status, r.raw).toBe(200);
      const day = r.body.day!;
      expect(day.found).toMatchObject({
        kind: "html",
        posts: expected.posts,
        first: expected.first,
        last: expected.last,
      });
      const dayTitle = (n: number): string => `Голосование, день ${n}`;
      expect(expected.count).toContain(dayTitle(expected.day));
      expect(day.count).toBe(expected.count.replace(dayTitle(expected.day), dayTitle(1)));
    });
  }
});
