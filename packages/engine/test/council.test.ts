// M2c: the council questions the rules answer (council.ts). Every expected answer below is worked out by
// hand from the position the test sets up, never from the module under test; the question texts are
// written out here again.
import { describe, expect, it } from "vitest";
import {
  COUNCIL_QUESTIONS,
  act,
  checkListedQuestion,
  councilAnswerFor,
  councilAnswerTonight,
  endNight,
  exportReplay,
  isRejection,
  listedQuestion,
  runReplay,
  type CouncilQuestionId,
  type Match,
  type NightAction,
} from "../src/index.ts";
import { gameEvents } from "../src/events.ts";
import { nightForm } from "../src/night-form.ts";
import { playBotGame } from "../src/bots.ts";
import { viewFor } from "../src/view.ts";
import {
  NAMES,
  STANDARD,
  check,
  game,
  heal,
  healFrom,
  ok,
  pass,
  question,
  quickKill,
  quietDay,
  shoot,
  torture,
  visit,
  without,
  type Actions,
  type Scenario,
} from "./scenario.ts";

/** The questions' Russian texts, as the rules' list words them. */
const TEXT: Record<CouncilQuestionId, string> = {
  sheriffAlive: "Есть ли среди живых шериф?",
  sergeantAlive: "Есть ли среди живых сержант?",
  doctorAlive: "Есть ли среди живых доктор?",
  girlAlive: "Есть ли среди живых девочка?",
  prosecutorAlive: "Есть ли среди живых прокурор?",
  shahidAlive: "Есть ли среди живых шахид?",
  maniacAlive: "Есть ли среди живых маньяк?",
  maniacMoved: "Был ли у маньяка ход прошлой ночью?",
  sheriffShot: "Был ли прошлой ночью выстрел шерифа?",
  sergeantCheckedMafia: "Пала ли прошлой ночью проверка сержанта на кого-то из мафии?",
  doctorHealedMafia: "Пало ли прошлой ночью лечение доктора на кого-то из мафии?",
  doctorHealedFromMafia: "Было ли прошлой ночью у доктора лечение от мафии?",
  girlVisitedMafia: "Был ли прошлой ночью визит девочки к кому-то из мафии?",
};
const IDS = Object.keys(TEXT) as CouncilQuestionId[];

const seat = (name: string): number => NAMES.indexOf(name);

/** The rules' answer when the boss asks `q` in the night now in play of `g` (the standard table). */
function asked(g: Scenario, q: CouncilQuestionId): "yes" | "no" | null {
  const m = ok(act(g.match, seat("Босс"), { act: "council", question: TEXT[q] }));
  return councilAnswerTonight(m);
}

/** Night 1 with `actions` (everyone else passes), a quiet day 1, and night 2 in play. */
const afterNight1 = (actions: Actions, rolls = {}): Scenario =>
  quietDay(game(STANDARD).night(actions, { rolls: { girlSilence: false, thugSilence: false, ...rolls } }));

describe("M2c: the listed questions", () => {
  it("M2c: at least eight questions, each with a stable id, a Russian and an English text", () => {
    expect(COUNCIL_QUESTIONS.length).toBeGreaterThanOrEqual(8);
    expect(COUNCIL_QUESTIONS.map((q) => q.id)).toEqual(IDS);
    for (const q of COUNCIL_QUESTIONS) {
      expect(q.text.ru).toBe(TEXT[q.id]);
      expect(q.text.en).toMatch(/^[A-Z][A-Za-z ]+\?$/);
    }
  });

  it("M2c: no question names a player: none holds a player's name of the table", () => {
    for (const q of COUNCIL_QUESTIONS) for (const name of NAMES) expect(q.text.ru).not.toContain(name);
  });

  it("M2c: a question is recognised by its text, Russian or English, whatever its case, spaces and ё", () => {
    expect(listedQuestion("  есть ли  среди живых   ШЕРИФ? ")?.id).toBe("sheriffAlive");
    expect(listedQuestion("Did the sheriff shoot last night?")?.id).toBe("sheriffShot");
    expect(listedQuestion("Был ли у маньяка ход прошлой ночью?")?.id).toBe("maniacMoved");
    expect(listedQuestion("Шериф — это Вася?")).toBeNull();
    expect(councilAnswerFor(game(STANDARD).match.state, "Шериф — это Вася?")).toBeNull();
  });

  it("M2c: a question of one's own is refused where only the list is answered, with its code and clause", () => {
    expect(checkListedQuestion(TEXT.doctorAlive)).toBeNull();
    expect(checkListedQuestion("Кто доктор?")).toMatchObject({ code: "council/not-listed", clause: "M2c" });
  });

  it("M2c: the mafia's form offers every listed question with its Russian text; nobody else's does", () => {
    const m = game(STANDARD).match;
    const council = nightForm(m.state, seat("Босс"))!.acts.find((a) => a.act === "council")!;
    expect(council.questions).toEqual(IDS.map((id) => ({ id, text: TEXT[id] })));
    const troll = nightForm(m.state, seat("Тролль"))!.acts.find((a) => a.act === "council")!;
    expect(troll.questions.length).toBe(IDS.length);
    for (const a of nightForm(m.state, seat("Доктор"))!.acts) expect(a.questions).toEqual([]);
  });
});

describe("M2c: the answers", () => {
  it("M2c: on night 1 every role of the standard table is alive, and there was no last night: all no", () => {
    const g = game(STANDARD);
    const want: Record<CouncilQuestionId, "yes" | "no"> = {
      sheriffAlive: "yes",
      sergeantAlive: "yes",
      doctorAlive: "yes",
      girlAlive: "yes",
      prosecutorAlive: "yes",
      shahidAlive: "yes",
      maniacAlive: "yes",
      maniacMoved: "no",
      sheriffShot: "no",
      sergeantCheckedMafia: "no",
      doctorHealedMafia: "no",
      doctorHealedFromMafia: "no",
      girlVisitedMafia: "no",
    };
    for (const id of IDS) expect([id, asked(g, id)]).toEqual([id, want[id]]);
  });

  it("M2c: a role that was not dealt is not among the living", () => {
    const g = game(without(STANDARD, "Доктор", "Шахид"));
    const boss = 0;
    const m = ok(act(g.match, boss, { act: "council", question: TEXT.doctorAlive }));
    expect(councilAnswerTonight(m)).toBe("no");
    const m2 = ok(act(g.match, boss, { act: "council", question: TEXT.shahidAlive }));
    expect(councilAnswerTonight(m2)).toBe("no");
    const m3 = ok(act(g.match, boss, { act: "council", question: TEXT.girlAlive }));
    expect(councilAnswerTonight(m3)).toBe("yes");
  });

  it("M2c: 'among the living' is read before the night's deaths: a sheriff killed tonight still counts", () => {
    const g = game(STANDARD);
    let m = ok(act(g.match, seat("Маньяк"), { act: "quickKill", target: seat("Шериф") }));
    m = ok(act(m, seat("Босс"), { act: "council", question: TEXT.sheriffAlive }));
    expect(councilAnswerTonight(m)).toBe("yes");
    // The night as a file: the sheriff dies, the mafia hear "yes"; by the next night the answer is no.
    const n1 = g.night({ Маньяк: quickKill("Шериф"), Босс: question(TEXT.sheriffAlive) }, { council: "yes" });
    expect(n1.lastNight).toMatchObject({ died: ["Шериф"], council: "yes" });
    expect(asked(quietDay(n1), "sheriffAlive")).toBe("no");
    expect(asked(quietDay(n1), "sergeantAlive")).toBe("yes");
  });

  it("M2c: a player hanged by day is not among the living the next night", () => {
    const n1 = game(STANDARD).night({});
    const d1 = n1.day(NAMES.filter((n) => n !== "Девочка").map((by) => ({ by, red: "Девочка" })));
    expect(d1.lastDay.hanged).toBe("Девочка");
    expect(asked(d1, "girlAlive")).toBe("no");
    expect(asked(d1, "doctorAlive")).toBe("yes");
  });

  it("M2c: the maniac's move last night: a kill or a torture is a move, blocked or not; a pass is none", () => {
    expect(asked(afterNight1({ Маньяк: quickKill("Мирный1") }), "maniacMoved")).toBe("yes");
    expect(
      asked(afterNight1({ Маньяк: torture("Мирный1") }, { tortureEvidence: false }), "maniacMoved"),
    ).toBe("yes");
    // O1b, A2: the girl's block does not show: the maniac submitted a move.
    expect(
      asked(afterNight1({ Девочка: visit("Маньяк"), Маньяк: quickKill("Мирный1") }), "maniacMoved"),
    ).toBe("yes");
    expect(asked(afterNight1({ Маньяк: pass() }), "maniacMoved")).toBe("no");
    // Only last night counts: a move two nights ago and a pass last night is no.
    const n2 = quietDay(afterNight1({ Маньяк: quickKill("Мирный1") }).night({ Маньяк: pass() }));
    expect(asked(n2, "maniacMoved")).toBe("no");
  });

  it("M2c: the sheriff's shot last night: the pair's one action (T1), the later submission replacing the earlier", () => {
    expect(asked(afterNight1({ Шериф: shoot("Мирный1") }), "sheriffShot")).toBe("yes");
    expect(asked(afterNight1({ Сержант: check("Мирный1") }), "sheriffShot")).toBe("no");
    const replaced = afterNight1([
      ["Шериф", shoot("Мирный1")],
      ["Сержант", check("Мирный2")],
    ]);
    expect(asked(replaced, "sheriffShot")).toBe("no");
    // A block on the sheriff cancels the shot, but the shot was sent.
    expect(
      asked(
        afterNight1({ Громила: { act: "block", target: "Шериф" }, Шериф: shoot("Мирный1") }),
        "sheriffShot",
      ),
    ).toBe("yes");
  });

  it("M2c: the sergeant's check of a mafia member last night; the maniac is no mafia member (T2)", () => {
    expect(asked(afterNight1({ Сержант: check("Тролль") }), "sergeantCheckedMafia")).toBe("yes");
    expect(asked(afterNight1({ Сержант: check("Громила") }), "sergeantCheckedMafia")).toBe("yes");
    expect(asked(afterNight1({ Сержант: check("Маньяк") }), "sergeantCheckedMafia")).toBe("no");
    expect(asked(afterNight1({ Сержант: check("Мирный1") }), "sergeantCheckedMafia")).toBe("no");
    expect(asked(afterNight1({ Шериф: shoot("Тролль") }), "sergeantCheckedMafia")).toBe("no");
    // A blocked check returns "failed" (T2), but it was a check of a mafioso all the same.
    const blocked = afterNight1({ Громила: { act: "block", target: "Сержант" }, Сержант: check("Эльф") });
    expect(blocked.result.phases[0]).toMatchObject({ checks: [{ target: "Эльф", result: "failed" }] });
    expect(asked(blocked, "sergeantCheckedMafia")).toBe("yes");
  });

  it("M2c: the doctor's heal of a mafia member, and the heal from the mafia, last night", () => {
    expect(asked(afterNight1({ Доктор: heal("Адвокат") }), "doctorHealedMafia")).toBe("yes");
    expect(asked(afterNight1({ Доктор: heal("Мирный1") }), "doctorHealedMafia")).toBe("no");
    expect(asked(afterNight1({ Доктор: heal("Маньяк") }), "doctorHealedMafia")).toBe("no");
    expect(asked(afterNight1({ Доктор: healFrom("mafia") }), "doctorHealedMafia")).toBe("no");
    expect(asked(afterNight1({ Доктор: healFrom("mafia") }), "doctorHealedFromMafia")).toBe("yes");
    expect(asked(afterNight1({ Доктор: healFrom("maniac") }), "doctorHealedFromMafia")).toBe("no");
    expect(asked(afterNight1({ Доктор: heal("Босс") }), "doctorHealedFromMafia")).toBe("no");
  });

  it("M2c: the girl's visit to a mafia member last night", () => {
    expect(asked(afterNight1({ Девочка: visit("Босс") }), "girlVisitedMafia")).toBe("yes");
    expect(asked(afterNight1({ Девочка: visit("Громила") }), "girlVisitedMafia")).toBe("yes");
    expect(asked(afterNight1({ Девочка: visit("Маньяк") }), "girlVisitedMafia")).toBe("no");
    expect(asked(afterNight1({ Девочка: pass() }), "girlVisitedMafia")).toBe("no");
  });

  it("M2c: the question answered is the mafia's action M4 picks: the boss's own before the troll's", () => {
    const g = game(STANDARD);
    let m = ok(act(g.match, seat("Тролль"), { act: "council", question: TEXT.doctorAlive }));
    expect(councilAnswerTonight(m)).toBe("yes");
    const own = ok(act(m, seat("Босс"), { act: "council", question: "Кто доктор?" }));
    expect(councilAnswerTonight(own)).toBeNull(); // the boss's question is no listed one
    m = ok(act(m, seat("Босс"), { act: "mafia", kill: [seat("Мирный1")], intimidate: [] }));
    expect(councilAnswerTonight(m)).toBeNull(); // the mafia's action is a kill: nothing is asked
  });
});

describe("M2c: the answer in the results", () => {
  /** Night 1 of the standard table where the boss asks `q` and the rules answer it (as an automatic game). */
  function answered(q: CouncilQuestionId): Match {
    const g = game(STANDARD);
    let m = g.match;
    const passes: [string, NightAction][] = [
      ["Адвокат", { act: "pass" }],
      ["Громила", { act: "pass" }],
      ["Маньяк", { act: "pass" }],
      ["Шериф", { act: "pass" }],
      ["Доктор", { act: "pass" }],
      ["Девочка", { act: "pass" }],
      ["Прокурор", { act: "pass" }],
      ["Шахид", { act: "pass" }],
    ];
    for (const [name, a] of passes) m = ok(act(m, seat(name), a));
    m = ok(act(m, seat("Босс"), { act: "council", question: TEXT[q] }));
    return ok(endNight(m, { rolls: {}, council: councilAnswerTonight(m) }));
  }

  it("M2c: a listed question in a replay file replays with its answer, as a GM's answer would", () => {
    const m = answered("shahidAlive");
    const file = exportReplay(m);
    expect(file.phases[0]).toMatchObject({
      night: 1,
      actions: expect.arrayContaining([{ by: "Босс", act: "mafia", question: TEXT.shahidAlive }]),
      council: "yes",
    });
    const result = runReplay(file);
    expect(isRejection(result as object)).toBe(false);
    expect(result.phases[0]).toMatchObject({ phase: "night", council: "yes", died: [] });
    // The same, written by hand.
    const byHand = game(STANDARD).night({ Босс: question(TEXT.maniacMoved) }, { council: "no" });
    expect(byHand.lastNight.council).toBe("no");
  });

  it("M2c, A2: the answer reaches the mafia, and no other player, in the night's private results", () => {
    const m = answered("sheriffAlive");
    const events = gameEvents(m);
    const roles = m.setup.players.map((p) => p.role);
    const mafia = ["Босс", "Тролль", "Эльф", "Адвокат", "Громила"];
    for (const name of NAMES) {
      const view = viewFor(events, { kind: "player", seat: seat(name) }, roles);
      const councils = view.privateResults.flatMap((r) => (r.council ? [r.council] : []));
      expect([name, councils]).toEqual([
        name,
        mafia.includes(name) ? [{ question: TEXT.sheriffAlive, answer: "yes" }] : [],
      ]);
      if (!mafia.includes(name)) expect(JSON.stringify(view)).not.toContain(TEXT.sheriffAlive);
    }
    const pub = viewFor(events, { kind: "public" }, roles);
    expect(JSON.stringify(pub)).not.toContain(TEXT.sheriffAlive);
  });

  it("M2c: bots ask listed questions, and the rules answer them (never rejected)", () => {
    /** The "among the living" questions and their roles, written out again. */
    const ALIVE: Partial<Record<string, string>> = {
      [TEXT.sheriffAlive]: "sheriff",
      [TEXT.sergeantAlive]: "sergeant",
      [TEXT.doctorAlive]: "doctor",
      [TEXT.girlAlive]: "girl",
      [TEXT.prosecutorAlive]: "prosecutor",
      [TEXT.shahidAlive]: "shahid",
      [TEXT.maniacAlive]: "maniac",
    };
    let asked = 0;
    let checked = 0;
    for (let i = 0; i < 30; i++) {
      const m = playBotGame(`council-${i}`);
      m.outcomes.forEach(({ outcome }, k) => {
        if (!("council" in outcome) || outcome.council === null) return;
        asked++;
        const { question: q, answer } = outcome.council;
        expect(Object.values(TEXT)).toContain(q);
        expect(["yes", "no"]).toContain(answer);
        const role = ALIVE[q];
        if (role === undefined) return;
        // The table at the night's start: as the phase before it left it (or as dealt).
        const before = k === 0 ? m.setup.players : m.outcomes[k - 1]!.players;
        const living = before.some((p) => p.alive && p.role === role);
        expect(answer).toBe(living ? "yes" : "no");
        checked++;
      });
    }
    expect(asked).toBeGreaterThan(0);
    expect(checked).toBeGreaterThan(0);
  });
});
