import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import { SETUP_PRESETS, type PostView } from "@forum-mafia/protocol";
import fc from "fast-check";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { routeDocs } from "../src/http/app.ts";
import type { RouteDoc } from "../src/http/openapi.ts";
import type { Server } from "../src/server.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { AccountStore, LibraryStore, OutboxStore, Store } from "../src/stores/store.ts";
import { Client } from "./client.ts";
import { FakeClock, serverOn, settle, testServer, type TestServer } from "./harness.ts";
import { expectOk, NICKS, playToEnd, setUpGame, type Table } from "./play.ts";
import { fullRuns } from "./runs.ts";
import { arbitraryOf, type Hints } from "./zod-arbitrary.ts";

/**
 * Issue 11: every route of the app, fuzzed from its zod schema on both stores. Each request is hostile
 * (any JSON, wrong types, U+0000, half surrogate pairs, RTL marks, huge numbers and strings, bodies that
 * are not objects or not JSON, odd path segments, query strings and headers, a valid body with one field
 * broken) or well-formed (generated from the route's zod schema by zod-arbitrary.ts, half the time with
 * plausible values for fields such as `nick` or `seat`; the game's rules may still refuse it), sent as
 * someone anonymous, a forged session, an outsider, a player or the GM, at games at night, by day, in
 * signup and over. After each one:
 *  (a) the answer is not a 5xx;
 *  (b) a 4xx is JSON `{ error: { code, message, clause? } }`;
 *  (c) a 4xx changed nothing: no store write, the same rooms in memory, the same GM views, thread, draft
 *      and lobby (a 2xx may change things: the next request is compared with the state after it);
 *  (d) the process is alive: /api/health answers and nothing called process.exit.
 *
 * The runs are seeded: the i-th route's property runs with seed FUZZ_SEED + i, and a failure prints that
 * seed, the counterexample, the request and the answer. FUZZ_SEED (and FUZZ_RUNS, the runs per route) run
 * the same inputs again: run the whole file, as the state each route meets depends on the routes before it.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_130);
/** The whole fuzz (`npm run test:all`): both stores, 60 runs a route; the fast loop: SQLite, 10 runs a route. */
const FULL = fullRuns();
// 60, not 100: a run (request + full compare) is ~15 ms × 41 routes × 2 stores, ~85 s; 100 would add ~55 s.
const RUNS = Number(process.env.FUZZ_RUNS ?? (FULL ? 60 : 10));
/**
 * A hang guard for one route's runs, not a speed target: on a loaded machine (load 9 on 2 cores, another full
 * run beside it) the 10 runs of POST /api/tools/votecount once took over vitest's 60 s; 4 s when run again.
 */
const ROUTE_TIMEOUT = 300_000;
const PASSWORD = "correct horse battery"; // Client.register's
/** Players who act in the fuzz: boss, troll, sheriff, doctor, citizen (the standard hand, seat i = role i). */
const PLAYER_SEATS = [0, 1, 6, 8, 12];
const HAND = [...DEFAULT_ROLES];
const ACTOR_NICKS = new Set([...NICKS, "Ведущий", "Зритель"]);
const FIXTURES = join(import.meta.dirname, "../../forum/test/fixtures");
/** A forum thread and its player list, as the vote counter reads them (the forum package's fixtures). */
const THREAD: unknown = JSON.parse(readFileSync(join(FIXTURES, "votecount-thread.json"), "utf8"));
const PLAYERS = readFileSync(join(FIXTURES, "votecount-players.txt"), "utf8");

/** The routes as the app itself lists them for its API document, each with its zod schemas. */
const ROUTES: readonly RouteDoc[] = await (async () => {
  const t = await testServer();
  try {
    return [...routeDocs.get(t.server.app)!];
  } finally {
    await t.close();
  }
})();

// ——— the world the requests meet ———

type GameRef = "night" | "day" | "signup" | "ended";
/** Which of the World's notebooks a game reference stands for in a notebook route (the GM's twice as often). */
const NOTEBOOK_OF: Record<GameRef, number> = { night: 0, day: 1, signup: 0, ended: 2 };

interface World {
  readonly server: Server;
  readonly store: Store;
  /** Every write the store was asked to make, by method name (a refused `createUser` is none). */
  readonly writes: string[];
  /** The GM and the 17 players; the GM's session here is the one the snapshots read with. */
  readonly table: Table;
  /** The GM as an actor: a session of its own, which the fuzz may close. */
  readonly gm: Client;
  readonly outsider: Client;
  games: Record<GameRef, string>;
  posts: string[];
  /** Saved setups' ids (issue 17): the GM's, then the outsider's (another user's, to the GM). */
  readonly setups: readonly string[];
  /**
   * Issue 18: notebooks, for the `:id` of `/api/notebooks/…`: the GM's, dealt at random and by hand, then
   * the outsider's (another user's, to the GM).
   */
  readonly notebooks: readonly string[];
  /** The ended game's REPLAY.md file, for the results tool. */
  readonly replay: unknown;
  /** The state after the last request. */
  last: Snapshot | null;
  readonly exits: () => number;
  readonly close: () => Promise<void>;
}

type Kind = "reads" | "writes";

/**
 * What each Store method does to what is stored, the log's and each facet's (issue 29): a method added to
 * Store or to a facet is a compile error here.
 */
const LOG_METHODS: Record<Exclude<keyof Store, "accounts" | "outbox" | "library">, Kind> = {
  shared: "reads",
  timeoutMs: "reads",
  gameIndex: "reads",
  saveGameMeta: "writes",
  entriesFrom: "reads",
  changedSince: "reads",
  append: "writes",
  entries: "reads",
  close: "reads",
};
const ACCOUNT_METHODS: Record<keyof AccountStore, Kind> = {
  createUser: "writes",
  userById: "reads",
  userByNickKey: "reads",
  updateUser: "writes",
  createSession: "writes",
  session: "reads",
  deleteSession: "writes",
  settings: "reads",
  saveSettings: "writes",
  settingsByConfirmToken: "reads",
  settingsByUnsubscribeToken: "reads",
  allSettings: "reads",
  readMarks: "reads",
  userReadMarks: "reads",
  markRead: "writes",
};
const OUTBOX_METHODS: Record<keyof OutboxStore, Kind> = {
  enqueueMail: "writes",
  dueMail: "reads",
  nextMailAt: "reads",
  mailSent: "writes",
  mailFailed: "writes",
  mailFor: "reads",
  enqueueConfirmation: "writes",
  confirmationAllowedAt: "reads",
};
const LIBRARY_METHODS: Record<keyof LibraryStore, Kind> = {
  listSetups: "reads",
  saveSetup: "writes",
  deleteSetup: "writes",
  createNotebook: "writes",
  notebook: "reads",
  listNotebooks: "reads",
  updateNotebook: "writes",
  deleteNotebook: "writes",
};

/**
 * `inner`, with each write it is asked to make noted in `writes` by method name (`kinds` says which are
 * writes), and `facets` served in place of its own members of those names.
 */
function watching<T extends object>(
  inner: T,
  kinds: Readonly<Record<string, Kind>>,
  writes: string[],
  facets: Readonly<Record<string, object>> = {},
): T {
  return new Proxy(inner, {
    get(target, prop) {
      if (typeof prop === "string" && Object.hasOwn(facets, prop)) return facets[prop];
      const member: unknown = Reflect.get(target, prop, target);
      if (typeof member !== "function") return member;
      const method = member as (...args: unknown[]) => Promise<unknown>;
      if (typeof prop !== "string" || kinds[prop] !== "writes") return method.bind(target);
      return async (...args: unknown[]) => {
        const out = await method.apply(target, args);
        if (out !== "taken" && out !== "full" && out !== false) writes.push(prop);
        return out;
      };
    },
  });
}

/**
 * The store, with each write it is asked to make noted in `writes`; a write that answers that it wrote
 * nothing is not noted (a `createUser` that finds the nick taken, a `saveSetup` over the cap, a
 * `deleteSetup` of an id the user does not have).
 */
function watched(inner: Store, writes: string[]): Store {
  return watching(inner, LOG_METHODS, writes, {
    accounts: watching(inner.accounts, ACCOUNT_METHODS, writes),
    outbox: watching(inner.outbox, OUTBOX_METHODS, writes),
    library: watching(inner.library, LIBRARY_METHODS, writes),
  });
}

async function world(open: () => Promise<Store>, cleanup: () => Promise<void>): Promise<World> {
  const writes: string[] = [];
  const clock = new FakeClock();
  let seeds = 0;
  // Fixed seeds (F1), so a run deals and rolls the same way again.
  const seed = (): string => (++seeds).toString(16).padStart(64, "0");
  const store = watched(await open(), writes);
  // No rate limits (rateLimit: 0): they have their own tests, and here they would only turn requests into 429s.
  // Issue 17: a valid setup's balance estimate plays 20 games here, not 2,000 (estimate.test.ts has the real size).
  const server = await serverOn(store, clock, {
    rateLimit: 0,
    seed,
    estimates: { games: 20, chunk: 10, threads: 1 },
  });
  const t: TestServer = {
    server,
    clock,
    dir: "",
    file: "",
    restart: () => Promise.reject(new Error("not restarted here")),
    close: () => server.close(),
  };
  // The first game is played to its end (replay, log); the clock stands still after that.
  const table = await setUpGame(t, "review");
  await playToEnd(t, table, 11, "review");
  const replay = await table.gm.get(`/api/games/${table.id}/replay`);
  expectOk(replay);
  const app = () => server.app;
  const gm = new Client(app, "Ведущий");
  expectOk(await gm.post("/api/login", { nick: gm.nick, password: PASSWORD }));
  const outsider = new Client(app, "Зритель");
  expectOk(await outsider.register());
  // Known to exist, never an actor: login and register may hit it (and its failed logins back off).
  expectOk(await new Client(app, "Жертва").register());
  // Issue 17: saved setups to fetch, replace and delete, the GM's and another user's.
  const setups: string[] = [];
  for (const [who, name, preset] of [
    [gm, "Малая", 1],
    [gm, "Средняя", 2],
    [outsider, "Чужая", 3],
  ] as const) {
    const saved = await who.post<{ id: string }>("/api/me/setups", {
      name,
      setup: SETUP_PRESETS[preset]!.setup,
    });
    expectOk(saved);
    setups.push(saved.body.id);
  }
  // Issue 18: notebooks to enter moves in, count, correct and export, the GM's and another user's.
  const notebooks: string[] = [];
  for (const [who, title, deal] of [
    [gm, "Блокнот", { kind: "random" }],
    [gm, "Руками", { kind: "hand", roles: DEFAULT_ROLES }],
    [outsider, "Чужой", { kind: "random" }],
  ] as const) {
    const made = await who.post<{ id: string }>("/api/notebooks", {
      title,
      players: NICKS,
      roles: DEFAULT_ROLES,
      deal,
    });
    expectOk(made);
    notebooks.push(made.body.id);
  }
  const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Error(`process.exit(${String(code)})`);
  });
  const w: World = {
    server,
    store,
    writes,
    table,
    gm,
    outsider,
    games: { night: table.id, day: table.id, signup: table.id, ended: table.id },
    posts: [],
    setups,
    notebooks,
    replay: replay.body,
    last: null,
    exits: () => exit.mock.calls.length,
    close: async () => {
      exit.mockRestore();
      await server.close();
      await cleanup();
    },
  };
  await freshGames(w);
  return w;
}

/** A running game of the standard hand (seat i gets role i), at night 1 in review mode, with a post or two. */
async function runningGame(w: World): Promise<string> {
  const { gm, players } = w.table;
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Партия для фаззинга",
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode: "review",
  });
  expectOk(created);
  const id = created.body.id;
  for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
  expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: HAND } }));
  expectOk(await gm.post(`/api/games/${id}/posts`, { text: "Ночь первая" }));
  expectOk(await players[12]!.post(`/api/games/${id}/posts`, { text: "Всем привет" }));
  // G5 (issue 31): a flagged post, so the GM's measures on flags have a flag to act on.
  expectOk(await players[11]!.post(`/api/games/${id}/posts`, { text: "Вот х*йня, всем привет" }));
  expectOk(await players[0]!.post(`/api/games/${id}/channels/mafia`, { text: "Бьём Машу" }));
  return id;
}

/** New games for a route that may change them: one at night, one by day, one in signup. */
async function freshGames(w: World): Promise<void> {
  const { gm, players } = w.table;
  const night = await runningGame(w);
  const day = await runningGame(w);
  expectOk(await gm.post(`/api/games/${day}/gm/close`));
  expectOk(await gm.post(`/api/games/${day}/gm/publish`));
  expectOk(await players[12]!.post(`/api/games/${day}/posts`, { text: "Доброе утро" }));
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Набор",
    night: { amount: 1, unit: "hours" },
    day: { amount: 1, unit: "hours" },
    dayDeadline: "21:00",
    mode: "automatic",
  });
  expectOk(created);
  const signup = created.body.id;
  for (const p of players.slice(0, 3)) expectOk(await p.post(`/api/games/${signup}/signup`));
  w.games = { night, day, signup, ended: w.table.id };
  w.posts = [];
  for (const id of [night, day, w.table.id]) {
    const r = await gm.get<{ posts: PostView[] }>(`/api/games/${id}/posts?limit=500`);
    w.posts.push(...r.body.posts.map((p) => p.id));
  }
  w.last = null;
}

// ——— the state a refusal must not change ———

type Snapshot = Record<string, string>;

async function snapshot(w: World): Promise<Snapshot> {
  const read = async (url: string): Promise<string> =>
    (await w.server.app.inject({ method: "GET", url, headers: { cookie: w.table.gm.cookie! } })).body;
  const { night, day, signup, ended } = w.games;
  return {
    rooms: JSON.stringify(
      [...w.server.games.rooms.values()].map((r) => [
        r.id,
        r.seq,
        r.feed.length,
        r.status,
        r.paused,
        r.deadline,
        r.resultsPending,
      ]),
    ),
    lobby: await read("/api/games"),
    night: await read(`/api/games/${night}`),
    nightPosts: await read(`/api/games/${night}/posts?limit=500`),
    draft: await read(`/api/games/${night}/gm/draft`),
    day: await read(`/api/games/${day}`),
    dayPosts: await read(`/api/games/${day}/posts?limit=500`),
    signup: await read(`/api/games/${signup}`),
    ended: await read(`/api/games/${ended}`),
    setups: await read("/api/me/setups"),
    notebooks: JSON.stringify(await Promise.all(w.notebooks.map((id) => read(`/api/notebooks/${id}`)))),
  };
}

/** The first part that differs, with a little of its text on either side; null when none does. */
function changed(before: Snapshot, after: Snapshot): string | null {
  for (const key of Object.keys(before)) {
    const [a, b] = [before[key]!, after[key]!];
    if (a === b) continue;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return `${key}: …${a.slice(Math.max(0, i - 60), i + 60)}… became …${b.slice(Math.max(0, i - 60), i + 60)}…`;
  }
  return null;
}

/** Let the work a request set off finish (writes, the demo bots' moves) before the state is read. */
async function quiet(w: World): Promise<void> {
  await w.server.games.idle();
  await w.server.demo.idle();
  await w.server.games.idle();
  await settle();
}

// ——— inputs ———

/**
 * Plausible values for fields of these names, for half of the well-formed requests: random text is seldom
 * a free nick, a time zone or a seat that exists, and the deeper rules are only reached past those.
 */
function hintsFor(w: World): Hints {
  const seat = fc.integer({ min: 0, max: 16 });
  return {
    // Not the actors' nicks: their failed logins would make them back off (and they log in again).
    nick: fc.oneof(
      fc.constantFrom("Жертва", "Бот Аркадий"),
      fc.stringMatching(/^[А-ЯЁ][а-яё]{2,10}$/).filter((n) => !ACTOR_NICKS.has(n)),
    ),
    password: fc.constant(PASSWORD),
    timeZone: fc.constantFrom(
      "Europe/Moscow",
      "Asia/Yekaterinburg",
      "UTC",
      "America/New_York",
      "Mars/Olympus",
    ),
    target: seat,
    seat,
    kill: fc.array(seat, { maxLength: 2 }),
    intimidate: fc.array(seat, { maxLength: 3 }),
    text: fc.constantFrom(
      "Голосую [color=red]Аня[/color]",
      "[color=blue]Борис[/color] и [color=red]Вика[/color]",
      "[quote]Аня: [color=red]Вика[/color][/quote] привет",
      "Голосую [color=red]Ведущий[/color]",
      "[b]Ночь[/b] [i]тёмная[/i] [url=javascript:alert(1)]x[/url]",
    ),
    reason: fc.constant("так надо"),
    question: fc.constant("Жив ли маньяк?"),
    minutes: fc.integer({ min: 1, max: 60 }),
    // Issue 17: the saved setups' names, the same ones in other cases (a save replaces them).
    name: fc.constantFrom("Малая", "МАЛАЯ", " средняя ", "Новая"),
    players: fc.constant(PLAYERS),
    thread: fc.constant(THREAD),
    replay: fc.constant(w.replay),
  };
}

/** A path segment or query part, percent-encoded; half a surrogate pair as the bytes WTF-8 would give it. */
function encode(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out +=
      c >= 0xd800 && c <= 0xdfff
        ? [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join("")
        : encodeURIComponent(ch);
  }
  return out;
}

const ODD_TEXTS = [
  "\u0000",
  "\ud800",
  "\udfff",
  "a\udc00b",
  "\u200f",
  "\u202eвзлом",
  "\ufeff",
  "",
  " ",
  "\t\n",
  "💩",
  "е\u0308",
  "null",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "toString",
  "..",
  "../..",
  "%00",
  "gm:1",
  "mafia",
  // Nicks that exist but never act here: failed logins make a nick back off, and the actors log in again.
  "Жертва",
  "Бот Аркадий",
  "[color=red]Аня[/color]",
  "[b]Аня[/b]",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "Europe/Moscow",
  "Mars/Olympus",
  "23:59",
  "24:00",
  PASSWORD,
];

const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom("\ud800", "\udc00", "\u0000", "a", "я", " ", "\u200f", "\u0301"),
      maxLength: 20,
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("a", "я", "😀", " ", "\u0000"),
        fc.constantFrom(8, 31, 32, 33, 64, 65, 120, 121, 256, 257, 500, 501, 5_000, 5_001, 10_000, 10_001),
      )
      .map(([c, n]) => c.repeat(n)),
  },
);

/** Bounds of the schemas and either side of them, 2^31, 2^53 ± and the extremes of a double. */
const ODD_NUMBERS = [
  0, -0, -1, 1, 0.5, 7, 16, 17, 63, 64, 240, 241, 10_080, 10_081, 2_147_483_648, 9_007_199_254_740_992,
  9_007_199_254_740_994, -9_007_199_254_740_992, 1e21, 1e308, 5e-324,
];
const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...ODD_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every field name a schema declares, at any depth (so mutations and odd keys hit real fields). */
function fieldsOf(schema: z.core.$ZodType | undefined): string[] {
  if (!schema) return [];
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "object":
      return Object.entries(def.shape).flatMap(([k, s]) => [k, ...fieldsOf(s)]);
    case "union":
      return def.options.flatMap(fieldsOf);
    case "optional":
    case "nullable":
    case "default":
      return fieldsOf(def.innerType);
    case "array":
      return fieldsOf(def.element);
    default:
      return [];
  }
}

function oddJsonFor(fields: readonly string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    fc.constantFrom(
      ...fields,
      "__proto__",
      "constructor",
      "prototype",
      "",
      "seat",
      "admin",
      "gmId",
      "userId",
    ),
    oddText,
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      oddText,
      oddNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(key, tie("value"), { maxKeys: 4 }),
    ),
  }));
  return fc.oneof({ weight: 3, arbitrary: value }, fc.jsonValue({ maxDepth: 3 }));
}

type Path = readonly (string | number)[];

function pathsOf(v: unknown, at: Path = []): Path[] {
  const out: Path[] = at.length ? [at] : [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...at, i])));
  else if (isRecord(v)) for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
  return out;
}

/** `v` with the value at `path` replaced by `to`, or left out when `to` is undefined. */
function setAt(v: unknown, path: Path, to: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return to;
  if (Array.isArray(v))
    return v.flatMap((x, i) =>
      i !== head ? [x] : rest.length || to !== undefined ? [setAt(x, rest, to)] : [],
    );
  if (!isRecord(v)) return to;
  return Object.fromEntries(
    Object.entries(v).flatMap(([k, x]) =>
      k !== head ? [[k, x]] : rest.length || to !== undefined ? [[k, setAt(x, rest, to)]] : [],
    ),
  );
}

/** A well-formed body with one field broken: replaced by an odd value, dropped, or one field added. */
function mutated(valid: fc.Arbitrary<unknown>, fields: readonly string[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.constantFrom("replace", "drop", "add"),
      fc.nat(),
      oddJsonFor(fields),
      fc.oneof(fc.constantFrom(...fields, "seat", "admin"), oddText),
    )
    .map(([v, how, i, odd, key]) => {
      if (how === "add") return isRecord(v) ? { ...v, [key]: odd } : odd;
      const paths = pathsOf(v);
      if (paths.length === 0) return odd;
      return setAt(v, paths[i % paths.length]!, how === "drop" ? undefined : odd);
    });
}

type Body =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "raw"; readonly payload: string; readonly type: string | null; readonly bytes?: true };

const json = (value: unknown): Body => ({ kind: "json", value });

const BROKEN_JSON = [
  "",
  "{",
  "[",
  "nul",
  '{"a":}',
  "{}}",
  "{} {}",
  "\ufeff{}",
  '"\\ud800"',
  '{"a":1,"a":2}',
  "NaN",
  "Infinity",
  "'{}'",
  "\u0000",
  "[".repeat(10_000) + "]".repeat(10_000),
  '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
  "1".repeat(400),
  "-" + "9".repeat(400) + ".5e-99999",
  "1e999999",
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
];

function bodyArbs(route: RouteDoc, hints: Hints): { valid: fc.Arbitrary<Body>; hostile: fc.Arbitrary<Body> } {
  const fields = fieldsOf(route.body);
  const shaped: fc.Arbitrary<unknown> = route.body ? arbitraryOf(route.body, hints) : fc.constant({});
  const valid: fc.Arbitrary<Body> =
    route.method === "GET"
      ? fc.constant({ kind: "none" })
      : route.body
        ? shaped.map(json)
        : fc.constantFrom<Body>({ kind: "none" }, json({}));
  const text = shaped.map((v) => JSON.stringify(v));
  // The tools take bodies up to 5 MiB, and their large bodies have their own tests: small ones here.
  const huge = route.url.startsWith("/api/tools/")
    ? []
    : [
        {
          weight: 1,
          arbitrary: fc.constantFrom("application/json", null).map((type): Body => ({
            kind: "raw",
            payload: JSON.stringify({ text: "я".repeat(40_000) }),
            type,
          })),
        },
      ];
  const hostile = fc.oneof(
    { weight: 4, arbitrary: oddJsonFor(fields).map(json) },
    { weight: 4, arbitrary: mutated(shaped, fields).map(json) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(...BROKEN_JSON),
          text.map((t) => t.replace(/^\{/, '{"__proto__":{"admin":true},')),
          text.map((t) => t.slice(0, -1)),
        )
        .map((payload): Body => ({ kind: "raw", payload, type: "application/json" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            null,
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=utf-16le",
            "application/JSON",
            "application/vnd.api+json",
            "application/json, text/plain",
            "",
          ),
          fc.oneof(text, fc.constant("a=1&b=2")),
        )
        .map(([type, payload]): Body => ({ kind: "raw", payload, type })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((b): Body => ({
        kind: "raw",
        payload: Buffer.from(b).toString("latin1"),
        type: "application/json",
        bytes: true,
      })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: "none" }) },
    ...huge,
  );
  return { valid, hostile };
}

type Segment =
  | { readonly ref: GameRef }
  | { readonly post: number }
  | { readonly setup: number }
  | { readonly raw: string };

const rawSegment: fc.Arbitrary<Segment> = fc
  .oneof(
    fc.constantFrom(
      ...". .. % %zz %00 %2e%2e %2F %2f..%2f %C0%AE %ED%A0%80 %F4%90%80%80".split(" "),
      ..."%E2%80%AE %EF%BB%BF %20".split(" "),
      ..."+ * ~ ; , @ : null undefined __proto__ constructor 0 -1".split(" "),
      "a".repeat(32),
      "a".repeat(33),
      "a".repeat(101),
      encode("я".repeat(33)),
    ),
    oddText.map(encode),
  )
  .map((raw) => ({ raw }));

const CHANNELS = ["mafia", "pair", "spectators", "gm:0", "gm:1", "gm:8", "gm:16", "gm:17", "gm:63", "gm:64"];

/** Each path parameter's values: well-formed ones and hostile ones. A parameter not here fails the suite. */
/** A post of the world (by its index), or a segment that names none. */
const POST_ID = {
  valid: fc.nat().map((post): Segment => ({ post })),
  hostile: fc.oneof(
    rawSegment,
    fc.string({ minLength: 1, maxLength: 32 }).map((s): Segment => ({ raw: encode(s) })),
  ),
};

const PARAMS: Record<string, { valid: fc.Arbitrary<Segment>; hostile: fc.Arbitrary<Segment> }> = {
  id: {
    valid: fc
      .constantFrom<GameRef>("night", "night", "night", "day", "day", "day", "signup", "ended")
      .map((ref) => ({ ref })),
    hostile: fc.oneof(
      rawSegment,
      fc.string({ minLength: 1, maxLength: 32 }).map((s) => ({ raw: encode(s) })),
    ),
  },
  channel: {
    valid: fc.constantFrom(...CHANNELS).map((raw) => ({ raw })),
    hostile: fc.oneof(
      fc
        .constantFrom(
          "gm:05",
          "gm:-1",
          "gm:1.5",
          "gm:1e1",
          "gm:0x1",
          "GM:1",
          "gm%3A1",
          "gm:",
          "gm: 1",
          "gm:+1",
        )
        .map((raw) => ({ raw })),
      rawSegment,
    ),
  },
  nick: {
    valid: fc
      .constantFrom("Аня", "аня", "Маша", "Ведущий", "Жертва", "Бот Аркадий", "Никто")
      .map((nick) => ({ raw: encode(nick) })),
    hostile: fc.oneof(
      rawSegment,
      fc.string({ minLength: 1, maxLength: 70 }).map((s) => ({ raw: encode(s) })),
    ),
  },
  setupId: {
    valid: fc.nat().map((setup) => ({ setup })),
    hostile: fc.oneof(
      rawSegment,
      fc.string({ minLength: 1, maxLength: 40 }).map((s) => ({ raw: encode(s) })),
    ),
  },
  postId: POST_ID,
  // G5 (issue 31): a flag's id is its post's (or message's) id.
  flagId: POST_ID,
};

const QUERY_KEYS = ["after", "limit", "lang", "x", "__proto__", "constructor", "after[]", "limit[0]"];

const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...["?", "?&&&", "?=", "?after", "?after=", "?after=%zz", "?%", "?a=%ED%A0%80", "?after=1&after=2"],
    ...["?limit=1e3", "?limit=0x10", "?after=-0", "?after=Infinity", `?after=${"9".repeat(400)}`],
    ...["?lang=xx", "?lang=en&lang=ru", "?lang[]=en", "?__proto__[admin]=1"],
  ),
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), oddText), oddText), {
      minLength: 1,
      maxLength: 4,
    })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")}`),
);

function validQuery(route: RouteDoc): fc.Arbitrary<string> {
  const shaped = route.query
    ? arbitraryOf(route.query).map((q) =>
        isRecord(q)
          ? `?${Object.entries(q)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => `${encode(k)}=${encode(String(v))}`)
              .join("&")}`
          : "",
      )
    : fc.constantFrom("?lang=en", "?lang=ru");
  return fc.oneof({ weight: 2, arbitrary: fc.constant("") }, shaped);
}

type Actor =
  | { readonly kind: "anonymous" | "gm" | "outsider" }
  | { readonly kind: "player"; readonly seat: number }
  | { readonly kind: "forged"; readonly token: string };

const COOKIE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.%=!~*'()";

const actors: fc.Arbitrary<Actor> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Actor>({ kind: "anonymous" }) },
  { weight: 4, arbitrary: fc.constant<Actor>({ kind: "gm" }) },
  { weight: 1, arbitrary: fc.constant<Actor>({ kind: "outsider" }) },
  { weight: 5, arbitrary: fc.constantFrom(...PLAYER_SEATS).map((seat): Actor => ({ kind: "player", seat })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom("", "null", "a".repeat(101)),
        fc.string({ unit: fc.constantFrom(...COOKIE_CHARS), maxLength: 60 }),
      )
      .map((token): Actor => ({ kind: "forged", token })),
  },
);

const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: "http://localhost" },
      { origin: "http://localhost:80" },
      { origin: "not a url" },
      { host: "evil.example" },
      { host: "localhost:99999" },
      { "last-event-id": "5" },
      { "last-event-id": "-1" },
      { "last-event-id": "9".repeat(400) },
      { "last-event-id": "1e3" },
      { cookie: "fm_session=a; fm_session=b" },
      { "x-forwarded-for": "1.2.3.4" },
      { "content-encoding": "gzip" },
    ),
  },
);

interface Plan {
  readonly kind: "valid" | "hostile";
  readonly actor: Actor;
  readonly params: Readonly<Record<string, Segment>>;
  readonly query: string;
  readonly body: Body;
  readonly headers: Readonly<Record<string, string>>;
}

/** What may be sent to a route; throws when a path parameter or a schema has no generator. */
function plans(route: RouteDoc, hints: Hints): fc.Arbitrary<Plan> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const param = (which: "valid" | "hostile") =>
    fc.record(
      Object.fromEntries(
        names.map((n) => {
          const p = PARAMS[n];
          if (!p) throw new Error(`${route.method} ${route.url}: no generator for the path parameter :${n}`);
          return [n, which === "valid" ? p.valid : fc.oneof({ weight: 2, arbitrary: p.valid }, p.hostile)];
        }),
      ),
    );
  const bodies = bodyArbs(route, hints);
  const query = validQuery(route);
  const valid = fc.record({
    kind: fc.constant("valid" as const),
    actor: actors,
    params: param("valid"),
    query,
    body: bodies.valid,
    headers: fc.constant({}),
  });
  const hostile = fc.record({
    kind: fc.constant("hostile" as const),
    actor: actors,
    params: param("hostile"),
    query: fc.oneof(query, hostileQuery),
    body: bodies.hostile,
    headers: hostileHeaders,
  });
  return fc.oneof(valid, hostile);
}

// ——— sending ———

interface Request {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Buffer;
  /** The actor whose session the request carries, if it carries one. */
  readonly session: Client | null;
}

function clientOf(w: World, actor: Actor): Client | null {
  switch (actor.kind) {
    case "gm":
      return w.gm;
    case "outsider":
      return w.outsider;
    case "player":
      return w.table.players[actor.seat]!;
    default:
      return null;
  }
}

function requestOf(w: World, route: RouteDoc, plan: Plan): Request {
  // Issue 18: a notebook route's id is one of the notebooks, picked by the game reference drawn.
  const notebook = route.url.startsWith("/api/notebooks/:id");
  const segment = (s: Segment): string =>
    "ref" in s
      ? notebook
        ? w.notebooks[NOTEBOOK_OF[s.ref]]!
        : w.games[s.ref]
      : "post" in s
        ? (w.posts[s.post % w.posts.length] ?? "none")
        : "setup" in s
          ? w.setups[s.setup % w.setups.length]!
          : s.raw;
  const url = route.url.replace(/:(\w+)/g, (_, name: string) => segment(plan.params[name]!)) + plan.query;
  const client = clientOf(w, plan.actor);
  const cookie =
    plan.actor.kind === "forged" ? `fm_session=${plan.actor.token}` : (client?.cookie ?? undefined);
  const b = plan.body;
  const type = b.kind === "json" ? "application/json" : b.kind === "raw" ? b.type : null;
  const headers: Record<string, string> = {
    ...(cookie ? { cookie } : {}),
    ...(type !== null ? { "content-type": type } : {}),
    ...plan.headers,
  };
  const payload =
    b.kind === "json"
      ? JSON.stringify(b.value)
      : b.kind === "raw"
        ? b.bytes
          ? Buffer.from(b.payload, "latin1")
          : b.payload
        : undefined;
  return {
    method: route.method,
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
    session: client && headers.cookie === client.cookie ? client : null,
  };
}

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
}

/** Send through Fastify's inject; a live stream is read up to its headers, then closed. */
async function send(w: World, r: Request): Promise<Answer> {
  const abort = new AbortController();
  let guard: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    guard = setTimeout(() => reject(new Error(`no answer in 20 s to ${r.method} ${r.url}`)), 20_000);
  });
  try {
    const res = await Promise.race([
      w.server.app.inject({
        method: r.method as InjectOptions["method"],
        url: r.url,
        headers: r.headers,
        ...(r.payload !== undefined ? { payload: r.payload } : {}),
        payloadAsStream: true,
        signal: abort.signal,
      }),
      hang,
    ]);
    const type = String(res.headers["content-type"] ?? "");
    const stream = res.stream();
    stream.on("error", () => {}); // the abort below, for a live stream
    if (type.startsWith("text/event-stream")) {
      abort.abort();
      return { status: res.statusCode, type, body: "" };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return { status: res.statusCode, type, body: Buffer.concat(chunks).toString("utf8") };
  } finally {
    clearTimeout(guard);
  }
}

const ErrorBody = z.strictObject({
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string().min(1),
    clause: z.string().min(1).optional(),
  }),
});

const cut = (s: string, n = 400): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function told(r: Request, a: Answer): string {
  const payload = r.payload === undefined ? "" : `\n  body: ${cut(JSON.stringify(r.payload.toString()))}`;
  const { cookie, ...headers } = r.headers;
  return (
    `${r.method} ${cut(r.url, 300)} as ${r.session?.nick || (cookie ? `cookie ${cut(cookie, 80)}` : "anonymous")}` +
    `\n  headers: ${JSON.stringify(headers)}${payload}` +
    `\n  answer: ${a.status} ${a.type} ${cut(a.body)}` +
    `\n  (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run --project ${FULL ? "full" : "quick"} packages/server/test/fuzz.test.ts)`
  );
}

/** One request, and the four properties. */
async function check(w: World, r: Request): Promise<void> {
  w.last ??= await snapshot(w);
  const before = w.last;
  const writes = w.writes.length;
  const a = await send(w, r);
  await quiet(w);
  const after = await snapshot(w);
  w.last = after;
  const made = w.writes.slice(writes);
  if (a.status >= 500) throw new Error(`(a) a ${a.status}: ${told(r, a)}`);
  if (a.status >= 400) {
    let shape: unknown = null;
    try {
      shape = JSON.parse(a.body);
    } catch {
      // not JSON: refused below
    }
    if (!a.type.startsWith("application/json") || !ErrorBody.safeParse(shape).success)
      throw new Error(`(b) a ${a.status} not shaped { error: { code, message, clause? } }: ${told(r, a)}`);
    if (made.length)
      throw new Error(`(c) a ${a.status} wrote to the store (${made.join(", ")}): ${told(r, a)}`);
    const diff = changed(before, after);
    if (diff) throw new Error(`(c) a ${a.status} changed ${diff}: ${told(r, a)}`);
  } else if (r.url.startsWith("/api/logout") && r.session) {
    // Logged out for real: the actor logs in again, so later requests still carry a session.
    expectOk(await r.session.post("/api/login", { nick: r.session.nick, password: PASSWORD }));
    await quiet(w);
    w.last = await snapshot(w);
  }
  const health = await w.server.app.inject({ method: "GET", url: "/api/health" });
  if (health.statusCode !== 200 || health.body !== '{"ok":true}')
    throw new Error(`(d) /api/health answered ${health.statusCode} ${health.body} after: ${told(r, a)}`);
  if (w.exits()) throw new Error(`(d) process.exit was called after: ${told(r, a)}`);
}

/** Memory and disk agree: every room has exactly the entries its log holds. */
async function agrees(w: World): Promise<void> {
  for (const room of w.server.games.rooms.values())
    expect([room.id, (await w.store.entriesFrom(room.id, 0)).length]).toEqual([room.id, room.seq]);
}

/**
 * Every method and path Fastify serves, read back from its route tree (HEAD aside: Fastify adds one to
 * each GET), so a route registered without `route()` (and so without a schema in the list) is noticed.
 */
function served(app: FastifyInstance): string[] {
  const out: string[] = [];
  const path: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^([│ ]*)[└├]── (.+) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    path.length = m[1]!.length / 4;
    path.push(m[2]!);
    for (const method of m[3]!.split(", ")) if (method !== "HEAD") out.push(`${method} ${path.join("")}`);
  }
  return out;
}

// ——— the suite, on each store ———

interface Backend {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const sqlite = async (): Promise<Backend> => {
  const dir = mkdtempSync(join(tmpdir(), "fm-fuzz-"));
  return {
    open: async () => new SqliteStore(join(dir, "forum-mafia.sqlite")),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};
/** PostgreSQL in the whole fuzz only (pg.ts is not even loaded in the fast loop, which runs no PostgreSQL test). */
const pg = FULL ? await import("./pg.ts") : null;
const postgres = async (): Promise<Backend> => {
  const s = await pg!.pgSchema();
  return { open: () => s.open(), cleanup: () => s.drop() };
};

const stores: [string, () => Promise<Backend>, boolean][] = [
  ["SQLite", sqlite, true],
  ...(pg ? [["PostgreSQL", postgres, pg.pgAvailable] as [string, () => Promise<Backend>, boolean]] : []),
];

for (const [name, make, available] of stores) {
  describe.skipIf(!available)(`every route fuzzed from its schema, on ${name}`, () => {
    let w: World;
    beforeAll(async () => {
      const b = await make();
      w = await world(b.open, b.cleanup);
    }, 120_000);
    afterAll(() => w?.close());

    it("has a generator for every route the app registers", () => {
      const here = routeDocs.get(w.server.app)!.map((d) => `${d.method} ${d.url}`);
      expect(here).toEqual(ROUTES.map((d) => `${d.method} ${d.url}`));
      expect(here.length).toBeGreaterThan(30);
      // Nothing is served beside the list, but the plugins' pages: the root's redirect and the API docs.
      const plugins = (r: string): boolean => r === "GET /" || / \/api\/docs(\/|$)/.test(r);
      expect(
        served(w.server.app)
          .filter((r) => !plugins(r))
          .sort(),
      ).toEqual([...here].sort());
      for (const route of ROUTES)
        expect(() => plans(route, hintsFor(w)), `${route.method} ${route.url}`).not.toThrow();
    });

    ROUTES.forEach((route, i) => {
      it(
        `${route.method} ${route.url}`,
        async () => {
          // A route that may change a game gets games of its own, in their known states.
          if (route.method !== "GET" && route.url.startsWith("/api/games/:id")) await freshGames(w);
          await fc.assert(
            fc.asyncProperty(plans(route, hintsFor(w)), (plan) => check(w, requestOf(w, route, plan))),
            { seed: SEED + i, numRuns: RUNS },
          );
          await agrees(w);
        },
        ROUTE_TIMEOUT,
      );
    });

    it("a path that is no route, or a route with a method it does not take", async () => {
      const known = ROUTES.map((r) => r.url.replace(/:(\w+)/g, (_, n: string) => (n === "id" ? ":id" : "x")));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"),
          fc.oneof(
            fc
              .tuple(
                fc.constantFrom("/", "/api/", "/api/games/", "/api/tools/", "/api/me/"),
                fc.array(rawSegment, { minLength: 1, maxLength: 3 }),
              )
              .map(
                ([prefix, segments]) => prefix + segments.map((s) => ("raw" in s ? s.raw : "x")).join("/"),
              ),
            fc.constantFrom(...known),
          ),
          async (method, path) => {
            const url = path.replace(":id", w.games.night);
            await check(w, { method, url, headers: { cookie: w.gm.cookie! }, session: w.gm });
          },
        ),
        { seed: SEED - 1, numRuns: RUNS },
      );
    });
  });
}
