import { runReplay } from "@forum-mafia/engine";
import type { G5Settings, GameDetail, GmFlag, MyGames, PostPreview, TextCheck } from "@forum-mafia/protocol";
import type { StreamItem } from "@forum-mafia/protocol/stream";
import { afterEach, describe, expect, it } from "vitest";
import { backlog } from "../src/views/stream-items.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { DAY_MS, NIGHT_MS, S3_DEFAULTS, detail, expectOk, playToEnd, setUpGame, type Table } from "./play.ts";

/**
 * Issue 31, G5 («Употребление нецензурной лексики, оскорбление игроков СТРОГО ЗАПРЕЩЕНО! Наказание будет
 * на усмотрение ГМ вплоть до исключения из игры.»): the rules punish, they do not censor. A flagged post is
 * posted, and reaches the GM (and its author's warning) only; the GM's measures (F2) and the game's policy.
 * Expected values are worked out by hand from the rules and the words written here.
 */

/** Seat by seat (NICKS): Аня boss, Борис thug (the mafia), Вика sheriff, Гоша sergeant, Даша doctor, Егор citizen. */
const HAND = ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"];
const SETUP = { roles: HAND as never[], options: S3_DEFAULTS };
const EGOR = 5;

let t: TestServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function game(g5: G5Settings, mode: "review" | "automatic" = "review"): Promise<Table> {
  t = await testServer({ seed: () => "g5-seed" });
  return setUpGame(t, mode, { hand: HAND }, SETUP, g5);
}

const OFF: G5Settings = { policy: "off", strikes: true };
const flagsOf = async (table: Table): Promise<readonly GmFlag[]> =>
  (await detail(table.gm, table.id)).gm!.flags;
const measure = (table: Table, flagId: string, m: string, reason = "G5: мат в теме") =>
  table.gm.post(`/api/games/${table.id}/gm/flags/${flagId}`, { measure: m, reason });
const errorOf = (raw: string): { code: string; clause?: string; message: string } =>
  (JSON.parse(raw) as { error: { code: string; clause?: string; message: string } }).error;

describe("G5: flags and the GM's measures (issue 31)", () => {
  it("G5: a flagged post is posted, and only the GM's table lists it, with its words", async () => {
    const table = await game(OFF);
    const egor = table.players[EGOR]!;
    const text = "Ну и х*йня эта ночь, употреблять такое нельзя";
    const res = await egor.post<{ id: string }>(`/api/games/${table.id}/posts`, { text });
    expect(res.status).toBe(201);
    const flags = await flagsOf(table);
    expect(flags).toHaveLength(1);
    const f = flags[0]!;
    expect(f).toMatchObject({
      id: res.body.id,
      where: "thread",
      seat: EGOR,
      author: "Егор",
      kind: "obscene",
    });
    expect(f.spans.map((s) => s.word)).toEqual(["х*йня"]);
    expect(text.slice(f.spans[0]!.start, f.spans[0]!.end)).toBe("х*йня");
    expect(f.measures).toEqual([]);
    expect(f.earlier).toBe(0);
    // The post is in the thread as written: the rules punish, they do not censor.
    const posts = await new Client(() => t!.server.app).get<{ posts: { id: string; html: string }[] }>(
      `/api/games/${table.id}/posts`,
    );
    expect(posts.body.posts.find((p) => p.id === res.body.id)!.html).toContain("х*йня");
    for (const c of [egor, table.players[0]!, new Client(() => t!.server.app)]) {
      const d = await c.get<GameDetail>(`/api/games/${table.id}`);
      expect(d.body.gm).toBeNull();
      expect(d.raw).not.toContain('"flags"');
    }
  });

  it("G5: the composer's preview and the text check name the words; the GM's own words are not flagged", async () => {
    const table = await game(OFF);
    const preview = await table.players[EGOR]!.post<PostPreview>(`/api/games/${table.id}/posts/preview`, {
      text: "Вика, ты дебил",
    });
    expect(preview.body.profanity).toEqual({ flag: "insult", words: ["дебил"] });
    const clean = await table.players[EGOR]!.post<TextCheck>("/api/text/check", { text: "Команда, страхуй" });
    expect(clean.body).toEqual({ flag: null, words: [] });
    const anon = await new Client(() => t!.server.app).post("/api/text/check", { text: "х*й" });
    expect(anon.status).toBe(401);
    expectOk(
      await table.gm.post(`/api/games/${table.id}/posts`, { text: "Кто напишет х*й — получит страйк" }),
    );
    expect(await flagsOf(table)).toEqual([]);
  });

  it("G5, F2: each measure, logged with its reason; warnings and strikes reach the author alone", async () => {
    const table = await game(OFF);
    const egor = table.players[EGOR]!;
    const post = async (text: string): Promise<string> =>
      (await egor.post<{ id: string }>(`/api/games/${table.id}/posts`, { text })).body.id;
    const a = await post("Это пиздец");
    const b = await post("Даша, ты идиот");
    const c = await post("Бл*дь, опять ночь");
    expectOk(await measure(table, a, "dismiss", "опечатка, не мат"));
    expectOk(await measure(table, b, "warn", "G5: оскорбление"));
    expectOk(await measure(table, c, "hide", "G5: мат"));
    expectOk(await measure(table, c, "strike", "G5: мат"));
    const flags = await flagsOf(table);
    expect(flags.map((f) => [f.earlier, f.measures.map((m) => [m.kind, m.reason, m.auto])])).toEqual([
      [0, [["dismiss", "опечатка, не мат", false]]],
      [1, [["warn", "G5: оскорбление", false]]],
      [
        2,
        [
          ["hide", "G5: мат", false],
          ["strike", "G5: мат", false],
        ],
      ],
    ]);
    const mine = await detail(egor, table.id);
    expect(mine.view!.me!.strikes).toBe(1);
    const gmChannel = mine.channels.find((ch) => ch.id === `gm:${EGOR}`)!;
    const texts = gmChannel.messages.map((m) => m.html).join("\n");
    expect(texts).toContain("Предупреждение ведущего:");
    expect(texts).toContain("Страйк</b> за мат");
    expect((await detail(table.gm, table.id)).gm!.strikes[EGOR]).toEqual({ vote: 0, night: 0, conduct: 1 });
    // Nobody else learns of the strike or the warning.
    const other = await detail(table.players[4]!, table.id);
    expect(other.view!.me!.strikes).toBe(0);
    expect(JSON.stringify(other)).not.toContain("Страйк");
    // The hidden post is hidden for everyone, with the reason, as a hidden post always is.
    const posts = await table.players[4]!.get<{ posts: { id: string; html: string; hidden: unknown }[] }>(
      `/api/games/${table.id}/posts`,
    );
    expect(posts.body.posts.find((p) => p.id === c)).toMatchObject({
      html: "",
      hidden: { reason: "G5: мат" },
    });
  });

  it("G5: refusals name the field or the clause and change nothing", async () => {
    const table = await game({ policy: "off", strikes: false });
    const egor = table.players[EGOR]!;
    const id = (await egor.post<{ id: string }>(`/api/games/${table.id}/posts`, { text: "Х*йня" })).body.id;
    expectOk(
      await table.players[0]!.post(`/api/games/${table.id}/channels/mafia`, { text: "бл*ть, кого бьём" }),
    );
    const chat = (await flagsOf(table)).find((f) => f.where === "mafia")!;
    expect(chat).toMatchObject({ seat: 0, kind: "obscene" });
    const before = await table.gm.get(`/api/games/${table.id}`);
    const cases: [Promise<{ status: number; raw: string }>, number, string][] = [
      [measure(table, id, "strike"), 409, "flag/no-strikes"],
      [measure(table, chat.id, "hide"), 409, "flag/not-a-post"],
      [measure(table, "nope", "warn"), 404, "not-found"],
      [measure(table, id, "ban"), 400, "invalid"],
      [table.gm.post(`/api/games/${table.id}/gm/flags/${id}`, { measure: "warn" }), 400, "invalid"],
      [
        egor.post(`/api/games/${table.id}/gm/flags/${id}`, { measure: "dismiss", reason: "сам" }),
        403,
        "not-the-gm",
      ],
    ];
    for (const [p, status, code] of cases) {
      const r = await p;
      expect([r.status, errorOf(r.raw).code], r.raw).toEqual([status, code]);
    }
    expect(errorOf((await measure(table, "nope", "warn")).raw).message).toContain("flagId");
    expect(errorOf((await measure(table, id, "ban")).raw).message).toContain("measure");
    expect(errorOf((await measure(table, id, "strike")).raw).clause).toBe("G5");
    expect((await table.gm.get(`/api/games/${table.id}`)).raw).toBe(before.raw);
    expectOk(await measure(table, id, "warn"));
    const again = await measure(table, id, "warn");
    expect([again.status, errorOf(again.raw).code]).toEqual([409, "flag/measured"]);
    const late = await measure(table, id, "dismiss");
    expect([late.status, errorOf(late.raw).code]).toEqual([409, "flag/measured"]);
  });

  it("G5: a GM's modkill on a flag is a modkill at the end of the phase, with its clause in the replay file", async () => {
    const table = await game(OFF);
    const id = (
      await table.players[EGOR]!.post<{ id: string }>(`/api/games/${table.id}/posts`, {
        text: "Вы все мрази",
      })
    ).body.id;
    const f = (await flagsOf(table))[0]!;
    expect(f.id).toBe(id);
    expectOk(await measure(table, id, "modkill", "G5: мат, третий раз"));
    expect((await detail(table.players[EGOR]!, table.id)).view!.seats[EGOR]!.alive).toBe(true);
    await playToEnd(t!, table, 7, "review");
    const replay = (await table.gm.get<{ phases: { gm?: unknown }[] }>(`/api/games/${table.id}/replay`)).body;
    expect(replay.phases[0]!.gm).toEqual([{ modkill: "Егор", reason: "G5: мат, третий раз", clause: "G5" }]);
    expect(runReplay(replay).phases[0]).toMatchObject({ modkilled: ["Егор"] });
  });

  it("G5: a flag in a faction chat changes nothing anyone outside it receives (a chat's existence stays secret)", async () => {
    /** Everything the non-members receive, ids aside: the detail (with streamAt: their stream's length), the thread. */
    const seenOutside = async (text: string): Promise<string[]> => {
      const table = await game({ policy: "hideStrike", strikes: true }, "automatic");
      expectOk(await table.players[0]!.post(`/api/games/${table.id}/channels/mafia`, { text }));
      const out: string[] = [];
      for (const c of [...table.players.slice(2), new Client(() => t!.server.app)])
        for (const url of ["", "/posts"]) {
          const raw = (await c.get(`/api/games/${table.id}${url}`)).raw;
          out.push(
            raw
              .split(table.id)
              .join("<game>")
              .replace(/"id":"[^"]*"/g, '"id":"<id>"'),
          );
        }
      const flags = await flagsOf(table);
      await t!.close();
      t = null;
      out.push(`GM's flags: ${flags.length}`);
      return out;
    };
    const clean = await seenOutside("ну что, кого бьём? заметано");
    const swearing = await seenOutside("бл*ть, кого бьём? заметано");
    expect(clean.pop()).toBe("GM's flags: 0");
    expect(swearing.pop()).toBe("GM's flags: 1");
    expect(swearing).toEqual(clean);
  });

  it("G5: the GM's stream carries each new flag in the GM's own half; a player's stream never does", async () => {
    const table = await game(OFF);
    expectOk(await table.players[0]!.post(`/api/games/${table.id}/channels/mafia`, { text: "х*й им всем" }));
    const room = t!.server.games.room(table.id);
    const gmItems = backlog(room, { kind: "gm" }, "ru", 0)!.map((i) => JSON.parse(i.data) as StreamItem);
    const last = gmItems[gmItems.length - 1]!;
    expect(last.type).toBe("you");
    expect(last.type === "you" && last.you.gm!.flags.map((f) => [f.where, f.seat, f.spans[0]!.word])).toEqual(
      [["mafia", 0, "х*й"]],
    );
    for (const viewer of [
      { kind: "player", seat: 0 },
      { kind: "player", seat: 5 },
      { kind: "public" },
    ] as const) {
      const items = backlog(room, viewer, "ru", 0)!;
      expect(items.map((i) => i.data).join("\n")).not.toContain('"flags"');
    }
  });

  it("G5: nicks are checked at registration", async () => {
    t = await testServer();
    const client = (): Client => new Client(() => t!.server.app);
    for (const nick of ["Хуйло", "Дебил", "Пиzдец", "Тупица_01"]) {
      const r = await client().post("/api/register", { nick, password: "correct horse battery" });
      expect(r.status, nick).toBe(400);
      expect(errorOf(r.raw)).toMatchObject({ code: "nick-g5", clause: "G5" });
      expect(errorOf(r.raw).message).toContain("nick");
    }
    for (const nick of ["Корабль", "Мандарин", "Команда А", "Страхуй", "Скипидар"])
      expectOk(await client().post("/api/register", { nick, password: "correct horse battery" }));
  });

  it("G5: a setup whose policy strikes while strikes are off is refused, naming the field", async () => {
    t = await testServer();
    const gm = new Client(() => t!.server.app, "Ведущий");
    expectOk(await gm.register());
    const game = (g5: unknown) =>
      gm.post("/api/games", {
        title: "G5",
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
        g5,
      });
    const bad = await game({ policy: "hideStrike", strikes: false });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.raw).message).toContain("g5.strikes");
    expect((await game({ policy: "ban", strikes: true })).status).toBe(400);
    const ok = await game({ policy: "hideStrike", strikes: true });
    expect(ok.status).toBe(201);
    const d = await gm.get<GameDetail>(`/api/games/${(ok.body as { id: string }).id}`);
    expect(d.body.settings.g5).toEqual({ policy: "hideStrike", strikes: true });
  });
});

describe("G5: the game's policy (issue 31)", () => {
  it("G5: warn: the author is warned privately at once; nothing else changes", async () => {
    const table = await game({ policy: "warn", strikes: true }, "automatic");
    const egor = table.players[EGOR]!;
    for (let i = 0; i < 3; i++)
      expectOk(await egor.post(`/api/games/${table.id}/posts`, { text: `х*й №${i}` }));
    const flags = await flagsOf(table);
    expect(flags.map((f) => f.measures.map((m) => [m.kind, m.auto]))).toEqual([
      [["warn", true]],
      [["warn", true]],
      [["warn", true]],
    ]);
    // A warning is told, not asked: the player owes the GM no answer for it (issue 15's gmAnswer).
    const line = (await egor.get<MyGames>("/api/me/games")).body.active.find((g) => g.id === table.id)!;
    expect(line.owes).toEqual([]);
    // The GM still reads each: «no measure» closes one the policy has already warned about.
    expectOk(await measure(table, flags[0]!.id, "dismiss", "прочитано, хватит предупреждения"));
    expect((await flagsOf(table))[0]!.measures.map((m) => [m.kind, m.auto])).toEqual([
      ["warn", true],
      ["dismiss", false],
    ]);
    const mine = await detail(egor, table.id);
    expect(mine.view!.me!.strikes).toBe(0);
    expect(
      mine.channels
        .find((c) => c.id === `gm:${EGOR}`)!
        .messages.filter((m) => m.html.includes("Предупреждение")),
    ).toHaveLength(3);
  });

  it("G5, P3: hide and strike: every flagged post is hidden, the third flag is a strike, the sixth a modkill", async () => {
    const table = await game({ policy: "hideStrike", strikes: true }, "automatic");
    const egor = table.players[EGOR]!;
    const says = ["пиздец", "ты дебил, Вика", "х*й вам", "бл*ть", "Даша, ты урод", "еб*ть"];
    for (const text of says.slice(0, 3)) expectOk(await egor.post(`/api/games/${table.id}/posts`, { text }));
    let mine = await detail(egor, table.id);
    expect(mine.view!.me!.strikes).toBe(1);
    // A flag in a faction chat counts too (Аня, the boss): hidden it cannot be, warned it is.
    expectOk(await table.players[0]!.post(`/api/games/${table.id}/channels/mafia`, { text: "бл*ть" }));
    const chat = (await flagsOf(table)).find((f) => f.where === "mafia")!;
    expect(chat.measures.map((m) => m.kind)).toEqual(["warn"]);
    for (const text of says.slice(3)) expectOk(await egor.post(`/api/games/${table.id}/posts`, { text }));
    mine = await detail(egor, table.id);
    expect(mine.view!.me!.strikes).toBe(2);
    const egorsFlags = (await flagsOf(table)).filter((f) => f.seat === EGOR);
    expect(egorsFlags.map((f) => f.measures.map((m) => m.kind))).toEqual([
      ["hide", "warn"],
      ["hide", "warn"],
      ["hide", "warn", "strike"],
      ["hide", "warn"],
      ["hide", "warn"],
      ["hide", "warn", "strike"],
    ]);
    const posts = await new Client(() => t!.server.app).get<{ posts: { seat: number; html: string }[] }>(
      `/api/games/${table.id}/posts`,
    );
    expect(posts.body.posts.filter((p) => p.seat === EGOR).map((p) => p.html)).toEqual(says.map(() => ""));
    // P3: the second strike is a modkill at the end of the phase (night 1), announced with the results.
    await t!.clock.advance(NIGHT_MS);
    const after = await detail(new Client(() => t!.server.app), table.id);
    expect(after.view!.seats[EGOR]!.alive).toBe(false);
    expect(after.view!.results[0]).toMatchObject({ modkilled: [EGOR] });
    await t!.clock.advance(DAY_MS);
    await playToEnd(t!, table, 3, "automatic");
    const replay = (await table.gm.get<{ phases: { gm?: unknown }[] }>(`/api/games/${table.id}/replay`)).body;
    expect(replay.phases[0]!.gm).toEqual([
      { strike: "Егор", reason: "правило 5, автоматическая проверка, нарушение № 3", clause: "G5" },
      { strike: "Егор", reason: "правило 5, автоматическая проверка, нарушение № 6", clause: "G5" },
    ]);
    const out = runReplay(replay);
    expect(out.phases[0]).toMatchObject({ modkilled: ["Егор"] });
    const ended = await detail(table.gm, table.id);
    expect(out.winner).toBe(ended.summary.winner);
    expect(out.phases).toHaveLength(ended.view!.results.length);
  });
});
