import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PasteFound, VoteCountResult } from "@forum-mafia/protocol";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/http/app.ts";
import { Demo } from "../src/demo/demo.ts";
import { Games } from "../src/log/games.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { Store } from "../src/stores/store.ts";
import { Client } from "./client.ts";
import { G5_BBCODE, G5_FLAGS, G5_HTML } from "./g5-thread.ts";
import { FakeClock } from "./harness.ts";

/**
 * Issue 18: the vote counter takes a thread as the GM copied it from the forum page (`paste`: the
 * clipboard's HTML, or its plain text, which may be BBCode) beside today's JSON posts (`thread`), and says
 * what it found; POST /api/tools/thread reads a paste without counting it, and stores nothing.
 */
const ROOT = join(import.meta.dirname, "../../..");
const PAGES = join(ROOT, "packages/forum/test/fixtures/pages");
/**
 * Every fixture page of packages/forum (its test/fixture-pages.ts says what they are), each with its count
 * worked out by hand in <name>.expected.json.
 */
const ENGINES = readdirSync(PAGES)
  .filter((f) => f.endsWith(".expected.json"))
  .map((f) => f.slice(0, -".expected.json".length))
  .sort();

interface Expected {
  readonly reader: string;
  readonly players: string;
  readonly gm: string;
  readonly day: number;
  readonly posts: number;
  readonly authors: readonly string[];
  readonly first: string;
  readonly last: string;
  readonly count: string;
}
const expectedOf = (engine: string): Expected =>
  JSON.parse(readFileSync(join(PAGES, `${engine}.expected.json`), "utf8")) as Expected;
const pageOf = (engine: string): string => readFileSync(join(PAGES, `${engine}.html`), "utf8");

interface ErrorBody {
  error: { code: string; message: string; clause?: string };
}

const PLAYERS = "Вася\nПетя | Петруччо\nМаша\nКоля";
/**
 * Plain text, as copied from a text editor: no colours, so no vote can be read from it (V2: a vote is a
 * coloured name, or a name followed by КРАСНЫМ/СИНИМ in words, which this has none of).
 */
const PLAIN = "Вася\nЯ за Петю\n\nМаша\nА я за Колю";

/** Every store method called, by name, once `recording` is on. */
function recordingStore(store: Store): { store: Store; calls: string[]; record: (on: boolean) => void } {
  const calls: string[] = [];
  let recording = false;
  // Issue 29: the facets' methods (store.accounts.session, …) are recorded too.
  const facets: readonly PropertyKey[] = ["accounts", "outbox", "library"];
  const recorded = <T extends object>(inner: T): T =>
    new Proxy(inner, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (facets.includes(key) && typeof value === "object" && value !== null) return recorded(value);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (recording) calls.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return { store: recorded(store), calls, record: (on) => (recording = on) };
}

let app: FastifyInstance;
let anyone: Client;
let spy: ReturnType<typeof recordingStore>;

beforeAll(async () => {
  const sqlite = new SqliteStore(":memory:");
  spy = recordingStore(sqlite);
  const clock = new FakeClock();
  const games = new Games(spy.store, clock);
  app = await buildApp({
    store: spy.store,
    clock,
    games,
    demo: new Demo(games, spy.store, clock),
    rateLimit: 0,
  });
  app.addHook("onClose", async () => sqlite.close());
  anyone = new Client(() => app);
});
afterAll(async () => app.close());

describe("the vote counter refuses a body that is not one thread (issue 18)", () => {
  const post = (body: unknown) => anyone.post<ErrorBody>("/api/tools/votecount", body);

  it("refuses both a thread and a paste, naming paste", async () => {
    const r = await post({ players: PLAYERS, thread: [], paste: { text: PLAIN } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid");
    expect(r.body.error.message).toBe(
      "paste: give the thread either as JSON posts (thread) or as copied from the forum (paste), not both",
    );
  });

  it("refuses neither a thread nor a paste, naming thread", async () => {
    const r = await post({ players: PLAYERS });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(
      "thread: required: the thread as JSON posts (thread) or as copied from the forum page (paste)",
    );
  });

  it("refuses a paste with nothing in it, or with fields of the wrong type, naming the field", async () => {
    const empty = await post({ players: PLAYERS, paste: { html: " ", text: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(
      "paste: both html and text are empty: paste the thread as copied from the forum page",
    );
    const none = await post({ players: PLAYERS, paste: {} });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^paste: both html and text are empty/);
    const number = await post({ players: PLAYERS, paste: { html: 5 } });
    expect(number.status).toBe(400);
    expect(number.body.error.message).toMatch(/^paste\.html: /);
    const string = await post({ players: PLAYERS, paste: "<p>Вася</p>" });
    expect(string.status).toBe(400);
    expect(string.body.error.message).toMatch(/^paste: /);
    const unknown = await post({ players: PLAYERS, paste: { rtf: "{\\rtf1}" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('paste: unknown field "rtf"');
    const nul = await post({ players: PLAYERS, paste: { text: "Вася\u0000" } });
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toMatch(/^paste\.text: contains U\+0000/);
  });

  it("refuses an empty player list before reading the paste", async () => {
    const r = await post({ players: "\n ", paste: { text: PLAIN } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("the player list (players) is empty");
  });

  it("still counts today's JSON posts, with no found field", async () => {
    const r = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [{ author: "Вася", time: "", body: "[color=red]Маша[/color]" }],
    });
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([{ by: "Вася", red: "Маша", early: false, post: 0 }]);
    expect(r.body.found).toBeUndefined();
  });
});

describe("POST /api/tools/thread: what a paste holds, before counting (issue 18)", () => {
  it("refuses a missing paste and wrong types, naming the field", async () => {
    const missing = await anyone.post<ErrorBody>("/api/tools/thread", { players: PLAYERS });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^paste: /);
    const players = await anyone.post<ErrorBody>("/api/tools/thread", { players: 3, paste: { text: PLAIN } });
    expect(players.status).toBe(400);
    expect(players.body.error.message).toMatch(/^players: /);
    const thread = await anyone.post<ErrorBody>("/api/tools/thread", { thread: [], paste: { text: PLAIN } });
    expect(thread.status).toBe(400);
    expect(thread.body.error.message).toBe('unknown field "thread"');
  });

  it("reads plain text as text with no engine, and stores nothing", async () => {
    spy.record(true);
    const r = await anyone.post<PasteFound>("/api/tools/thread", {
      players: PLAYERS,
      paste: { text: PLAIN },
    });
    spy.record(false);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe("text");
    expect(r.body.engine).toBeNull();
    expect(spy.calls).toEqual([]);
  });
});

/**
 * A GM's multi-quote in phpBB's BBCode: each top-level quote is a post (author, post_id, time). Worked by
 * hand with PLAYERS, the GM Ведущий, day 2: Вася red Петя (post 0); Петруччо is Петя's alias, whose quoted
 * red Маша is no vote (V2) and blue Коля is (post 1); the GM's post and Гость's (no player) are ignored;
 * Маша votes red Коля in words (post 4). Коля has not voted.
 */
const MULTI_QUOTE = [
  '[quote="Вася" post_id=101 time=1764493200 user_id=5]Я за [color=red]Петю[/color][/quote]',
  '[quote="Петруччо" post_id=102 time=1764493300 user_id=6][quote="Вася"][color=red]Маша[/color][/quote] [color=blue]Колю[/color][/quote]',
  '[quote="Ведущий" post_id=103 time=1764493400 user_id=1]Голосуем: [color=red]Вася[/color][/quote]',
  '[quote="Гость" post_id=104 time=1764493500 user_id=9][color=red]Маша[/color][/quote]',
  '[quote="Маша" post_id=105 time=1764493600 user_id=7]Коля КРАСНЫМ[/quote]',
].join("\n");
const MULTI_QUOTE_AUTHORS = [
  { name: "Вася", posts: 1, player: "Вася" },
  { name: "Петруччо", posts: 1, player: "Петя" },
  { name: "Ведущий", posts: 1, player: null },
  { name: "Гость", posts: 1, player: null },
  { name: "Маша", posts: 1, player: "Маша" },
];

describe("a pasted multi-quote is read and counted (issue 18)", () => {
  it("V1, V2: counts the posts' BBCode as the JSON posts would be, and says what it found", async () => {
    const r = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: PLAYERS,
      gm: "Ведущий",
      day: 2,
      paste: { text: MULTI_QUOTE },
    });
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([
      { by: "Вася", red: "Петя", early: false, post: 0 },
      { by: "Маша", red: "Коля", early: false, post: 4 },
      { by: "Петя", blue: "Коля", early: false, post: 1 },
    ]);
    expect(r.body.notVoted).toEqual(["Коля"]);
    expect(r.body.ignored.map((x) => x.post)).toEqual([2, 3]);
    expect(r.body.ignored[0]!.reason).toBe("пост ведущего: его цветные ники — не голоса");
    expect(r.body.cast).toEqual([
      { by: "Вася", color: "red", target: "Петя", early: false, post: 0, label: "p101" },
      { by: "Петя", color: "blue", target: "Коля", early: false, post: 1, label: "p102" },
      { by: "Маша", color: "red", target: "Коля", early: false, post: 4, label: "p105" },
    ]);
    expect(r.body.found).toEqual({
      kind: "bbcode",
      engine: null,
      posts: 5,
      authors: MULTI_QUOTE_AUTHORS,
      first: "p101",
      last: "p105",
      labels: ["p101", "p102", "p103", "p104", "p105"],
      flags: [],
    });
    expect(r.body.count.split("\n")[0]).toBe("[b]Голосование, день 2[/b]");

    // The same posts as today's JSON give the same count.
    const json = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: PLAYERS,
      gm: "Ведущий",
      day: 2,
      thread: [
        { author: "Вася", time: "", body: "Я за [color=red]Петю[/color]" },
        {
          author: "Петруччо",
          time: "",
          body: '[quote="Вася"][color=red]Маша[/color][/quote] [color=blue]Колю[/color]',
        },
        { author: "Ведущий", time: "", body: "Голосуем: [color=red]Вася[/color]" },
        { author: "Гость", time: "", body: "[color=red]Маша[/color]" },
        { author: "Маша", time: "", body: "Коля КРАСНЫМ" },
      ],
    });
    expect(json.status).toBe(200);
    expect(json.body.count).toBe(r.body.count);
    expect(json.body.votes).toEqual(r.body.votes);
  });

  it("reads it without counting: authors marked against the list, or none without one; stores nothing", async () => {
    spy.record(true);
    const marked = await anyone.post<PasteFound>("/api/tools/thread", {
      players: PLAYERS,
      paste: { text: MULTI_QUOTE },
    });
    const bare = await anyone.post<PasteFound>("/api/tools/thread", { paste: { text: MULTI_QUOTE } });
    spy.record(false);
    expect(spy.calls).toEqual([]);
    expect(marked.status).toBe(200);
    expect(marked.body.authors).toEqual(MULTI_QUOTE_AUTHORS);
    expect(bare.status).toBe(200);
    expect(bare.body.authors.map((a) => a.player)).toEqual([null, null, null, null, null]);
    expect(bare.body.posts).toBe(5);
  });

  it("refuses a silenced name that is not a player, as for JSON posts", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      silenced: ["Гена"],
      paste: { text: MULTI_QUOTE },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('silenced player "Гена" is not in the player list');
  });
});

const pagesThere = existsSync(PAGES);
describe.skipIf(!pagesThere && !process.env.CI)("each engine's page, pasted as HTML (issue 18)", () => {
  it("reads a pasted page larger than the app's 64 KiB body limit, and refuses one over 5 MiB", async () => {
    const want = expectedOf("phpbb");
    const page = pageOf("phpbb");
    // The same posts ten times over (the page's header and footer once): ten times the posts.
    const first = page.indexOf('<div id="p4501"');
    const end = page.indexOf('<div class="action-bar bar-bottom">');
    expect(first).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(first);
    const html = page.slice(0, first) + page.slice(first, end).repeat(10) + page.slice(end);
    expect(html.length).toBeGreaterThan(64 * 1024);
    const r = await anyone.post<PasteFound>("/api/tools/thread", { players: want.players, paste: { html } });
    expect(r.status).toBe(200);
    expect(r.body.posts).toBe(10 * want.posts);
    const huge = await anyone.post<ErrorBody>("/api/tools/thread", {
      paste: { html: "<p>x</p>".repeat(700_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe(`body: larger than ${5 * 1024 * 1024} bytes`);
  });

  for (const engine of ENGINES) {
    it(`V1, V2: ${engine}: finds the posts and authors, and counts as worked out by hand`, async () => {
      const want = expectedOf(engine);
      const html = pageOf(engine);
      spy.record(true);
      const found = await anyone.post<PasteFound>("/api/tools/thread", {
        players: want.players,
        paste: { html },
      });
      spy.record(false);
      expect(spy.calls).toEqual([]);
      expect(found.status).toBe(200);
      expect(found.body.kind).toBe("html");
      expect(found.body.engine).toBe(want.reader);
      expect(found.body.posts).toBe(want.posts);
      expect(found.body.authors.map((a) => a.name)).toEqual(want.authors);
      expect(found.body.authors.reduce((n, a) => n + a.posts, 0)).toBe(want.posts);
      expect(found.body.first).toBe(want.first);
      expect(found.body.last).toBe(want.last);

      const counted = await anyone.post<VoteCountResult>("/api/tools/votecount", {
        players: want.players,
        gm: want.gm,
        day: want.day,
        paste: { html },
      });
      expect(counted.status).toBe(200);
      expect(counted.body.count).toBe(want.count);
      expect(counted.body.found).toEqual(found.body);
    });
  }
});

describe("G5 (issue 31): a pasted thread's posts that break G5", () => {
  it("G5: POST /api/tools/thread flags exactly the post with мат and the post with an insult, BBCode or HTML", async () => {
    const bbcode = await anyone.post<PasteFound>("/api/tools/thread", { paste: { text: G5_BBCODE } });
    expect(bbcode.status, bbcode.raw).toBe(200);
    expect(bbcode.body.kind).toBe("bbcode");
    expect(bbcode.body.posts).toBe(5);
    expect(bbcode.body.flags).toEqual(G5_FLAGS);
    const html = await anyone.post<PasteFound>("/api/tools/thread", { paste: { html: G5_HTML } });
    expect(html.status, html.raw).toBe(200);
    expect(html.body.engine).toBe("phpbb");
    expect(html.body.posts).toBe(5);
    expect(html.body.flags).toEqual(G5_FLAGS);
  });

  it("G5: POST /api/tools/votecount with a paste carries the same flags beside the count", async () => {
    const r = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: "Вася\nПетя\nМаша\nКоля",
      day: 1,
      paste: { html: G5_HTML },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.found?.flags).toEqual(G5_FLAGS);
    // The flags change no vote: Вася red Петя, Петя red Коля.
    expect(r.body.votes).toEqual([
      { by: "Вася", red: "Петя", early: false, post: 0 },
      { by: "Петя", red: "Коля", early: false, post: 1 },
    ]);
    // As a file (issue 30) it is read and checked the same way.
    const file = await anyone.post<PasteFound>("/api/tools/thread", {
      paste: { file: Buffer.from(G5_HTML).toString("base64") },
    });
    expect(file.status, file.raw).toBe(200);
    expect(file.body.flags).toEqual(G5_FLAGS);
  });

  it("G5: a thread with nothing that breaks G5 has no flags", async () => {
    const r = await anyone.post<PasteFound>("/api/tools/thread", { paste: { text: MULTI_QUOTE } });
    expect(r.status).toBe(200);
    expect(r.body.flags).toEqual([]);
  });
});
