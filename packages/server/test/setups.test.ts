import type { GameDetail, GameSummary, MySetups, RoleId, SavedSetup } from "@forum-mafia/protocol";
import { ROLE_IDS, SETUP_PRESETS } from "@forum-mafia/protocol";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import { Client, type Reply } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { detail, expectOk, NICKS, S3_DEFAULTS } from "./play.ts";

/**
 * Issue 17, the server's part: a game's setup (S3) is the GM's (any role list S3 allows, the [reading]
 * options and the thresholds), published with the game from the start, followed by the signups, the deal
 * and every rule that reads a threshold; and a GM's saved setups. The expected values are written out
 * here from RULES.md and the presets' documented numbers, never read back from the code under test.
 */

type Err = { error: { code: string; message: string; clause?: string } };

/** The medium12 preset as its description reads: the boss, the troll and the lawyer, the maniac, the pair, the doctor, the girl, four citizens; reveals above 7. */
const MEDIUM12: RoleId[] = [
  ...(["boss", "troll", "lawyer", "maniac", "sheriff", "sergeant", "doctor", "girl"] as const),
  ...(["citizen", "citizen", "citizen", "citizen"] as const),
];
const MEDIUM12_OPTIONS = { ...S3_DEFAULTS, revealAbove: 7, threeIntimidationsFrom: 11, serumRepeatBelow: 10 };

/** Nine players, seat by seat as the threshold games deal them: 0 boss, 1 thug, 2 maniac, 3 sheriff, 4 doctor, 5 girl, 6–8 citizens. */
const NINE: RoleId[] = [
  ...(["boss", "thug", "maniac", "sheriff", "doctor", "girl"] as const),
  ...(["citizen", "citizen", "citizen"] as const),
];

const sorted = (roles: readonly string[]): string[] => [...roles].sort();

const newGame = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: "Настроенная партия",
  night: { amount: 12, unit: "hours" },
  day: { amount: 24, unit: "hours" },
  mode: "automatic",
  ...extra,
});

describe("issue 17: a game's setup", () => {
  let t: TestServer;
  let gm: Client;
  let players: Client[];
  let anon: Client;
  const app = () => t.server.app;

  beforeAll(async () => {
    t = await testServer();
    gm = new Client(app, "Ведущий");
    expectOk(await gm.register());
    players = [];
    for (const nick of NICKS.slice(0, 13)) {
      const c = new Client(app, nick);
      expectOk(await c.register());
      players.push(c);
    }
    anon = new Client(app);
  }, 60_000);
  afterAll(() => t.close());

  const create = async (extra: Record<string, unknown>): Promise<string> => {
    const r = await gm.post<{ id: string }>("/api/games", newGame(extra));
    expectOk(r);
    return r.body.id;
  };
  const signUp = async (id: string, n: number): Promise<void> => {
    for (const p of players.slice(0, n)) expectOk(await p.post(`/api/games/${id}/signup`));
  };

  it("the medium12 preset is the list its description gives (the data these tests start from)", () => {
    const preset = SETUP_PRESETS.find((p) => p.id === "medium12")!.setup;
    expect(sorted(preset.roles)).toEqual(sorted(MEDIUM12));
    expect(preset.options).toEqual(MEDIUM12_OPTIONS);
  });

  it("S3: a 12-player game: its setup is published to everyone from the start, 12 seats, the 13th signup in the reserve, and the deal gives out exactly those 12 roles", async () => {
    const id = await create({ roles: MEDIUM12, options: MEDIUM12_OPTIONS });
    // Published from the start, to a logged-out viewer too, in the detail and the lobby.
    const before = await detail(anon, id);
    expect(before.settings.roles).toEqual(MEDIUM12);
    expect(before.settings.options).toEqual(MEDIUM12_OPTIONS);
    expect(before.settings.seats).toBe(12);
    expect(before.summary.seats).toBe(12);
    const lobby = (await anon.get<{ games: GameSummary[] }>("/api/games")).body.games;
    expect(lobby.find((g) => g.id === id)?.seats).toBe(12);

    await signUp(id, 13);
    const signups = (await detail(anon, id)).signups;
    expect(signups.map((s) => s.reserve)).toEqual([...new Array<boolean>(12).fill(false), true]);
    expect((await detail(players[11]!, id)).me.kind).toBe("signedUp");
    expect((await detail(players[12]!, id)).me.kind).toBe("reserve");

    expectOk(await gm.post(`/api/games/${id}/start`, { deal: "random" }));
    const table = await detail(gm, id);
    expect(table.view!.seats.length).toBe(12);
    expect(sorted(table.view!.seats.map((s) => s.role!))).toEqual(sorted(MEDIUM12));
    expect(table.view!.seats.map((s) => s.name)).toEqual(NICKS.slice(0, 12));
    // The engine plays by the game's thresholds.
    expect(table.view!.options).toEqual(MEDIUM12_OPTIONS);
    // The 13th stays in the reserve; the 12 hold seats.
    expect((await detail(players[12]!, id)).me).toEqual({ kind: "reserve", seat: null });
    expect((await detail(players[5]!, id)).me.kind).toBe("player");

    // Still published, to a logged-out viewer and to a player, and the same to both (no role holder shown).
    const pub = await detail(anon, id);
    const mine = await detail(players[0]!, id);
    for (const d of [pub, mine]) {
      expect(d.settings.roles).toEqual(MEDIUM12);
      expect(d.settings.options).toEqual(MEDIUM12_OPTIONS);
      expect(d.summary.seats).toBe(12);
    }
    expect(pub.view!.seats.every((s) => s.role === undefined || s.role === null)).toBe(true);
  });

  it("S1, S3: a hand deal must be the game's own role list, in any order; another multiset is a 400 naming S3", async () => {
    const id = await create({ roles: MEDIUM12, options: MEDIUM12_OPTIONS });
    await signUp(id, 12);
    const refuse = async (hand: string[], clause: string): Promise<void> => {
      const r = await gm.post<Err>(`/api/games/${id}/start`, { deal: { hand } });
      expect(r.status, r.raw).toBe(400);
      expect(r.body.error.code).toBe("deal.hand");
      expect(r.body.error.clause).toBe(clause);
      expect(r.body.error.message).toMatch(/^deal\.hand: /);
    };
    // Twelve roles, but an elf for the troll; a fifth citizen for the girl; the classic 17's first twelve.
    await refuse(
      MEDIUM12.map((r) => (r === "troll" ? "elf" : r)),
      "S3",
    );
    await refuse(
      MEDIUM12.map((r) => (r === "girl" ? "citizen" : r)),
      "S3",
    );
    await refuse(
      ["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant", "doctor", "girl"].concat([
        "prosecutor",
        "shahid",
      ]),
      "S3",
    );
    // The same roles, but a second boss for a citizen: a multiset, not a set, is compared.
    await refuse(
      MEDIUM12.map((r, i) => (i === MEDIUM12.lastIndexOf("citizen") ? "boss" : r)),
      "S3",
    );
    // The wrong count is S1's (a role for every seat).
    await refuse(MEDIUM12.slice(1), "S1");
    await refuse([...MEDIUM12, "citizen"], "S1");
    expect((await detail(gm, id)).summary.status).toBe("signup");
    // The list itself, reversed: seat i gets hand[i].
    const hand = [...MEDIUM12].reverse();
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand } }));
    expect((await detail(gm, id)).view!.seats.map((s) => s.role)).toEqual(hand);
  });

  it("the classic 17 with S3's defaults when no role list or options are given: 17 seats", async () => {
    const id = await create({});
    const d = await detail(anon, id);
    expect(sorted(d.settings.roles)).toEqual(
      sorted([
        ...["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant", "doctor", "girl"],
        ...["prosecutor", "shahid", "citizen", "citizen", "citizen", "citizen", "citizen"],
      ]),
    );
    expect(d.settings.options).toEqual(S3_DEFAULTS);
    expect(d.summary.seats).toBe(17);
  });

  it("S3: a role list S3 does not allow, or of more than 40 seats, is a 400 naming `roles` and creates nothing", async () => {
    const games = t.server.games.rooms.size;
    const lobby = (await anon.get<{ games: GameSummary[] }>("/api/games")).body.games.length;
    const refuse = async (roles: unknown, s3 = true): Promise<void> => {
      const r = await gm.post<Err>("/api/games", newGame({ roles }));
      expect(r.status, r.raw).toBe(400);
      expect(r.body.error.message).toMatch(/^roles(\.\d+)?: /);
      if (s3) expect(r.body.error.message).toContain("(S3)");
    };
    await refuse(["boss", "boss", "sheriff", "citizen"]); // two bosses
    await refuse(["doctor", "girl", "girl", "citizen", "boss"]); // a town role twice
    await refuse(["boss", "troll", "maniac"]); // no town player
    await refuse(["sheriff", "doctor", "citizen", "citizen"]); // no mafia member, no maniac
    await refuse([]); // nobody
    // 41 seats (40 citizens and the boss): S3 sets no limit, this site does (MAX_SEATS, 40).
    const r = await gm.post<Err>(
      "/api/games",
      newGame({ roles: ["boss", ...new Array<string>(40).fill("citizen")] }),
    );
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^roles: at most 40 players.*\(S3\)$/);
    await refuse(["boss", "citizen", "mayor"], false); // no such role
    await refuse("boss", false);
    expect(t.server.games.rooms.size).toBe(games);
    expect((await anon.get<{ games: GameSummary[] }>("/api/games")).body.games.length).toBe(lobby);
    // 40 seats is allowed.
    expectOk(
      await gm.post("/api/games", newGame({ roles: ["maniac", ...new Array<string>(39).fill("citizen")] })),
    );
  });

  it("S3: a threshold out of range or of the wrong type is a 400 naming it, and creates nothing", async () => {
    const games = t.server.games.rooms.size;
    const cases: [string, unknown][] = [
      ["revealAbove", -1],
      ["revealAbove", 100],
      ["revealAbove", 6.5],
      ["revealAbove", "6"],
      ["threeIntimidationsFrom", null],
      ["serumRepeatBelow", true],
      ["lapseAt", 1e21],
      ["earlyFromDay", [3]],
      ["earlyClose", "most"],
      ["strikes", 2],
    ];
    for (const [name, value] of cases) {
      const r = await gm.post<Err>("/api/games", newGame({ options: { [name]: value } }));
      expect(r.status, `${name}: ${JSON.stringify(value)}`).toBe(400);
      expect(r.body.error.message).toMatch(new RegExp(`^options\\.${name}: `));
    }
    const typo = await gm.post<Err>("/api/games", newGame({ options: { revealabove: 6 } }));
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain('"revealabove"');
    expect(t.server.games.rooms.size).toBe(games);
    // The bounds themselves are allowed: 0 and 99; the others are the defaults.
    const id = await create({ options: { revealAbove: 0, lapseAt: 99 } });
    expect((await detail(anon, id)).settings.options).toEqual({
      ...S3_DEFAULTS,
      revealAbove: 0,
      lapseAt: 99,
    });
  });

  /**
   * Nine players, NINE dealt by hand (0 boss, 1 thug, 2 maniac, 3 sheriff, 4 doctor, 5 girl,
   * 6–8 citizens). Night 1 (9 alive at its start): the boss kills the citizens 6 and 7, everyone else
   * passes. Day 1 (7 alive at its start): everyone votes red for the citizen 8, who votes for the boss, and
   * the GM closes the day: 8 is hanged. R1 reveals a death's role iff alive at the phase's start >
   * revealAbove.
   */
  async function thresholdGame(revealAbove: number | null): Promise<{ night: GameDetail; day: GameDetail }> {
    const options = revealAbove === null ? {} : { options: { revealAbove } };
    const id = await create({ roles: NINE, ...options });
    await signUp(id, 9);
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: NINE } }));
    for (const [seat, p] of players.slice(0, 9).entries()) {
      const d = await detail(p, id);
      if (!d.form) continue;
      expectOk(
        await p.post(
          `/api/games/${id}/actions`,
          seat === 0 ? { act: "mafia", kill: [6, 7] } : { act: "pass" },
        ),
      );
    }
    expectOk(await gm.post(`/api/games/${id}/gm/close`));
    const night = await detail(anon, id);
    for (const [seat, p] of players.slice(0, 9).entries()) {
      if (seat === 6 || seat === 7) continue;
      expectOk(await p.post(`/api/games/${id}/votes`, { color: "red", target: seat === 8 ? 0 : 8 }));
    }
    expectOk(await gm.post(`/api/games/${id}/gm/close`));
    return { night, day: await detail(anon, id) };
  }

  const revealed = (d: GameDetail, type: "nightResults" | "dayResults") => {
    const r = d.view!.results.find((x) => x.type === type && x.phase.number === 1)!;
    return { died: [...r.died].sort(), revealed: r.revealed.map((m) => [m.seat, m.role]) };
  };

  it("R1 with S3's revealAbove: at 6, a death at 9 and one at 7 alive are revealed; at 7 only the one at 9; at the default 10 neither", async () => {
    const six = await thresholdGame(6);
    expect(revealed(six.night, "nightResults")).toEqual({
      died: [6, 7],
      revealed: [
        [6, "citizen"],
        [7, "citizen"],
      ],
    });
    expect(revealed(six.day, "dayResults")).toEqual({ died: [8], revealed: [[8, "citizen"]] });

    const seven = await thresholdGame(7);
    expect(revealed(seven.night, "nightResults").revealed.length).toBe(2);
    expect(revealed(seven.day, "dayResults")).toEqual({ died: [8], revealed: [] });

    const ten = await thresholdGame(null);
    expect(revealed(ten.night, "nightResults")).toEqual({ died: [6, 7], revealed: [] });
    expect(revealed(ten.day, "dayResults")).toEqual({ died: [8], revealed: [] });
  }, 60_000);

  it("M2b, T3a, T3c with S3's thresholds: the boss's form and the role cards say the game's numbers", async () => {
    const nine = {
      ...S3_DEFAULTS,
      revealAbove: 6,
      threeIntimidationsFrom: 9,
      serumRepeatBelow: 8,
      earlyFromDay: 2,
    };
    for (const [options, intimidate, fewer, more] of [
      [nine, 3, 8, 6],
      [S3_DEFAULTS, 2, 15, 10],
    ] as const) {
      const id = await create({ roles: NINE, options });
      await signUp(id, 9);
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: NINE } }));
      // M2b: 9 alive at night 1's start: three intimidations iff 9 ≥ threeIntimidationsFrom.
      expect((await detail(players[0]!, id)).form!.mafiaLimits).toEqual({ kill: 2, intimidate });
      const boss = (await players[0]!.get<GameDetail>(`/api/games/${id}?lang=en`)).body.roleCard!;
      expect(boss.lines.join(" ")).toContain(
        `at most two when fewer than ${options.threeIntimidationsFrom} are alive`,
      );
      const doctor = (await players[4]!.get<GameDetail>(`/api/games/${id}?lang=en`)).body.roleCard!;
      expect(doctor.role).toBe("doctor");
      expect(doctor.lines.join(" ")).toContain(`with fewer than ${fewer} alive, not two nights in a row`);
      expect(doctor.lines.join(" ")).toContain(`more than ${more} are`);
    }
  });
});

describe("issue 17: a game stored before setups", () => {
  it("S3: reads as the classic 17 with the defaults, keeping the two options it stored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fm-setups-"));
    const store = new SqliteStore(join(dir, "forum-mafia.sqlite"));
    await store.append("old", 0, [
      {
        at: 1,
        kind: "created",
        gmId: "gm",
        gmNick: "Старожил",
        title: "Старая партия",
        settings: {
          night: { amount: 12, unit: "hours" },
          day: { amount: 24, unit: "hours" },
          dayDeadline: null,
          timeZone: "Europe/Moscow",
          options: { earlyClose: "all", strikes: "separate" },
          mode: "review",
          seats: 17,
        },
      },
    ]);
    await store.close();
    const t = await testServer({ dir });
    try {
      const d = await detail(new Client(() => t.server.app), "old");
      expect(sorted(d.settings.roles)).toEqual(
        sorted([
          ...["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant", "doctor", "girl"],
          ...["prosecutor", "shahid", "citizen", "citizen", "citizen", "citizen", "citizen"],
        ]),
      );
      expect(d.settings.options).toEqual({ ...S3_DEFAULTS, earlyClose: "all", strikes: "separate" });
      expect(d.summary.seats).toBe(17);
    } finally {
      await t.close();
    }
  });
});

describe("issue 17: saved setups (GET, POST /api/me/setups, DELETE /api/me/setups/:id)", () => {
  let t: TestServer;
  let gm: Client;
  let other: Client;
  let anon: Client;
  const app = () => t.server.app;
  const small = SETUP_PRESETS.find((p) => p.id === "small9")!.setup;
  const list = async (c: Client): Promise<SavedSetup[]> => {
    const r = await c.get<{ setups: SavedSetup[] }>("/api/me/setups");
    expectOk(r);
    return r.body.setups;
  };
  const save = (c: Client, name: string, setup: unknown): Promise<Reply<SavedSetup & Err>> =>
    c.post<SavedSetup & Err>("/api/me/setups", { name, setup });
  const del = (c: Client, id: string): Promise<Reply<Err>> => c.req<Err>("DELETE", `/api/me/setups/${id}`);

  beforeAll(async () => {
    t = await testServer();
    gm = new Client(app, "Ведущий");
    expectOk(await gm.register());
    other = new Client(app, "Другой");
    expectOk(await other.register());
    anon = new Client(app);
  });
  afterAll(() => t.close());

  it("come with the role names the editor shows, in ?lang= (the words GameDetail.roleNames uses)", async () => {
    const ru = await gm.get<MySetups>("/api/me/setups?lang=ru");
    expectOk(ru);
    // TEXTS.ru.md and RULES.md §1: the roles' Russian names.
    expect(ru.body.roleNames.maniac).toBe("Маньяк");
    expect(ru.body.roleNames.citizen).toBe("Мирный житель");
    const en = await gm.get<MySetups>("/api/me/setups?lang=en");
    expect(en.body.roleNames.maniac).toBe("Maniac");
    expect(Object.keys(en.body.roleNames).sort()).toEqual([...ROLE_IDS].sort());
  });

  it("are listed in the API document (/api/openapi.json), the save with its body's schema", async () => {
    type Op = { summary: string; requestBody?: unknown; parameters?: { name: string }[] };
    const doc = (await anon.get<{ paths: Record<string, Record<string, Op>> }>("/api/openapi.json")).body;
    expect(doc.paths["/api/me/setups"]!.get!.summary).toMatch(/saved setups/);
    expect(JSON.stringify(doc.paths["/api/me/setups"]!.post!.requestBody)).toContain("revealAbove");
    const remove = doc.paths["/api/me/setups/{setupId}"]!.delete!;
    expect(remove.parameters!.map((p) => p.name)).toEqual(["setupId"]);
  });

  it("401 without a session, for each route", async () => {
    expect((await anon.get<Err>("/api/me/setups")).status).toBe(401);
    expect((await save(anon, "Моя", small)).status).toBe(401);
    expect((await del(anon, "abc")).status).toBe(401);
  });

  it("round trip: saved with a trimmed name and S3's defaults filled in, listed the last saved first, a name used again in any case replaces that setup", async () => {
    expect(await list(gm)).toEqual([]);
    const a = await save(gm, "  Моя малая  ", { roles: ["boss", "sheriff", "citizen"] });
    expect(a.status, a.raw).toBe(201);
    expect(a.body).toEqual({
      id: a.body.id,
      name: "Моя малая",
      setup: { roles: ["boss", "sheriff", "citizen"], options: S3_DEFAULTS },
    });
    const b = await save(gm, "Средняя", { roles: MEDIUM12, options: MEDIUM12_OPTIONS });
    expect(b.status).toBe(201);
    expect(await list(gm)).toEqual([b.body, a.body]);
    // «МОЯ МАЛАЯ» is the same name: it replaces the setup, keeps its id, and is now the last saved.
    const c = await save(gm, "МОЯ МАЛАЯ", small);
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ id: a.body.id, name: "МОЯ МАЛАЯ", setup: small });
    expect(await list(gm)).toEqual([c.body, b.body]);
    // Nobody else sees them.
    expect(await list(other)).toEqual([]);
  });

  it("refuses a bad name or setup with a 400 naming the field, and saves nothing", async () => {
    const before = await list(gm);
    const cases: [string, unknown, RegExp][] = [
      ["", small, /^name: /],
      ["   ", small, /^name: /],
      ["я".repeat(81), small, /^name: /],
      ["a\u0000b", small, /^name: /],
      ["Две", { roles: ["boss", "boss", "citizen"] }, /^setup\.roles: .*\(S3\)/],
      ["Без города", { roles: ["boss", "maniac"] }, /^setup\.roles: .*\(S3\)/],
      ["Порог", { roles: small.roles, options: { revealAbove: -1 } }, /^setup\.options\.revealAbove: /],
    ];
    for (const [name, setup, message] of cases) {
      const r = await save(gm, name, setup);
      expect(r.status, r.raw).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await gm.post<Err>("/api/me/setups", { name: "x", setup: small, extra: 1 })).status).toBe(400);
    expect(await list(gm)).toEqual(before);
  });

  it("DELETE: 204, then 404; another user's id is the same 404 as an id nobody has, and deletes nothing", async () => {
    const mine = await save(gm, "Удаляемая", small);
    const theirs = await save(other, "Чужая", small);
    const nobody = await del(gm, "no-such-setup");
    const foreign = await del(gm, theirs.body.id);
    expect(foreign.status).toBe(404);
    expect(nobody.status).toBe(404);
    expect(foreign.body.error.code).toBe(nobody.body.error.code);
    expect(foreign.body.error.message).toBe(nobody.body.error.message);
    expect((await list(other)).map((s) => s.id)).toEqual([theirs.body.id]);
    const gone = await del(gm, mine.body.id);
    expect(gone.status).toBe(204);
    expect(gone.raw).toBe("");
    expect((await list(gm)).some((s) => s.id === mine.body.id)).toBe(false);
    expect((await del(gm, mine.body.id)).status).toBe(404);
    expect((await del(other, theirs.body.id)).status).toBe(204);
  });

  it("at most 50 per user: a new name beyond them is a 409 setups/full; a name the user has still replaces", async () => {
    const u = new Client(app, "Коллекционер");
    expectOk(await u.register());
    for (let i = 1; i <= 50; i++) expect((await save(u, `Сетап ${i}`, small)).status).toBe(201);
    const full = await save(u, "Пятьдесят первый", small);
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe("setups/full");
    expect(full.body.error.message).toContain("50");
    const all = await list(u);
    expect(all.length).toBe(50);
    expect(all[0]!.name).toBe("Сетап 50");
    expect(all.at(-1)!.name).toBe("Сетап 1");
    const replaced = await save(u, "сетап 1", { roles: MEDIUM12 });
    expect(replaced.status).toBe(201);
    expect(replaced.body.id).toBe(all.at(-1)!.id);
    expect((await list(u)).length).toBe(50);
    // Another user is not limited by this one's.
    expect((await save(other, "Своя", small)).status).toBe(201);
    // One deleted, one more fits.
    expectOk(await del(u, all[0]!.id));
    expect((await save(u, "Пятьдесят первый", small)).status).toBe(201);
  }, 60_000);
});
