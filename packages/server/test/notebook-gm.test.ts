import type { NotebookView, RoleId, ThreadFound } from "@forum-mafia/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";
import { readDoc, writeDoc } from "../src/notebooks/notebook-doc.ts";

/**
 * Issue 30, "The notebook and /tools": the notebook knows the GM's nick on their forum, so the GM's posts
 * in a pasted thread are the GM's (never an unknown player to add as a spelling of a seat, never a vote);
 * a GM post with no coloured nick is not listed as a vote that did not count; the replay file downloads
 * under the notebook's title. Every expected value is written by hand from the thread below.
 */

type Err = { error: { code: string; message: string } };

/** Seats 0–4, dealt by hand: a boss, a sheriff, three citizens. */
const PLAYERS = ["Аня", "Борис", "Вика", "Гоша", "Дима"];
const ROLES: RoleId[] = ["boss", "sheriff", "citizen", "citizen", "citizen"];

/** A GM's multi-quote of the day's posts (phpBB's quote tags): each post's author, number and text. */
const thread = (posts: readonly [string, string][]): string =>
  posts
    .map(
      ([author, body], i) =>
        `[quote="${author}" post_id=${2000 + i} time=${1700000000 + i} user_id=${i + 1}]${body}[/quote]`,
    )
    .join("\n");

/**
 * Day 1 as the forum shows it: the GM opens the day with the voting rules (the words КРАСНЫМ and СИНИМ, no
 * coloured nick), Аня votes, the GM posts a count with a coloured nick, and «Вика_» (Вика's other
 * spelling, not yet an alias) votes.
 */
const DAY = thread([
  ["Ведущий", "День 1. Голосуем до 20:00: ник КРАСНЫМ — против, СИНИМ — в защиту."],
  ["Аня", "Голосую [color=red]Борис[/color]"],
  ["Ведущий", "Промежуточный подсчёт: [color=red]Борис[/color] — 1"],
  ["Вика_", "Я за [color=red]Аня[/color]"],
]);

describe("issue 30: the notebook's GM nick, its posts, and the replay file's name", () => {
  let t: TestServer;
  let gm: Client;
  const app = () => t.server.app;

  beforeAll(async () => {
    t = await testServer();
    gm = new Client(app, "Ведущая сайта");
    expectOk(await gm.register());
  }, 60_000);
  afterAll(() => t.close());

  /** A notebook in day 1: created (with `extra`), night 1 passed quietly by the two seats with a move. */
  const dayOne = async (title: string, extra: Record<string, unknown> = {}): Promise<NotebookView> => {
    const r = await gm.post<NotebookView>("/api/notebooks", {
      title,
      players: PLAYERS,
      roles: ROLES,
      deal: { kind: "hand", roles: ROLES },
      ...extra,
    });
    expect(r.status, r.raw).toBe(201);
    const id = r.body.id;
    for (const seat of [0, 1])
      expectOk(await gm.post(`/api/notebooks/${id}/actions`, { seat, action: { act: "pass" } }));
    const closed = await gm.post<NotebookView>(`/api/notebooks/${id}/close`, {});
    expect(closed.status, closed.raw).toBe(200);
    expect(closed.body.phase).toEqual({ kind: "day", number: 1 });
    return closed.body;
  };

  const paste = async (id: string): Promise<ThreadFound> => {
    const r = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, { text: DAY });
    expect(r.status, r.raw).toBe(200);
    return r.body.day!.found!;
  };

  it("the GM's nick given at creation: the GM's posts are the GM's, not an unknown player's", async () => {
    const v = await dayOne("С ником ведущего", { gm: "Ведущий" });
    expect(v.gm).toBe("Ведущий");
    const found = await paste(v.id);
    expect(found.posts).toBe(4);
    expect(found.authors).toEqual([
      { name: "Ведущий", posts: 2, seat: null, gm: true },
      { name: "Аня", posts: 1, seat: 0, gm: false },
      { name: "Вика_", posts: 1, seat: null, gm: false },
    ]);
    expect(found.authorCount).toBe(3);
  });

  it("a GM post with no coloured nick is not listed as not counted; one with a coloured nick is, as the GM's", async () => {
    const v = await dayOne("Не учтено", { gm: "Ведущий" });
    const found = await paste(v.id);
    // Post 0 (the rules, no colour) is left out; post 2 (a coloured nick) is the GM's; post 3 is by nobody at the table.
    expect(found.ignored.map((x) => x.post)).toEqual([2, 3]);
    expect(found.ignored[0]!.text).toBe("[color=red]Борис[/color]");
    expect(found.ignored[0]!.reason).toMatch(/^пост ведущего/);
    expect(found.ignored[1]!.reason).toContain("Вика_");
    expect(found.ignoredCount).toBe(2);
  });

  it("without a GM nick the GM is read as any other author (as before issue 30), and may be given later", async () => {
    const v = await dayOne("Без ника ведущего");
    expect(v.gm).toBeNull();
    const before = await paste(v.id);
    expect(before.authors[0]).toEqual({ name: "Ведущий", posts: 2, seat: null, gm: false });
    expect(before.ignored.map((x) => x.post)).toEqual([0, 2, 3]);
    // Given later, in another case and with spaces around: the counter matches nicks by their key.
    const set = await gm.post<NotebookView>(`/api/notebooks/${v.id}/gm`, { gm: "  ВЕДУЩИЙ " });
    expect(set.status, set.raw).toBe(200);
    expect(set.body.gm).toBe("ВЕДУЩИЙ");
    const after = await paste(v.id);
    expect(after.authors[0]).toEqual({ name: "Ведущий", posts: 2, seat: null, gm: true });
    expect(after.ignored.map((x) => x.post)).toEqual([2, 3]);
    // And taken away again.
    const unset = await gm.post<NotebookView>(`/api/notebooks/${v.id}/gm`, { gm: null });
    expect(unset.body.gm).toBeNull();
    expect((await paste(v.id)).authors[0]!.gm).toBe(false);
  });

  it("the GM's nick may not be a seat's nick or spelling, at creation or later (400 gm), nor an alias or a substitute's nick", async () => {
    const created = await gm.post<Err>("/api/notebooks", {
      title: "Ведущий играет",
      players: PLAYERS,
      roles: ROLES,
      deal: { kind: "hand", roles: ROLES },
      gm: "аня",
    });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe("gm");
    const v = await dayOne("Псевдонимы", { gm: "Ведущий" });
    expectOk(await gm.post(`/api/notebooks/${v.id}/aliases`, { seat: 2, aliases: ["Вика_"] }));
    const later = await gm.post<Err>(`/api/notebooks/${v.id}/gm`, { gm: "вика_" });
    expect(later.status).toBe(400);
    expect(later.body.error.code).toBe("gm");
    const alias = await gm.post<Err>(`/api/notebooks/${v.id}/aliases`, { seat: 3, aliases: ["ведущий"] });
    expect(alias.status).toBe(400);
    expect(alias.body.error.code).toBe("aliases");
    const substitute = await gm.post<Err>(`/api/notebooks/${v.id}/replace`, {
      seat: 4,
      name: "Ведущий",
      reason: "Дима ушёл из игры",
    });
    expect(substitute.status).toBe(400);
    expect(substitute.body.error.code).toBe("name");
    // Nothing changed: the GM's nick and the aliases are as they were.
    const now = await gm.get<NotebookView>(`/api/notebooks/${v.id}`);
    expect(now.body.gm).toBe("Ведущий");
    expect(now.body.seats.map((s) => s.aliases)).toEqual([[], [], ["Вика_"], [], []]);
  });

  it("a document written before issue 30 reads with no GM nick and its found authors as no GM", async () => {
    const found = {
      kind: "bbcode",
      engine: null,
      posts: 2,
      authors: [
        { name: "Ведущий", posts: 1, seat: null },
        { name: "Аня", posts: 1, seat: 0 },
      ],
      authorCount: 2,
      first: null,
      last: null,
      ignored: [],
      ignoredCount: 0,
      replaced: 0,
    };
    const phase = { inputs: [], rolls: {}, rollsReason: "", council: null, councilReason: "", removed: [] };
    const old = {
      format: 1,
      players: PLAYERS,
      roles: ROLES,
      dealt: ROLES,
      options: {},
      seed: null,
      dialect: "lower",
      aliases: [[], [], [], [], []],
      closed: [],
      current: { ...phase, found },
      corrections: [],
    };
    const doc = readDoc(JSON.stringify(old));
    expect(doc.gm).toBeNull();
    expect(doc.current.found!.authors).toEqual([
      { name: "Ведущий", posts: 1, seat: null, gm: false },
      { name: "Аня", posts: 1, seat: 0, gm: false },
    ]);
    // Written again, it keeps today's form.
    expect(readDoc(writeDoc(doc))).toEqual(doc);
  });

  describe("the replay file is named after the notebook's title (RFC 6266)", () => {
    /** The finished game's file name as the header gives it: the ASCII fallback and the UTF-8 name. */
    const names = async (title: string): Promise<{ id: string; ascii: string; utf8: string }> => {
      const v = await dayOne(title);
      const r = await app().inject({
        method: "GET",
        url: `/api/notebooks/${v.id}/replay`,
        headers: { cookie: gm.cookie! },
      });
      expect(r.statusCode).toBe(200);
      const header = String(r.headers["content-disposition"]);
      const m = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(
        header,
      );
      expect(m, header).not.toBeNull();
      return { id: v.id, ascii: m![1]!, utf8: decodeURIComponent(m![2]!) };
    };

    it("a Russian title: the UTF-8 name is the title; the ASCII fallback names the notebook", async () => {
      const n = await names("Мафия на форуме «Зелёный дом»");
      expect(n.utf8).toBe("Мафия на форуме «Зелёный дом».json");
      expect(n.ascii).toBe(`notebook-${n.id}.json`);
    });

    it("characters a file name may not hold become `_`; `'` and `*` are percent-encoded", async () => {
      const n = await names("Mafia: day/night 'Ёлка' *2*");
      expect(n.utf8).toBe("Mafia_ day_night 'Ёлка' _2_.json");
      expect(n.ascii).toBe("Mafia_ day_night _ _2_.json");
    });
  });
});
