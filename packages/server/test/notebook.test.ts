import { runReplay } from "@forum-mafia/engine";
import type { NotebookView, PublishedNotebook, RoleId } from "@forum-mafia/protocol";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";
import { replayCommand } from "./replay-command.ts";
import { rebuild } from "../src/notebooks/notebook.ts";
import { readDoc } from "../src/notebooks/notebook-doc.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";

/**
 * Issue 18, the server's part: the notebook of an off-site game, over HTTP. A whole 17-player game is
 * played from a hand deal to the town's win, every action and vote planned by hand from RULES.md (the
 * expected results below are worked out from the clauses, not read back from the code), with one
 * correction of each kind and the day's thread pasted as a BBCode multi-quote. Its exported file is then
 * replayed by the engine and by `npm run replay`.
 */

type Err = { error: { code: string; message: string; clause?: string } };

/** Seats 0–16: the standard table (RULES.md §1) dealt by hand in this order. */
const TABLE: [string, RoleId][] = [
  ["Аня", "boss"],
  ["Борис", "troll"],
  ["Вера", "elf"],
  ["Глеб", "lawyer"],
  ["Даша", "thug"],
  ["Егор", "maniac"],
  ["Жанна", "sheriff"],
  ["Зоя", "sergeant"],
  ["Игорь", "doctor"],
  ["Катя", "girl"],
  ["Лёша", "prosecutor"],
  ["Маша", "shahid"],
  ["Нина", "citizen"],
  ["Олег", "citizen"],
  ["Петя", "citizen"],
  ["Рита", "citizen"],
  ["Семён", "citizen"],
];
const NAMES = TABLE.map(([n]) => n);
/** Each nick's seat; Тамара takes Рита's seat on day 2 (P4). */
const S = { ...Object.fromEntries(NAMES.map((n, i) => [n, i])), Тамара: 15 } as Record<string, number>;
/** The role list as a GM writes it (sorted differently from the seats, as a multiset it is the same). */
const ROLE_LIST: RoleId[] = [...TABLE.map(([, r]) => r)].reverse();

/** A GM's multi-quote of the day's posts (phpBB's quote tags): each post's author, number and text. */
const thread = (posts: readonly [string, string][]): string =>
  posts
    .map(
      ([author, body], i) =>
        `[quote="${author}" post_id=${1000 + i} time=${1700000000 + i} user_id=${i + 1}]${body}[/quote]`,
    )
    .join("\n");
const red = (target: string): string => `Голосую [color=red]${target}[/color]`;

const createBody = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: "Мафия на форуме «Зелёный дом»",
  players: NAMES,
  roles: ROLE_LIST,
  deal: { kind: "hand", roles: TABLE.map(([, r]) => r) },
  ...extra,
});

describe("issue 18: the off-site game's notebook", () => {
  let t: TestServer;
  let gm: Client;
  let other: Client;
  let anon: Client;
  const app = () => t.server.app;

  beforeAll(async () => {
    t = await testServer();
    gm = new Client(app, "Ведущая");
    expectOk(await gm.register());
    other = new Client(app, "Чужой");
    expectOk(await other.register());
    anon = new Client(app);
  }, 60_000);
  afterAll(() => t.close());

  const create = async (extra: Record<string, unknown> = {}): Promise<NotebookView> => {
    const r = await gm.post<NotebookView>("/api/notebooks", createBody(extra));
    expect(r.status, r.raw).toBe(201);
    return r.body;
  };

  describe("a whole 17-player game, from the deal to the winner", () => {
    let id = "";
    let file: unknown = null;
    /** Each POST of the game, answered 200 with the view. */
    const ok = async (path: string, body: unknown = {}): Promise<NotebookView> => {
      const r = await gm.post<NotebookView>(`/api/notebooks/${id}/${path}`, body);
      expect(r.status, `${path}: ${r.raw}`).toBe(200);
      return r.body;
    };
    const actn = (seat: string, action: Record<string, unknown>, reason?: string) =>
      ok("actions", { seat: S[seat], action, ...(reason ? { reason } : {}) });
    const pass = async (...seats: string[]): Promise<void> => {
      for (const s of seats) await actn(s, { act: "pass" });
    };
    const target = (name: string) => S[name]!;

    it("S1, S3: a hand deal: the seats hold the roles given, no seed, night 1 in play", async () => {
      const v = await create();
      id = v.id;
      expect(v.seats.map((s) => [s.name, s.role])).toEqual(TABLE);
      expect(v.seed).toBeNull();
      expect(v.seedHash).toBeNull();
      expect(v.phase).toEqual({ kind: "night", number: 1 });
      expect(v.winner).toBeNull();
      expect(v.history).toEqual([]);
      expect(v.night).not.toBeNull();
      // O1: the citizens have no form; the mafia's members all may send the mafia's action (M4).
      const formSeats = v.night!.forms.map((f) => f.seat);
      for (const c of ["Нина", "Олег", "Петя", "Рита", "Семён"]) expect(formSeats).not.toContain(S[c]);
      for (const m of ["Аня", "Борис", "Вера"]) expect(formSeats).toContain(S[m]);
      // P2: the boss owes the mafia's move until someone sends it.
      expect(v.night!.forms.find((f) => f.seat === S["Аня"])!.owes).toBe(true);
    });

    it("night 1: the actions received by PM; F2: a second action in the pair's slot needs a reason", async () => {
      await actn("Аня", { act: "mafia", kill: [target("Нина")] });
      await actn("Егор", { act: "quickKill", target: target("Олег") });
      await actn("Жанна", { act: "shoot", target: target("Вера") });
      // The GM misread the PM: the sheriff shot Борис. The same slot again without a reason is refused.
      const bare = await gm.post<Err>(`/api/notebooks/${id}/actions`, {
        seat: S["Жанна"],
        action: { act: "shoot", target: target("Борис") },
      });
      expect(bare.status).toBe(400);
      expect(bare.body.error.code).toBe("reason");
      expect(bare.body.error.clause).toBe("F2");
      await actn("Жанна", { act: "shoot", target: target("Борис") }, "перепутал ник в личке");
      await actn("Игорь", { act: "heal", target: target("Семён") });
      await actn("Катя", { act: "visit", target: target("Рита") });
      await pass("Глеб", "Даша", "Лёша", "Маша");
      // No seed (a hand deal): the girl's silence roll must be fixed by the GM (O8, F2) before the night closes.
      const unfixed = await gm.post<Err>(`/api/notebooks/${id}/close`, {});
      expect(unfixed.status).toBe(409);
      expect(unfixed.body.error.code).toBe("night/roll-needed");
      expect((await gm.get<NotebookView>(`/api/notebooks/${id}`)).body.night!.draft.blockedCode).toBe(
        "night/roll-needed",
      );
      const v = await ok("rolls", { rolls: { girlSilence: false }, reason: "бросили кубик на стриме" });
      expect(v.night!.forms.every((f) => !f.owes)).toBe(true);
      expect(v.inputs.map((i) => i.seat)).toEqual(
        ["Аня", "Егор", "Жанна", "Жанна", "Игорь", "Катя", "Глеб", "Даша", "Лёша", "Маша"].map((n) => S[n]),
      );
      expect(v.inputs[3]!.text).toBe("Жанна: выстрел — Борис");
      // The draft: R1 (17 alive) reveals the three deaths' roles.
      expect(v.night!.draft.blocked).toBeNull();
      expect(v.night!.posts!.public).toContain("Борис");
      expect(v.night!.posts!.public.startsWith("[b]")).toBe(true);
    });

    it("night 1 closes: three deaths, day 1 in play", async () => {
      const v = await ok("close");
      expect(v.phase).toEqual({ kind: "day", number: 1 });
      expect(v.history).toHaveLength(1);
      const dead = v.seats.filter((s) => !s.alive).map((s) => s.name);
      expect(dead.sort()).toEqual(["Борис", "Нина", "Олег"]);
      expect(v.day!.found).toBeNull();
      expect(v.inputs).toEqual([]);
    });

    it("day 1: the pasted thread's votes; V2: a vote without colour is missed and entered by hand (F2)", async () => {
      const town = ["Жанна", "Зоя", "Игорь", "Катя", "Лёша", "Маша", "Петя", "Рита"];
      const paste = thread([
        ...town.map((n): [string, string] => [n, red("Аня")]),
        ["Семён", "Аня, голосую против тебя"],
        ...["Аня", "Вера", "Глеб", "Даша", "Егор"].map((n): [string, string] => [n, red("Петя")]),
      ]);
      let v = await ok("thread", { text: paste });
      expect(v.day!.found!.kind).toBe("bbcode");
      expect(v.day!.found!.posts).toBe(14);
      expect(v.day!.found!.authors.find((a) => a.name === "Семён")!.seat).toBe(S["Семён"]);
      expect(v.inputs).toHaveLength(13);
      expect(v.inputs.every((i) => i.kind === "vote" && i.source.kind === "thread")).toBe(true);
      // Pasting again replaces the earlier paste's votes (nothing doubled).
      v = await ok("thread", { text: paste });
      expect(v.inputs).toHaveLength(13);
      const noReason = await gm.post<Err>(`/api/notebooks/${id}/votes`, {
        seat: S["Семён"],
        vote: { color: "red", target: S["Аня"] },
      });
      expect(noReason.status).toBe(400);
      expect(noReason.body.error.message).toContain("reason");
      v = await ok("votes", {
        seat: S["Семён"],
        vote: { color: "red", target: S["Аня"] },
        reason: "голос без цвета, но игрок подтвердил в ЛС",
      });
      expect(v.inputs).toHaveLength(14);
      expect(v.inputs[13]).toMatchObject({ kind: "vote", source: { kind: "gm" } });
      // V4, V5: Аня 8 red + the prosecutor's 2 = 10; Петя 5.
      const score = (n: string) => v.day!.tally.scores.find((s) => s.seat === S[n])!.score;
      expect(score("Аня")).toBe(10);
      expect(score("Петя")).toBe(5);
      expect(v.day!.tally.hanged).toBe(S["Аня"]);
      // V4: the public count shows every vote as 1.
      expect(v.day!.count).toContain("Аня (9)");
      // A later paste keeps the hand vote.
      v = await ok("thread", { text: paste });
      expect(v.inputs).toHaveLength(14);
      v = await ok("close");
      expect(v.phase).toEqual({ kind: "night", number: 2 });
      expect(v.history[1]!.count).toContain("Аня (9)");
    });

    it("T4: the girl may not visit Рита two nights in a row: refused with the clause, nothing changes", async () => {
      const before = await gm.get<NotebookView>(`/api/notebooks/${id}`);
      const girl = before.body.night!.forms.find((f) => f.seat === S["Катя"])!;
      const visit = girl.form.acts.find((a) => a.act === "visit")!;
      expect(visit.unavailable!.find((u) => u.seat === S["Рита"])!.clause).toBe("T4");
      const r = await gm.post<Err>(`/api/notebooks/${id}/actions`, {
        seat: S["Катя"],
        action: { act: "visit", target: S["Рита"] },
      });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe("night/repeat-target");
      expect(r.body.error.clause).toBe("T4");
      const after = await gm.get<NotebookView>(`/api/notebooks/${id}`);
      expect(after.body).toEqual(before.body);
    });

    it("night 2: M1 the elf leads, M2c the council, a removed action (F2), a check (T2)", async () => {
      await actn("Вера", { act: "council", question: "Есть ли среди живых маньяк?" });
      await actn("Егор", { act: "quickKill", target: target("Петя") });
      await actn("Зоя", { act: "check", target: target("Глеб") });
      await actn("Игорь", { act: "heal", target: target("Петя") });
      let v = await actn("Маша", { act: "mark", target: target("Рита") });
      const markAt = v.inputs.findIndex((i) => i.seat === S["Маша"]);
      v = await ok("inputs/remove", { index: markAt, reason: "метка была на прошлую ночь, ошибся" });
      expect(v.inputs.some((i) => i.seat === S["Маша"])).toBe(false);
      await pass("Глеб", "Даша", "Катя", "Лёша", "Маша");
      // M2c: the council's question is unanswered: the night cannot close.
      const early = await gm.post<Err>(`/api/notebooks/${id}/close`, {});
      expect(early.status).toBe(409);
      expect(early.body.error.clause).toBe("M2c");
      v = (await gm.get<NotebookView>(`/api/notebooks/${id}`)).body;
      expect(v.night!.draft.councilQuestion).toBe("Есть ли среди живых маньяк?");
      expect(v.night!.draft.councilSuggested).toBe("yes");
      // F2: an answer other than the rules' needs a reason.
      const wrong = await gm.post<Err>(`/api/notebooks/${id}/council`, { answer: "no" });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.code).toBe("reason");
      v = await ok("council", { answer: "yes" });
      expect(v.night!.posts!.private.map((p) => p.to)).toEqual(
        expect.arrayContaining([["Сержант Зоя", "Шериф Жанна"]]),
      );
      v = await ok("close");
      expect(v.phase).toEqual({ kind: "day", number: 2 });
      expect(v.seats.filter((s) => s.alive)).toHaveLength(13);
    });

    it("day 2: P4 a substitute takes Рита's seat, F2 a modkill, the count from the paste", async () => {
      let v = await ok("replace", { seat: S["Рита"], name: "Тамара", reason: "Рита пропала на сутки" });
      expect(v.seats[S["Рита"]!]!.name).toBe("Тамара");
      expect(v.seats[S["Рита"]!]!.aliases).toEqual(["Рита"]);
      v = await ok("aliases", { seat: S["Жанна"], aliases: ["Жанночка"] });
      const town = ["Зоя", "Игорь", "Катя", "Лёша", "Маша", "Петя", "Тамара", "Семён"];
      v = await ok("thread", {
        text: thread([
          ["Жанночка", red("Глеб")],
          ...town.map((n): [string, string] => [n, red("Глеб")]),
          ...["Вера", "Глеб", "Даша", "Егор"].map((n): [string, string] => [n, red("Петя")]),
        ]),
      });
      expect(v.inputs.filter((i) => i.kind === "vote")).toHaveLength(13);
      expect(v.day!.found!.authors.find((a) => a.name === "Жанночка")!.seat).toBe(S["Жанна"]);
      v = await ok("modkill", { seat: S["Даша"], reason: "оскорбления в теме (G5)" });
      expect(v.day!.tally.hanged).toBe(S["Глеб"]);
      v = await ok("close");
      expect(v.phase).toEqual({ kind: "night", number: 3 });
      expect(v.seats.filter((s) => s.alive).map((s) => s.name)).not.toContain("Даша");
    });

    it("night 3 and day 3: W1 the town wins; every input route then answers 409 notebook/ended", async () => {
      await actn("Вера", { act: "mafia", kill: [target("Семён")] });
      await actn("Егор", { act: "quickKill", target: target("Тамара") });
      await actn("Жанна", { act: "shoot", target: target("Вера") });
      await actn("Игорь", { act: "heal", target: target("Игорь") });
      await pass("Катя", "Лёша", "Маша");
      let v = await ok("close");
      expect(v.phase).toEqual({ kind: "day", number: 3 });
      const town = ["Жанна", "Зоя", "Игорь", "Катя", "Лёша", "Маша", "Петя"];
      v = await ok("thread", {
        text: thread([...town.map((n): [string, string] => [n, red("Егор")]), ["Егор", red("Петя")]]),
      });
      v = await ok("close");
      expect(v.winner).toBe("town");
      expect(v.night).toBeNull();
      expect(v.day).toBeNull();
      expect(v.history).toHaveLength(6);
      for (const [path, body] of [
        ["actions", { seat: 6, action: { act: "pass" } }],
        ["votes", { seat: 6, vote: { color: "red", target: 7 }, reason: "x" }],
        ["thread", { text: '[quote="Жанна"]x[/quote]' }],
        ["modkill", { seat: 6, reason: "x" }],
        ["replace", { seat: 6, name: "Новый", reason: "x" }],
        ["rolls", { rolls: { girlSilence: true }, reason: "x" }],
        ["council", { answer: "yes" }],
        ["inputs/remove", { index: 0, reason: "x" }],
        ["close", {}],
      ] as const) {
        const r = await gm.post<Err>(`/api/notebooks/${id}/${path}`, body);
        expect(r.status, path).toBe(409);
        expect(r.body.error.code, path).toBe("notebook/ended");
      }
    });

    it("F2: every correction is logged with its reason, one of each kind", async () => {
      const v = (await gm.get<NotebookView>(`/api/notebooks/${id}`)).body;
      expect(v.corrections.map((c) => [c.phase.kind, c.phase.number, c.kind, c.reason])).toEqual([
        ["night", 1, "action", "перепутал ник в личке"],
        ["night", 1, "rolls", "бросили кубик на стриме"],
        ["day", 1, "vote", "голос без цвета, но игрок подтвердил в ЛС"],
        ["night", 2, "removeAction", "метка была на прошлую ночь, ошибся"],
        ["night", 2, "council", ""],
        ["day", 2, "replace", "Рита пропала на сутки"],
        ["day", 2, "modkill", "оскорбления в теме (G5)"],
      ]);
    });

    it("G1, F1: the exported file replays by the engine to the results planned from the rules", async () => {
      const r = await app().inject({
        method: "GET",
        url: `/api/notebooks/${id}/replay`,
        headers: { cookie: gm.cookie! },
      });
      expect(r.statusCode).toBe(200);
      // Issue 30: named after the title (notebook-gm.test.ts); a Russian title's ASCII fallback names the notebook.
      expect(r.headers["content-disposition"]).toBe(
        `attachment; filename="notebook-${id}.json"; filename*=UTF-8''${encodeURIComponent("Мафия на форуме «Зелёный дом».json")}`,
      );
      file = r.json();
      const result = runReplay(file);
      expect(result.winner).toBe("town");
      const none = { revealed: {}, exposed: {}, maniacVictims: [], silenced: [], modkilled: [] };
      expect(result.phases).toEqual([
        {
          phase: "night",
          number: 1,
          died: ["Борис", "Нина", "Олег"],
          ...none,
          revealed: { Борис: "troll", Нина: "citizen", Олег: "citizen" },
          checks: [],
          council: null,
          winner: null,
        },
        {
          phase: "day",
          number: 1,
          score: { Аня: 10, Петя: 5 },
          hanged: "Аня",
          excused: null,
          closedEarly: false,
          penalized: [],
          uncounted: [],
          modkilled: [],
          died: ["Аня"],
          revealed: { Аня: "boss" },
          winner: null,
        },
        {
          phase: "night",
          number: 2,
          died: [],
          ...none,
          checks: [{ target: "Глеб", result: "mafia" }],
          council: "yes",
          winner: null,
        },
        {
          phase: "day",
          number: 2,
          score: { Глеб: 10, Петя: 4 },
          hanged: "Глеб",
          excused: null,
          closedEarly: false,
          penalized: [],
          uncounted: [],
          modkilled: ["Даша"],
          died: ["Глеб", "Даша"],
          revealed: { Глеб: "lawyer", Даша: "thug" },
          winner: null,
        },
        {
          phase: "night",
          number: 3,
          died: ["Вера", "Семён", "Тамара"],
          ...none,
          revealed: { Вера: "elf", Семён: "citizen", Тамара: "citizen" },
          checks: [],
          council: null,
          winner: null,
        },
        {
          phase: "day",
          number: 3,
          score: { Егор: 8, Петя: 1 },
          hanged: "Егор",
          excused: null,
          closedEarly: false,
          penalized: [],
          uncounted: [],
          modkilled: [],
          died: ["Егор"],
          revealed: {},
          winner: "town",
        },
      ]);
    });

    it("the notebook showed the same results: each phase's post names the same deaths", async () => {
      const v = (await gm.get<NotebookView>(`/api/notebooks/${id}`)).body;
      const result = runReplay(file);
      result.phases.forEach((p, i) => {
        const post = v.history[i]!.public;
        for (const name of p.died) expect(post, `${p.phase} ${p.number}`).toContain(name);
        if (p.phase === "day" && p.hanged) expect(post).toContain(p.hanged);
      });
      // A2: night 2's check went to the pair, by role and nick.
      expect(v.history[2]!.private).toEqual([
        expect.objectContaining({ to: ["Сержант Зоя", "Шериф Жанна"] }),
        expect.objectContaining({ to: expect.arrayContaining(["Злой эльф Вера"]) }),
      ]);
    });

    it("REPLAY.md: `npm run --silent replay` on the exported file prints the same outcome", () => {
      const dir = mkdtempSync(join(tmpdir(), "fm-notebook-"));
      const path = join(dir, "game.json");
      writeFileSync(path, JSON.stringify(file));
      const run = replayCommand(path);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(runReplay(file));
    }, 60_000);

    it("rebuild: the whole game's document replays to the same end, again and again (a hang guard)", async () => {
      const store = new SqliteStore(t.file);
      const rec = await store.library.notebook(id);
      await store.close();
      const doc = readDoc(rec!.doc);
      expect(doc.closed).toHaveLength(6);
      // 200 rebuilds and 20 reads: a rebuild that grew with the game's length would overrun the timeout.
      // No time is measured here (no wall-clock bound in a test; a speed figure belongs in a bench).
      for (let i = 0; i < 200; i++) expect(rebuild(doc).match.state.winner).toBe("town");
      const first = await gm.get<NotebookView>(`/api/notebooks/${id}`);
      expect(first.body.winner).toBe("town");
      for (let i = 0; i < 20; i++) expect((await gm.get(`/api/notebooks/${id}`)).raw).toBe(first.raw);
    }, 60_000);

    it("W1, F1: published only after the end; then everyone reads the file, the seed and the corrections", async () => {
      expect((await anon.get(`/api/notebooks/${id}/published`)).status).toBe(404);
      const v = await ok("publish");
      expect(v.published).toBe(true);
      const r = await anon.get<PublishedNotebook>(`/api/notebooks/${id}/published`);
      expect(r.status).toBe(200);
      expect(r.body.winner).toBe("town");
      expect(r.body.replay).toEqual(file);
      expect(r.body.corrections).toHaveLength(7);
      // Still the GM's own: the notebook itself stays private.
      expect((await other.get(`/api/notebooks/${id}`)).status).toBe(404);
    });
  });
});
