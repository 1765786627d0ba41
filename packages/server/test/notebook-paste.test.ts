import { FOUND_LISTED, type NotebookView, type RoleId } from "@forum-mafia/protocol";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDoc, writeDoc } from "../src/notebooks/notebook-doc.ts";
import { Client } from "./client.ts";
import { G5_BBCODE, G5_FLAGS, G5_HTML } from "./g5-thread.ts";
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

describe("G5 (issue 31): the posts of a notebook's pasted day that break G5", () => {
  let t: TestServer;
  let gm: Client;
  beforeAll(async () => {
    t = await testServer();
    gm = new Client(() => t.server.app, "Ведущий Пять");
    expectOk(await gm.register());
  }, 60_000);
  afterAll(() => t.close());

  /** A notebook of G5_THREAD's players (Гость is not one) in day 1, night 1 passed. */
  async function dayOne(): Promise<string> {
    const players = ["Вася", "Петя", "Маша", "Коля", "Гоша"];
    const roles: RoleId[] = ["boss", "sheriff", "citizen", "citizen", "citizen"];
    const created = await gm.post<NotebookView>("/api/notebooks", {
      title: "День с матом",
      players,
      roles,
      deal: { kind: "hand", roles },
    });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.id;
    for (const seat of [0, 1])
      expectOk(await gm.post(`/api/notebooks/${id}/actions`, { seat, action: { act: "pass" } }));
    expectOk(await gm.post(`/api/notebooks/${id}/close`, {}));
    return id;
  }

  it("G5: a pasted page, its BBCode or its file flags exactly the post with мат and the post with an insult", async () => {
    const id = await dayOne();
    for (const body of [
      { html: G5_HTML },
      { text: G5_BBCODE },
      { file: Buffer.from(G5_HTML).toString("base64") },
    ]) {
      const r = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, body);
      expect(r.status, r.raw).toBe(200);
      const found = r.body.day!.found!;
      expect(found.posts).toBe(5);
      expect(found.flags).toEqual(G5_FLAGS);
      expect(found.flagCount).toBe(2);
      // Read again, the notebook shows what the last paste found, flags and all.
      const again = await gm.get<NotebookView>(`/api/notebooks/${id}`);
      expect(again.body.day!.found!.flags).toEqual(G5_FLAGS);
    }
    // The flags change no vote: Вася red Петя, Петя red Коля (seats 1 and 3).
    const r = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    const votes = r.body.inputs.flatMap((i) => (i.kind === "vote" ? [[i.seat, i.color, i.target]] : []));
    expect(votes).toEqual([
      [0, "red", 1],
      [1, "red", 3],
    ]);
  });

  it("G5: a day of many flagged posts lists the last FOUND_LISTED and counts them all", async () => {
    const id = await dayOne();
    const posts = Array.from(
      { length: FOUND_LISTED + 50 },
      (_, i) => `[quote="Гость" post_id=${1000 + i} time=1764493200 user_id=9]Коля, ты дебил[/quote]`,
    );
    const r = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, { text: posts.join("\n") });
    expect(r.status, r.raw).toBe(200);
    const found = r.body.day!.found!;
    expect(found.flagCount).toBe(FOUND_LISTED + 50);
    expect(found.flags.length).toBe(FOUND_LISTED);
    expect(found.flags[0]).toEqual({
      post: 50,
      label: "p1050",
      author: "Гость",
      kind: "insult",
      words: ["дебил"],
    });
    expect(found.flags.at(-1)!.post).toBe(FOUND_LISTED + 49);
  });

  it("G5: a day pasted before issue 31 reads with no flags", () => {
    const found = {
      kind: "bbcode",
      engine: null,
      posts: 1,
      authors: [{ name: "Аня", posts: 1, seat: 0, gm: false }],
      authorCount: 1,
      first: null,
      last: null,
      ignored: [],
      ignoredCount: 0,
      replaced: 0,
    };
    const phase = { inputs: [], rolls: {}, rollsReason: "", council: null, councilReason: "", removed: [] };
    const roles = ["boss", "sheriff", "citizen", "citizen", "citizen"];
    const old = {
      format: 1,
      players: ["Аня", "Борис", "Вера", "Глеб", "Дима"],
      roles,
      dealt: roles,
      options: {},
      seed: null,
      dialect: "lower",
      gm: null,
      aliases: [[], [], [], [], []],
      closed: [],
      current: { ...phase, found },
      corrections: [],
    };
    const doc = readDoc(JSON.stringify(old));
    expect(doc.current.found).toEqual({ ...found, flags: [], flagCount: 0 });
    expect(readDoc(writeDoc(doc))).toEqual(doc);
  });
});
