// The server's response builders (views.ts, readouts.ts): a game's summary, the detail a viewer is sent (their role
// card, action form, the public vote count, the announcements, their private results), the signup state
// and the thread's pages. A room is built in memory from log entries, as secrets.test.ts builds one; every
// expected value is written out here from RULES.md and TEXTS.ru.md, never computed with the code under
// test. These tests are also among those `npm run mutate:secrets` runs against views.ts and seen.ts
// (docs/testing.md, "Mutation testing of the secrets").
import { DEFAULT_OPTIONS, roleCard, type RoleId } from "@forum-mafia/engine";
import type { Room } from "../src/log/room.ts";
import { describe, expect, it } from "vitest";
import { seenBy } from "../src/views/seen.ts";
import { gameDetail, summaryOf } from "../src/views/views.ts";
import { publicState } from "../src/views/stream-items.ts";
import { myPart } from "../src/views/me-views.ts";
import { actionForm, posts, signupStatus } from "../src/views/readouts.ts";

/** M2c's listed questions as docs/readings.md lists them, in its order, with their Russian texts. */
const LISTED = [
  ["sheriffAlive", "Есть ли среди живых шериф?"],
  ["sergeantAlive", "Есть ли среди живых сержант?"],
  ["doctorAlive", "Есть ли среди живых доктор?"],
  ["girlAlive", "Есть ли среди живых девочка?"],
  ["prosecutorAlive", "Есть ли среди живых прокурор?"],
  ["shahidAlive", "Есть ли среди живых шахид?"],
  ["maniacAlive", "Есть ли среди живых маньяк?"],
  ["maniacMoved", "Был ли у маньяка ход прошлой ночью?"],
  ["sheriffShot", "Был ли прошлой ночью выстрел шерифа?"],
  ["sergeantCheckedMafia", "Пала ли прошлой ночью проверка сержанта на кого-то из мафии?"],
  ["doctorHealedMafia", "Пало ли прошлой ночью лечение доктора на кого-то из мафии?"],
  ["doctorHealedFromMafia", "Было ли прошлой ночью у доктора лечение от мафии?"],
  ["girlVisitedMafia", "Был ли прошлой ночью визит девочки к кому-то из мафии?"],
].map(([id, text]) => ({ id, text }));
import {
  act,
  BOSS,
  CITIZEN,
  DOCTOR,
  entry,
  GM,
  HAND,
  HOUR,
  NAMES,
  nextAt,
  player,
  PUBLIC,
  runningRoom,
  SERGEANT,
  SETTINGS,
  SHERIFF,
  signupRoom,
  THUG,
} from "./rooms.ts";

const vote = (room: Room, seat: number, color: "red" | "blue", target: number): void =>
  room.apply(entry({ kind: "vote", seat, vote: { color, target, early: false } }));

const QUESTION = "Есть ли в игре маньяк?";

/**
 * Day 1 with votes. Night 1: the boss asks the council (M2c; the GM answers "no"), the sergeant checks
 * the boss (T2), the thug blocks the citizen and the silence roll is fixed to hit (M6), the doctor
 * poisons the sergeant (T3d), and the GM modkills the doctor (G5, F2: at the night's end). In day 1 the
 * boss votes red for the sheriff, the sheriff blue for the thug; the thug has not voted.
 */
function dayRoom(): Room {
  const room = runningRoom();
  act(room, BOSS, { act: "council", question: QUESTION });
  act(room, SERGEANT, { act: "check", target: BOSS });
  act(room, THUG, { act: "block", target: CITIZEN });
  act(room, DOCTOR, { act: "poison", target: SERGEANT });
  room.apply(entry({ kind: "council", answer: "no" }));
  room.apply(entry({ kind: "fixRolls", rolls: { thugSilence: true }, reason: "проверка" }));
  room.apply(entry({ kind: "modkill", seat: DOCTOR, reason: "ругань" }));
  room.apply(entry({ kind: "publishNight" }));
  vote(room, BOSS, "red", SHERIFF);
  vote(room, SHERIFF, "blue", THUG);
  return room;
}

/** Night 2 after dayRoom's day: a tie (the sheriff 1, the thug 2 penalty − 1 blue), nobody hanged (G3). */
function night2Room(): Room {
  const room = dayRoom();
  room.apply(entry({ kind: "endDay" }));
  return room;
}

/** An ended room: the GM modkills the boss and the thug in night 1; the town wins at the night's end (W1). */
function endedRoom(): Room {
  const room = runningRoom();
  act(room, SERGEANT, { act: "check", target: BOSS });
  room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
  room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
  room.apply(entry({ kind: "publishNight" }));
  return room;
}

describe("a game's summary (summaryOf, signupStatus)", () => {
  it("S1, P4: in signup the first six signed up hold seats, the seventh is in the reserve", () => {
    const room = signupRoom(7);
    expect(summaryOf(room, "u0")).toEqual({
      id: "builders",
      title: "Сборка",
      gm: "Ведущий",
      status: "signup",
      phase: null,
      signedUp: 7,
      seats: 6,
      winner: null,
      deadline: null,
      mine: "signedUp",
    });
    expect(summaryOf(room, "u5").mine).toBe("signedUp");
    expect(summaryOf(room, "u6").mine).toBe("reserve");
    expect(summaryOf(room, "gm").mine).toBe("gm");
    expect(summaryOf(room, "stranger").mine).toBe("none");
    expect(summaryOf(room, null).mine).toBe("none");
    expect(signupStatus(room, "u0")).toBe("signedUp");
    expect(signupStatus(room, "u5")).toBe("signedUp");
    expect(signupStatus(room, "u6")).toBe("reserve");
    expect(signupStatus(room, "stranger")).toBe("none");
    expect(signupStatus(room, null)).toBe("none");
  });

  it("S1, G4, P4: once started, the seats are players', a signup left over is in the reserve, night 1 runs", () => {
    const room = signupRoom(7);
    const start = nextAt();
    room.apply(entry({ kind: "started", seed: "seed-of-builders", hand: HAND }));
    const summary = summaryOf(room, "u6");
    expect(summary).toMatchObject({
      status: "running",
      phase: { kind: "night", number: 1 },
      signedUp: 6,
      seats: 6,
      winner: null,
      mine: "reserve",
    });
    // The night's deadline: 24 hours after the start.
    expect(summary.deadline).toBe(start + 24 * HOUR);
    expect(summaryOf(room, "u0").mine).toBe("player");
    expect(summaryOf(room, "u5").mine).toBe("player");
    expect(summaryOf(room, "gm").mine).toBe("gm");
    expect(summaryOf(room, null).mine).toBe("none");
    // The reserve is the first signup left, yet past the seats: no seat is held by a reserve (P4).
    expect(signupStatus(room, "u6")).toBe("reserve");
    expect(signupStatus(room, "u0")).toBe("none");
  });

  it("W1, R3: an ended game shows its winner, no phase and no deadline", () => {
    const summary = summaryOf(endedRoom(), "u0");
    expect(summary).toMatchObject({
      status: "ended",
      phase: null,
      signedUp: 6,
      winner: "town",
      deadline: null,
      mine: "player",
    });
  });
});

describe("the detail a viewer is sent (gameDetail)", () => {
  it("S1: before the start there is no view, card, form, count, result or channel", () => {
    const room = signupRoom(7);
    const d = gameDetail(room, PUBLIC, "u6", "ru");
    expect(d.me).toEqual({ kind: "reserve", seat: null });
    expect(d.commitment).toBeNull();
    expect(d.view).toBeNull();
    expect(d.roleCard).toBeNull();
    expect(d.form).toBeNull();
    expect(d.voteCount).toBeNull();
    expect(d.channels).toEqual([]);
    expect(d.announcements).toEqual([]);
    expect(d.privateResults).toEqual([]);
    expect(d.gm).toBeNull();
    expect(d.signups).toEqual([
      ...NAMES.map((nick) => ({ nick, reserve: false })),
      { nick: "Запасной6", reserve: true },
    ]);
    expect(gameDetail(room, PUBLIC, "u0", "ru").me).toEqual({ kind: "signedUp", seat: null });
    expect(gameDetail(room, PUBLIC, null, "ru").me).toEqual({ kind: "none", seat: null });
    expect(gameDetail(room, GM, "gm", "ru").me).toEqual({ kind: "gm", seat: null });
    expect(gameDetail(room, GM, "gm", "ru").gm).toBeNull();
  });

  it("S1, F1: a player's detail holds their role card, the seed's commitment and their own channel", () => {
    const room = runningRoom(1);
    const d = gameDetail(room, player(DOCTOR), "u4", "ru");
    expect(d.summary.mine).toBe("player");
    expect(d.me).toEqual({ kind: "player", seat: DOCTOR });
    expect(d.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(d.roleCard).toEqual({ role: "doctor", lines: roleCard("doctor", "ru", DEFAULT_OPTIONS) });
    expect(d.roleCard!.lines.length).toBeGreaterThan(0);
    expect(gameDetail(room, player(DOCTOR), "u4", "en").roleCard).toEqual({
      role: "doctor",
      lines: roleCard("doctor", "en", DEFAULT_OPTIONS),
    });
    expect(d.view?.me).toMatchObject({ seat: DOCTOR, role: "doctor" });
    expect(d.channels.map((c) => c.id)).toEqual(["gm:4"]);
    expect(d.gm).toBeNull();
    // Nothing published yet: no result, no count at night.
    expect(d.announcements).toEqual([]);
    expect(d.privateResults).toEqual([]);
    expect(d.voteCount).toBeNull();
    // The public and the GM have no role card and no form.
    const pub = gameDetail(room, PUBLIC, "u6", "ru");
    expect(pub.me).toEqual({ kind: "reserve", seat: null });
    expect(pub.roleCard).toBeNull();
    expect(pub.form).toBeNull();
    const gm = gameDetail(room, GM, "gm", "ru");
    expect(gm.roleCard).toBeNull();
    expect(gm.form).toBeNull();
    expect(gm.gm).not.toBeNull();
  });

  it("S1, G6: streamAt is the length of the viewer's own stream: six signups, the clock, the start, their role", () => {
    const room = runningRoom();
    // Each signup's lobby update, the night's clock, gameStarted, the citizen's roleDealt and role message.
    expect(gameDetail(room, player(CITIZEN), "u5", "ru").streamAt).toBe(10);
    // The public: the lobby updates, the clock and gameStarted.
    expect(gameDetail(room, PUBLIC, null, "ru").streamAt).toBe(8);
  });

  it("S2: every role's name in the viewer's language, as TEXTS.ru.md words it", () => {
    const room = runningRoom();
    expect(gameDetail(room, PUBLIC, null, "ru").roleNames).toEqual({
      boss: "Босс мафии",
      troll: "Злой тролль",
      elf: "Злой эльф",
      lawyer: "Адвокат",
      thug: "Громила",
      maniac: "Маньяк",
      sheriff: "Шериф",
      sergeant: "Сержант",
      doctor: "Доктор",
      girl: "Девочка",
      prosecutor: "Прокурор",
      shahid: "Шахид",
      citizen: "Мирный житель",
    });
    expect(gameDetail(room, PUBLIC, null, "en").roleNames).toEqual({
      boss: "Mafia boss",
      troll: "Evil troll",
      elf: "Evil elf",
      lawyer: "Lawyer",
      thug: "Thug",
      maniac: "Maniac",
      sheriff: "Sheriff",
      sergeant: "Sergeant",
      doctor: "Doctor",
      girl: "Girl",
      prosecutor: "Prosecutor",
      shahid: "Shahid",
      citizen: "Citizen",
    });
  });
});

describe("the public vote count (voteCount)", () => {
  const COUNT = {
    title: "Голосование, день 1",
    red: ["Шериф (1): Босс"],
    blue: ["Громила (1): Шериф"],
    cannotVote: [SERGEANT, CITIZEN],
    notVoted: [THUG],
    text: [
      "Голосование, день 1",
      "Против:",
      "Шериф (1): Босс",
      "В защиту:",
      "Громила (1): Шериф",
      "Лишены голоса: Мирный, Сержант",
      "Не проголосовали: Громила",
    ].join("\n"),
  };

  it("V2, V6, A1: the day's count: red and blue lines, who cannot vote, who has not voted; the dead in neither", () => {
    const room = dayRoom();
    expect(gameDetail(room, PUBLIC, null, "ru").voteCount).toEqual(COUNT);
    // The same for every viewer: it is built from the public view.
    expect(gameDetail(room, player(BOSS), "u0", "ru").voteCount).toEqual(COUNT);
    expect(gameDetail(room, GM, "gm", "ru").voteCount).toEqual(COUNT);
  });

  it("V2: there is no count at night, before the start, nor once the game has ended", () => {
    expect(gameDetail(runningRoom(), PUBLIC, null, "ru").voteCount).toBeNull();
    expect(gameDetail(night2Room(), PUBLIC, null, "ru").voteCount).toBeNull();
    expect(gameDetail(signupRoom(), PUBLIC, null, "ru").voteCount).toBeNull();
    expect(gameDetail(endedRoom(), PUBLIC, null, "ru").voteCount).toBeNull();
  });
});

describe("the announcements and the private results (A1, A2, A3)", () => {
  it("A1: the night's public results: the modkill, one line per player who cannot vote (in name order)", () => {
    const room = dayRoom();
    const night1 = {
      phase: { kind: "night", number: 1 },
      lines: [
        "Итоги ночи 1",
        "Этой ночью никто не погиб.",
        // P3, G5: the modkill, without the role (R1: 10 or fewer alive).
        "Игрок Доктор исключён из игры (модкилл).",
        "Сегодня Мирный лишен возможности голосовать",
        "Сегодня Сержант лишен возможности голосовать",
      ],
    };
    expect(gameDetail(room, PUBLIC, null, "ru").announcements).toEqual([night1]);
    expect(gameDetail(room, player(CITIZEN), "u5", "ru").announcements).toEqual([night1]);
  });

  it("A2: the sergeant and the sheriff read the check's result, the mafia the council's answer, nobody else anything", () => {
    const room = dayRoom();
    const phase = { kind: "night", number: 1 };
    const check = [{ phase, lines: ["Проверка: Босс — мафия."] }];
    const council = [{ phase, lines: [`${QUESTION} — Совет ответил: нет.`] }];
    expect(gameDetail(room, player(SERGEANT), "u3", "ru").privateResults).toEqual(check);
    expect(gameDetail(room, player(SHERIFF), "u2", "ru").privateResults).toEqual(check);
    expect(gameDetail(room, player(BOSS), "u0", "ru").privateResults).toEqual(council);
    expect(gameDetail(room, player(THUG), "u1", "ru").privateResults).toEqual(council);
    expect(gameDetail(room, player(CITIZEN), "u5", "ru").privateResults).toEqual([]);
    expect(gameDetail(room, player(DOCTOR), "u4", "ru").privateResults).toEqual([]);
    expect(gameDetail(room, PUBLIC, null, "ru").privateResults).toEqual([]);
  });

  it("A2, R3: once the game is over everyone reads every private result, as the GM does", () => {
    const room = endedRoom();
    const check = [{ phase: { kind: "night", number: 1 }, lines: ["Проверка: Босс — мафия."] }];
    expect(gameDetail(room, player(CITIZEN), "u5", "ru").privateResults).toEqual(check);
    expect(gameDetail(room, PUBLIC, null, "ru").privateResults).toEqual(check);
  });
});

describe("a player's action form (actionForm)", () => {
  it("O1, O1a, M2: the thug's block and the mafia's action, each refusal with its reason and clause", () => {
    const room = runningRoom();
    const form = gameDetail(room, player(THUG), "u1", "ru").form;
    expect(form).toEqual({
      acts: [
        {
          act: "mafia",
          targets: [SHERIFF, SERGEANT, DOCTOR, CITIZEN],
          unavailable: [
            { seat: BOSS, reason: "night/mafia-target", clause: "O1a" },
            { seat: THUG, reason: "night/mafia-target", clause: "O1a" },
          ],
        },
        // M4, M2c: a mafioso who is not the boss may send the mafia's action, the council's question too.
        // M2c: with the rules' list of questions (docs/readings.md, thirteen), the text to send first.
        { act: "council", targets: [], unavailable: [], questions: LISTED },
        {
          act: "block",
          targets: [BOSS, SHERIFF, SERGEANT, DOCTOR, CITIZEN],
          unavailable: [{ seat: THUG, reason: "night/self-target", clause: "O1a" }],
        },
        { act: "pass", targets: [], unavailable: [] },
      ],
      // M2: six alive at the night's start: two kills, at most two intimidations.
      mafiaLimits: { kill: 2, intimidate: 2 },
      submitted: [],
    });
  });

  it("O1b, M6: the night after a block the thug may not block the same player; submissions are shown by slot", () => {
    const room = night2Room();
    const form = (seat: number) => gameDetail(room, player(seat), `u${seat}`, "ru").form;
    expect(form(THUG)?.acts.find((a) => a.act === "block")).toEqual({
      act: "block",
      targets: [BOSS, SHERIFF, SERGEANT],
      unavailable: [
        { seat: THUG, reason: "night/self-target", clause: "O1a" },
        { seat: CITIZEN, reason: "night/repeat-target", clause: "M6" },
      ],
    });
    // M2: five alive at the night's start.
    expect(form(THUG)?.mafiaLimits).toEqual({ kill: 2, intimidate: 2 });
    expect(form(BOSS)?.submitted).toEqual([]);
    // S2, M4: the mafia's action is the mafia's (both members see it); the thug's block is his own.
    const kill = { act: "mafia", kill: [SHERIFF], intimidate: [] } as const;
    act(room, BOSS, kill);
    act(room, THUG, { act: "block", target: SHERIFF });
    act(room, SHERIFF, { act: "shoot", target: THUG });
    expect(form(BOSS)?.submitted).toEqual([{ slot: "mafia", action: kill }]);
    expect(form(THUG)?.submitted).toEqual([
      { slot: "mafia", action: kill },
      { slot: "own", action: { act: "block", target: SHERIFF } },
    ]);
    // T1: the pair's one action is the sheriff's and the sergeant's.
    expect(form(SERGEANT)?.submitted).toEqual([{ slot: "pair", action: { act: "shoot", target: THUG } }]);
    expect(form(SERGEANT)?.mafiaLimits).toBeNull();
    // T7: the citizen has no action; the dead doctor none either (G7).
    expect(form(CITIZEN)).toBeNull();
    expect(form(DOCTOR)).toBeNull();
  });

  it("O1: there is no form by day, for the GM or the public, nor once the game has ended", () => {
    expect(gameDetail(dayRoom(), player(THUG), "u1", "ru").form).toBeNull();
    const seen = seenBy(runningRoom(), GM)!;
    expect(actionForm(seen)).toBeNull();
    expect(gameDetail(endedRoom(), player(SERGEANT), "u3", "ru").form).toBeNull();
  });

  it("T3c: with more than 10 alive and both mafia and maniac dealt, the doctor may heal from a role", () => {
    const hand: RoleId[] = ["boss", "thug", "maniac", "sheriff", "sergeant", "doctor"];
    while (hand.length < 11) hand.push("citizen");
    const room = signupRoom(11, { ...SETTINGS, seats: 11 });
    room.apply(entry({ kind: "started", seed: "seed-of-eleven", hand }));
    const form = gameDetail(room, player(5), "u5", "ru").form!;
    expect(form.acts.map((a) => a.act)).toEqual(["serum", "heal", "healFrom", "poison", "pass"]);
    expect(form.acts.find((a) => a.act === "healFrom")).toEqual({
      act: "healFrom",
      targets: [],
      roles: ["mafia", "maniac", "sheriff"],
    });
    // O1a: the doctor may heal themselves, not poison themselves.
    expect(form.acts.find((a) => a.act === "heal")).toEqual({
      act: "heal",
      targets: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      unavailable: [],
    });
    expect(form.acts.find((a) => a.act === "poison")?.unavailable).toEqual([
      { seat: 5, reason: "night/self-target", clause: "O1a" },
    ]);
    expect(form.mafiaLimits).toBeNull();
  });
});

describe("the thread's pages (posts)", () => {
  it("F2: a page of posts after a position, the total, a hidden post without its text", () => {
    const room = runningRoom();
    ["один", "два", "три", "четыре"].forEach((text, i) =>
      room.apply(entry({ kind: "post", id: `p${i + 1}`, seat: i, text, vote: null })),
    );
    room.apply(entry({ kind: "hide", postId: "p3", reason: "флуд" }));
    const page = (after: number, limit: number) => {
      const r = posts(room, after, limit);
      return { ids: r.posts.map((p) => p.id), total: r.total };
    };
    expect(page(0, 2)).toEqual({ ids: ["p1", "p2"], total: 4 });
    expect(page(1, 2)).toEqual({ ids: ["p2", "p3"], total: 4 });
    expect(page(2, 10)).toEqual({ ids: ["p3", "p4"], total: 4 });
    expect(page(4, 10)).toEqual({ ids: [], total: 4 });
    const [hidden, shown] = posts(room, 2, 2).posts;
    expect(hidden).toMatchObject({ id: "p3", author: "Шериф", html: "", hidden: { reason: "флуд" } });
    expect(shown).toMatchObject({ id: "p4", author: "Сержант", hidden: null });
    expect(shown!.html).toContain("четыре");
  });
});

/**
 * Issue 28's stall (STALL_CYCLES = 3: three nights and three days in a row with no death, modkill or
 * hanging), in a room built by hand: every night each seat with a move passes (no strike, P2), every day
 * each player votes blue for the next (no hanging, V5; no penalty, P1).
 */
function quietCycles(room: Room, cycles: number): void {
  for (let c = 0; c < cycles; c++) {
    for (const seat of [BOSS, THUG, SHERIFF, DOCTOR]) act(room, seat, { act: "pass" });
    room.apply(entry({ kind: "publishNight" }));
    for (let seat = 0; seat < 6; seat++)
      room.apply(
        entry({ kind: "vote", seat, vote: { color: "blue", target: (seat + 1) % 6, early: false } }),
      );
    room.apply(entry({ kind: "endDay" }));
  }
}

describe("a stalled game (issue 28) in the stream's public half and «Мои игры»", () => {
  it("W1: two quiet cycles are no stall; the third is, told to everyone from night 1 on, with a human GM", () => {
    const room = runningRoom();
    quietCycles(room, 2);
    expect(publicState(room, "ru").stall).toBeNull();
    expect(myPart(room, { id: "u2", nick: "Шериф" }, {}, { offsets: [], now: 0 })!.game.stall).toBeNull();
    quietCycles(room, 1);
    const stall = { since: { kind: "night", number: 1 }, nights: 3, days: 3, humanGm: true };
    expect(publicState(room, "ru").stall).toEqual(stall);
    expect(myPart(room, { id: "u2", nick: "Шериф" }, {}, { offsets: [], now: 0 })!.game.stall).toEqual(stall);
    expect(gameDetail(room, PUBLIC, null, "ru").stall).toEqual(stall);
  });
});
