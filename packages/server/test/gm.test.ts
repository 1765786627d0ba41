import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail, NightDraft, PostView } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { phaseDeadline } from "../src/game/deadline.ts";
import { backlog } from "../src/views/stream-items.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { detail, expectOk, NICKS, NIGHT_MS, setUpGame, type Table } from "./play.ts";

// The hand deal follows RULES.md §1's table: Аня boss, Борис troll, Вика elf, Гоша lawyer, Даша thug,
// Егор maniac, Ёлка sheriff, Женя sergeant, Зоя doctor, Игорь girl, Катя prosecutor, Лёва shahid,
// Маша … Рома citizens.
const HAND = { hand: [...DEFAULT_ROLES] };
const seat = (nick: string): number => NICKS.indexOf(nick);

async function game(
  mode: "review" | "automatic",
  run: (t: TestServer, g: Table & { by: (nick: string) => Client }) => Promise<void>,
) {
  const t = await testServer();
  try {
    const table = await setUpGame(t, mode, HAND);
    await run(t, { ...table, by: (nick) => table.players[seat(nick)]! });
  } finally {
    await t.close();
  }
}

const act = (c: Client, id: string, body: unknown) => c.post(`/api/games/${id}/actions`, body);

describe("the GM's review of a night", () => {
  it("M2c: the draft waits for the council's answer, then explains each outcome; the mafia alone hear the answer", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: "Есть ли среди живых маньяк?" }));
      expectOk(await act(g.by("Егор"), g.id, { act: "quickKill", target: seat("Олег") }));
      await t.clock.advance(NIGHT_MS);
      const pending = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(pending.blocked).toMatch(/council/);
      expect(pending.councilQuestion).toBe("Есть ли среди живых маньяк?");
      const early = await g.gm.post(`/api/games/${g.id}/gm/publish`);
      expect(early.status).toBe(409);
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "yes" }));
      const draft = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(draft.blocked).toBeNull();
      expect(draft.explanation.join("\n")).toContain("Олег");
      expect(draft.publicLines.join("\n")).toContain("Олег");
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      const troll = await detail(g.by("Борис"), g.id);
      expect(troll.view!.privateResults.map((r) => r.council?.answer)).toEqual(["yes"]);
      const citizen = await detail(g.by("Маша"), g.id);
      expect(citizen.view!.privateResults).toEqual([]);
      expect(citizen.view!.seats[seat("Олег")]!.alive).toBe(false);
    }));

  it("F2: a roll the GM fixes, with a reason, decides the published result", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Игорь"), g.id, { act: "visit", target: seat("Петя") }));
      await t.clock.advance(NIGHT_MS);
      const refused = await g.gm.post(`/api/games/${g.id}/gm/rolls`, { rolls: {}, reason: "x" });
      expect(refused.status).toBe(400);
      expectOk(
        await g.gm.post(`/api/games/${g.id}/gm/rolls`, {
          rolls: { girlSilence: true },
          reason: "кубик на столе",
        }),
      );
      expect((await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body.fixedRolls).toEqual({
        girlSilence: true,
      });
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      const d = await detail(g.by("Маша"), g.id);
      expect(d.announcements[0]!.lines.join("\n")).toContain("Сегодня Петя лишен возможности голосовать");
      expect(d.voteCount!.cannotVote).toEqual([seat("Петя")]);
      const vote = await g
        .by("Петя")
        .post(`/api/games/${g.id}/votes`, { color: "red", target: seat("Маша") });
      expect(vote.status).toBe(422);
      expect((vote.body as { error: { clause: string } }).error.clause).toBe("V6");
    }));

  it("G10: while results are pending the thread warns, actions are closed, and the GM may reopen the mafia's", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Аня"), g.id, { act: "mafia", kill: [seat("Олег")] }));
      await t.clock.advance(NIGHT_MS);
      const d = await detail(g.by("Маша"), g.id);
      expect(d.clock.resultsPending).toBe(true);
      expect(d.notices.join(" ")).toContain("G10");
      const late = await act(g.by("Зоя"), g.id, { act: "heal", target: seat("Олег") });
      expect(late.status).toBe(422);
      expect((late.body as { error: { clause: string } }).error.clause).toBe("G10");
      expect((await act(g.by("Аня"), g.id, { act: "mafia", kill: [seat("Рома")] })).status).toBe(422);
      expectOk(
        await g.gm.post(`/api/games/${g.id}/gm/reopen-mafia`, { reason: "Олег заявил роль до итогов" }),
      );
      expect((await detail(g.by("Маша"), g.id)).clock.mafiaReopened).toBe(true);
      expectOk(await act(g.by("Аня"), g.id, { act: "mafia", kill: [seat("Рома")] }));
      expect((await act(g.by("Зоя"), g.id, { act: "heal", target: seat("Олег") })).status).toBe(422);
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      const after = await detail(g.by("Маша"), g.id);
      expect(after.view!.seats[seat("Рома")]!.alive).toBe(false);
      expect(after.view!.seats[seat("Олег")]!.alive).toBe(true);
      expect(after.notices).toEqual([]);
    }));
});

describe("what only the GM sees", () => {
  it("M2c: in automatic mode the GM sees the council question during the night and answers it before the deadline", () =>
    game("automatic", async (t, g) => {
      const question = "Есть ли среди живых шериф?"; // listed (M2c): the rules answer yes, Ёлка is alive
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question }));
      expect((await detail(g.gm, g.id)).gm!.council).toEqual({ question, answer: null, suggested: "yes" });
      expect((await detail(g.by("Борис"), g.id)).gm).toBeNull();
      expect(JSON.stringify(await detail(g.by("Маша"), g.id))).not.toContain(question);
      const reason = "вопрос задан после заявки роли (G10)";
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "no", reason }));
      expect((await detail(g.gm, g.id)).gm!.council).toEqual({ question, answer: "no", suggested: "yes" });
      await t.clock.advance(NIGHT_MS);
      const troll = await detail(g.by("Борис"), g.id);
      // Unanswered, automatic mode would have given the rules' answer at the deadline.
      expect(troll.view!.privateResults.map((r) => r.council?.answer)).toEqual(["no"]);
      expect((await detail(g.gm, g.id)).gm!.council).toBeNull();
    }));

  it("M2c: while the council's answer is awaited the draft shows the rest, and the mafia's line says it waits", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: "Есть ли среди живых маньяк?" }));
      expectOk(await act(g.by("Егор"), g.id, { act: "quickKill", target: seat("Олег") }));
      await t.clock.advance(NIGHT_MS);
      const draft = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(draft.blockedCode).toBe("night/council-unanswered");
      expect(draft.publicLines.join("\n")).toContain("Погиб игрок Олег");
      expect(draft.explanation.join("\n")).toContain("Олег");
      const mafia = draft.privateLines.find((l) => l.startsWith("Аня, Борис"))!;
      expect(mafia).toContain("ждёт ответа совета");
      expect(draft.privateLines.join("\n")).not.toContain("Совет");
    }));

  it("V4, P1, P2: by day the GM sees the weighted scores and the penalty votes; players and the public do not", () =>
    game("automatic", async (_t, g) => {
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`)); // nobody acted: P2 for every role with an act
      const vote = (nick: string, color: "red" | "blue", target: string) =>
        g.by(nick).post(`/api/games/${g.id}/votes`, { color, target: seat(target) });
      expectOk(await vote("Маша", "red", "Петя"));
      expectOk(await vote("Катя", "red", "Петя")); // the prosecutor's red counts 2 (V4)
      expectOk(await vote("Зоя", "blue", "Олег")); // the doctor's blue counts 3 (V4)
      const day = (await detail(g.gm, g.id)).gm!.day!;
      const of = (nick: string) => day.scores.find((s) => s.seat === seat(nick));
      expect(of("Петя")).toEqual({ seat: seat("Петя"), score: 1 + 2 + 2, penalty: 2 }); // P1: Петя has not voted
      expect(of("Олег")).toEqual({ seat: seat("Олег"), score: -3 + 2, penalty: 2 });
      expect(of("Маша")).toEqual({ seat: seat("Маша"), score: 0, penalty: 0 });
      expect(of("Зоя")).toEqual({ seat: seat("Зоя"), score: 2, penalty: 2 }); // P2: no night action
      expect(of("Аня")).toEqual({ seat: seat("Аня"), score: 4, penalty: 4 }); // P1 and P2
      expect(day.hanged).toBe(seat("Петя"));
      // V4: the public count shows every vote as 1, and nobody but the GM gets the table.
      const player = await detail(g.by("Маша"), g.id);
      expect(player.gm).toBeNull();
      expect(player.voteCount!.red).toEqual(["Петя (2): Маша, Катя"]);
      const anonymous = new Client(() => _t.server.app, "Гость");
      expect((await detail(anonymous, g.id)).gm).toBeNull();
    }));
});

describe("the game thread", () => {
  it("V2: a coloured nick outside quotes is a vote, the last vote counts, and the count shows each vote as 1 (V4)", () =>
    game("automatic", async (_t, g) => {
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      const masha = g.by("Маша");
      expectOk(
        await masha.post(`/api/games/${g.id}/posts`, {
          text: "[quote=Ника][color=red]Олег[/color][/quote] Не согласна.",
        }),
      );
      let d = await detail(masha, g.id);
      expect(d.view!.votes).toEqual([]);
      expectOk(await masha.post(`/api/games/${g.id}/posts`, { text: "Думаю, пЕтя красным" }));
      d = await detail(masha, g.id);
      expect(d.view!.votes).toEqual([
        { seat: seat("Маша"), color: "red", target: seat("Петя"), early: false },
      ]);
      expectOk(await masha.post(`/api/games/${g.id}/votes`, { color: "blue", target: seat("Олег") }));
      // The doctor's blue counts 3 in the tally (V4), but the public count shows 1.
      expectOk(await g.by("Зоя").post(`/api/games/${g.id}/posts`, { text: "[color=#0000FF]Олег[/color]" }));
      d = await detail(g.by("Рома"), g.id);
      expect(d.voteCount!.text).toContain("Олег");
      expect(d.voteCount!.text).not.toMatch(/\b3\b/);
      const posts = (await masha.get<{ posts: PostView[] }>(`/api/games/${g.id}/posts`)).body.posts;
      expect(posts.map((p) => p.vote?.color ?? null)).toEqual([null, "red", "blue"]);
      expect(posts[0]!.html).toContain('<blockquote class="quote">');
    }));

  it("G7: the dead cannot post; a post with a vote against the rules is refused whole (V3)", () =>
    game("automatic", async (_t, g) => {
      expectOk(await act(g.by("Егор"), g.id, { act: "quickKill", target: seat("Олег") }));
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      const dead = await g.by("Олег").post(`/api/games/${g.id}/posts`, { text: "Я жив!" });
      expect(dead.status).toBe(403);
      expect((dead.body as { error: { clause: string } }).error.clause).toBe("G7");
      const self = await g.by("Маша").post(`/api/games/${g.id}/posts`, { text: "[color=red]Маша[/color]" });
      expect(self.status).toBe(422);
      expect((self.body as { error: { clause: string } }).error.clause).toBe("V3");
      expect((await g.by("Маша").get<{ total: number }>(`/api/games/${g.id}/posts`)).body.total).toBe(0);
    }));

  it("hides a post with a reason: everyone sees the reason, nobody the text", () =>
    game("automatic", async (_t, g) => {
      const post = await g.by("Маша").post<{ id: string }>(`/api/games/${g.id}/posts`, { text: "грубость" });
      expectOk(post);
      expect(
        (await g.by("Рома").post(`/api/games/${g.id}/posts/${post.body.id}/hide`, { reason: "x" })).status,
      ).toBe(403);
      expectOk(
        await g.gm.post(`/api/games/${g.id}/posts/${post.body.id}/hide`, { reason: "G5: оскорбление" }),
      );
      const seen = (await g.by("Рома").get<{ posts: PostView[] }>(`/api/games/${g.id}/posts`)).body.posts[0]!;
      expect(seen.hidden).toEqual({ reason: "G5: оскорбление" });
      expect(seen.html).toBe("");
    }));
});

describe("the public vote count", () => {
  it("V7: voters are listed in the order they voted, and an early vote is marked from day 3", () =>
    game("automatic", async (_t, g) => {
      const calmDay = async () => {
        // Every living player votes blue for the next: nobody's score is above 0 (V5), nobody strikes (P1).
        const alive = (await detail(g.gm, g.id)).view!.seats.filter((s) => s.alive).map((s) => s.seat);
        for (const [i, s] of alive.entries())
          expectOk(
            await g.players[s]!.post(`/api/games/${g.id}/votes`, {
              color: "blue",
              target: alive[(i + 1) % alive.length],
            }),
          );
        expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      };
      const calmNight = async () => {
        for (const p of g.players) if ((await detail(p, g.id)).form) await act(p, g.id, { act: "pass" });
        expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      };
      await calmNight();
      const vote = (nick: string, target: string, early = false) =>
        g.by(nick).post(`/api/games/${g.id}/votes`, { color: "red", target: seat(target), early });
      expectOk(await vote("Рома", "Петя", true));
      expectOk(await vote("Маша", "Петя"));
      expectOk(await vote("Ника", "Петя"));
      // Before day 3 "досрочно" has no effect (V7), so nothing is marked; names are in voting order.
      expect((await detail(g.by("Олег"), g.id)).voteCount!.red).toEqual(["Петя (3): Рома, Маша, Ника"]);
      expectOk(await vote("Маша", "Петя")); // cast again: Маша's vote is now the latest
      expect((await detail(g.by("Олег"), g.id)).voteCount!.red).toEqual(["Петя (3): Рома, Ника, Маша"]);
      await calmDay();
      await calmNight();
      await calmDay();
      await calmNight();
      expect((await detail(g.gm, g.id)).view!.phase).toEqual({ kind: "day", number: 3 });
      expectOk(await vote("Рома", "Петя"));
      expectOk(await vote("Маша", "Петя", true));
      const count = (await detail(g.by("Олег"), g.id)).voteCount!;
      expect(count.red).toEqual(["Петя (2): Рома, Маша (досрочно)"]);
      expect(count.text).toContain("Петя (2): Рома, Маша (досрочно)");
    }));
});

describe("moderation", () => {
  it("F2: the GM restores a hidden post with a reason; everyone sees it again, the stream carries it, the log keeps both", () =>
    game("automatic", async (t, g) => {
      const post = await g.by("Маша").post<{ id: string }>(`/api/games/${g.id}/posts`, { text: "спорно" });
      expectOk(post);
      const url = `/api/games/${g.id}/posts/${post.body.id}/restore`;
      expect((await g.gm.post(url, { reason: "ошибка" })).status).toBe(409); // not hidden
      expectOk(await g.gm.post(`/api/games/${g.id}/posts/${post.body.id}/hide`, { reason: "G5?" }));
      expect((await g.by("Рома").post(url, { reason: "x" })).status).toBe(403);
      expect((await g.gm.post(url, { reason: "  " })).status).toBe(400);
      expect((await g.gm.post(`/api/games/${g.id}/posts/nope/restore`, { reason: "x" })).status).toBe(404);
      expectOk(await g.gm.post(url, { reason: "ошибся: оскорбления нет" }));
      const seen = (await g.by("Рома").get<{ posts: PostView[] }>(`/api/games/${g.id}/posts`)).body.posts[0]!;
      expect(seen.hidden).toBeNull();
      expect(seen.html).toBe("спорно");
      const room = t.server.games.rooms.get(g.id)!;
      const items = backlog(room, { kind: "public" }, "ru", 0)!.map((x): unknown => JSON.parse(x.data));
      expect(items[items.length - 1]).toEqual({ type: "post", post: seen });
      expect(room.moderation.map((m) => [m.kind, m.detail, m.reason])).toEqual([
        ["hide", "Маша", "G5?"],
        ["unhide", "Маша", "ошибся: оскорбления нет"],
      ]);
    }));

  it("P4: a substitute takes the seat with its role, chats and strikes; the old player sees only the public view", () =>
    game("automatic", async (_t, g) => {
      expectOk(await g.by("Борис").post(`/api/games/${g.id}/channels/mafia`, { text: "план на ночь" }));
      const sub = new Client(() => _t.server.app, "Запасной");
      expectOk(await sub.register());
      expectOk(
        await g.gm.post(`/api/games/${g.id}/gm/replace`, {
          seat: seat("Борис"),
          nick: "запасной",
          reason: "пропал",
        }),
      );
      const d: GameDetail = await detail(sub, g.id);
      expect(d.me).toEqual({ kind: "player", seat: seat("Борис") });
      expect(d.roleCard?.role).toBe("troll");
      expect(d.view!.seats[seat("Борис")]!.name).toBe("Запасной");
      expect(d.channels.find((c) => c.id === "mafia")!.messages.map((m) => m.html)).toEqual(["план на ночь"]);
      const old = await detail(g.by("Борис"), g.id);
      expect(old.me.kind).toBe("none");
      expect(old.view!.me).toBeNull();
      expect(old.channels).toEqual([]);
      expect((await g.by("Борис").post(`/api/games/${g.id}/channels/mafia`, { text: "я тут" })).status).toBe(
        403,
      );
    }));

  it("F2: a modkill takes effect at the end of the phase and is announced (A3)", () =>
    game("automatic", async (_t, g) => {
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      expectOk(
        await g.gm.post(`/api/games/${g.id}/gm/modkill`, { seat: seat("Рома"), reason: "оскорбления" }),
      );
      expect((await detail(g.by("Маша"), g.id)).view!.seats[seat("Рома")]!.alive).toBe(true);
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      const d = await detail(g.by("Маша"), g.id);
      expect(d.view!.seats[seat("Рома")]!.alive).toBe(false);
      expect(d.announcements[1]!.lines.join("\n")).toContain("Рома");
    }));
});

describe("the clock", () => {
  it("extends, pauses and resumes a phase; the scheduler fires at the deadline", () =>
    game("automatic", async (t, g) => {
      const start = (await detail(g.gm, g.id)).clock.deadline!;
      expect(start).toBe(t.clock.now() + NIGHT_MS);
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/extend`, { minutes: 60 }));
      await t.clock.advance(NIGHT_MS);
      expect((await detail(g.gm, g.id)).view!.phase.kind).toBe("night");
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/pause`));
      expect((await detail(g.by("Маша"), g.id)).clock).toMatchObject({ paused: true, deadline: null });
      await t.clock.advance(10 * NIGHT_MS);
      expect((await detail(g.gm, g.id)).view!.phase.kind).toBe("night");
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/resume`));
      expect((await detail(g.gm, g.id)).clock.deadline).toBe(t.clock.now() + 3_600_000);
      await t.clock.advance(3_600_000);
      expect((await detail(g.gm, g.id)).view!.phase).toEqual({ kind: "day", number: 1 });
    }));

  it("ends a day at the GM's daily deadline time, in the game's time zone, even when it started late", () => {
    const settings = {
      night: { amount: 12, unit: "hours" as const },
      day: { amount: 12, unit: "hours" as const },
      dayDeadline: "22:00",
      timeZone: "Europe/Moscow",
      options: { earlyClose: "majority" as const, strikes: "shared" as const },
      mode: "automatic" as const,
      seats: 17,
    };
    const day = { kind: "day" as const, number: 1 };
    const msk = (h: number, m = 0, d = 30) => Date.UTC(2026, 10, d, h - 3, m); // MSK is UTC+3
    expect(phaseDeadline(settings, day, msk(10))).toBe(msk(22));
    expect(phaseDeadline(settings, day, msk(11, 30))).toBe(msk(22));
    // Started at 15:00: 22:00 today is nearer the end of 12 hours than 22:00 tomorrow, and past half of them.
    expect(phaseDeadline(settings, day, msk(15))).toBe(msk(22));
    // A 24-hour day from 23:00 ends at 22:00 the next evening (the 31st of November is the 1st of December).
    expect(phaseDeadline({ ...settings, day: { amount: 24, unit: "hours" } }, day, msk(23))).toBe(
      msk(22, 0, 31),
    );
    expect(phaseDeadline(settings, { kind: "night", number: 2 }, msk(22))).toBe(msk(22) + 12 * 3_600_000);
    expect(phaseDeadline({ ...settings, dayDeadline: null }, day, msk(10))).toBe(msk(22));
  });
});

describe("signups", () => {
  it("S3: 17 seats, then the reserve list; after the start everyone left signed up is in the reserve", async () => {
    const t = await testServer();
    try {
      const gm = new Client(() => t.server.app, "Ведущий");
      expectOk(await gm.register());
      const id = (
        await gm.post<{ id: string }>("/api/games", {
          title: "Запас",
          night: { amount: 10, unit: "minutes" },
          day: { amount: 20, unit: "minutes" },
          mode: "automatic",
        })
      ).body.id;
      const nicks = [...NICKS, "Запасной", "Второй запасной"];
      for (const nick of nicks) {
        const c = new Client(() => t.server.app, nick);
        expectOk(await c.register());
        expectOk(await c.post(`/api/games/${id}/signup`));
      }
      const before = await detail(gm, id);
      expect(before.signups.filter((s) => s.reserve).map((s) => s.nick)).toEqual([
        "Запасной",
        "Второй запасной",
      ]);
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: "random" }));
      const after = await detail(gm, id);
      expect(after.signups).toEqual([
        { nick: "Запасной", reserve: true },
        { nick: "Второй запасной", reserve: true },
      ]);
      expect(after.clock.deadline).toBe(t.clock.now() + 10 * 60_000);
    } finally {
      await t.close();
    }
  });
});
