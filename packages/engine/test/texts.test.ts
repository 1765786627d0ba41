import { describe, expect, it } from "vitest";
import {
  countLines,
  countPost,
  dayAnnouncement,
  nightAnnouncement,
  privateResults,
  publicVoteCountLines,
  publicVoteCountSections,
  replacementLine,
  voteCountPost,
  type PublicCount,
} from "../src/announce.ts";
import {
  isRejection,
  type DayOutcome,
  type Match,
  type NightOutcome,
  type Player,
  type VoteColor,
} from "../src/index.ts";
import { seatByName, vote } from "../src/match.ts";
import { FACTION_NAMES, ROLE_NAMES, TEXTS } from "../src/texts.ts";
import {
  allRed,
  bloodyKill,
  block,
  check,
  game,
  heal,
  healFrom,
  kill,
  killAndIntimidate,
  mark,
  protect,
  question,
  quickKill,
  ring,
  serum,
  shoot,
  torture,
  unprotect,
  visit,
  votersOf,
  without,
  type Scenario,
} from "./scenario.ts";

/** The standard table with forum-like nicknames. Seats: Вася 0 … Петя 16. */
const NAMED =
  "Вася=boss Тоша=troll Эля=elf Адам=lawyer Гоша=thug Маша=maniac Шура=sheriff Серж=sergeant Док=doctor " +
  "Дина=girl Проша=prosecutor Шахин=shahid Коля=citizen Лена=citizen Миша=citizen Оля=citizen Петя=citizen";
/** Ten players: R1 hides roles. */
const TEN = without(NAMED, "Эля", "Проша", "Шахин", "Лена", "Миша", "Оля", "Петя");

function lastPhase(g: Scenario): { outcome: NightOutcome | DayOutcome; players: readonly Player[] } {
  const m = g.match;
  const last = m.outcomes[m.outcomes.length - 1];
  if (!last) throw new Error("no phase has finished");
  return { outcome: last.outcome, players: m.state.players };
}

function nightOf(g: Scenario): { outcome: NightOutcome; players: readonly Player[] } {
  const { outcome, players } = lastPhase(g);
  if (outcome.phase.kind !== "night") throw new Error("the last phase is not a night");
  return { outcome: outcome as NightOutcome, players };
}

function dayOf(g: Scenario): { outcome: DayOutcome; players: readonly Player[] } {
  const { outcome, players } = lastPhase(g);
  if (outcome.phase.kind !== "day") throw new Error("the last phase is not a day");
  return { outcome: outcome as DayOutcome, players };
}

const nightRu = (g: Scenario) => nightAnnouncement(nightOf(g).outcome, nightOf(g).players, "ru");
const nightEn = (g: Scenario) => nightAnnouncement(nightOf(g).outcome, nightOf(g).players, "en");
const dayRu = (g: Scenario) => dayAnnouncement(dayOf(g).outcome, dayOf(g).players, "ru");
const dayEn = (g: Scenario) => dayAnnouncement(dayOf(g).outcome, dayOf(g).players, "en");

/** Cast votes into the open day of a match, as the server would. */
function cast(m: Match, votes: [string, VoteColor, string, "early"?][]): Match {
  let out = m;
  for (const [by, color, target, early] of votes) {
    const next = vote(out, seatByName(out.state, by)!, {
      color,
      target: seatByName(out.state, target)!,
      early: early === "early",
    });
    if (isRejection(next)) throw new Error(next.message);
    out = next;
  }
  return out;
}

describe("role and faction names", () => {
  it("R1: every role has the nominative name of TEXTS.ru.md, with English beside it", () => {
    expect(ROLE_NAMES).toEqual({
      boss: { ru: "Босс мафии", en: "Mafia boss" },
      troll: { ru: "Злой тролль", en: "Evil troll" },
      elf: { ru: "Злой эльф", en: "Evil elf" },
      lawyer: { ru: "Адвокат", en: "Lawyer" },
      thug: { ru: "Громила", en: "Thug" },
      maniac: { ru: "Маньяк", en: "Maniac" },
      sheriff: { ru: "Шериф", en: "Sheriff" },
      sergeant: { ru: "Сержант", en: "Sergeant" },
      doctor: { ru: "Доктор", en: "Doctor" },
      girl: { ru: "Девочка", en: "Girl" },
      prosecutor: { ru: "Прокурор", en: "Prosecutor" },
      shahid: { ru: "Шахид", en: "Shahid" },
      citizen: { ru: "Мирный житель", en: "Citizen" },
    });
    expect(FACTION_NAMES).toEqual({
      mafia: { ru: "Мафия", en: "Mafia" },
      town: { ru: "Город", en: "Town" },
      maniac: { ru: "Маньяк (нейтрал)", en: "Maniac (neutral)" },
    });
  });

  it("W1: every end of the game has its line", () => {
    const winners = ["town", "mafia", "maniac", "draw"] as const;
    expect(winners.map((w) => TEXTS.gameOver.ru(w))).toEqual([
      "Победа города!",
      "Победа мафии!",
      "Победа маньяка!",
      "Ничья: в городе не осталось живых.",
    ]);
    expect(winners.map((w) => TEXTS.gameOver.en(w))).toEqual([
      "The town wins!",
      "The mafia wins!",
      "The maniac wins!",
      "A draw: nobody is left alive in the town.",
    ]);
  });
});

describe("night results (A1)", () => {
  it("A1: deaths, modkills, exposures, the serum, torture and lost votes come in the rules' order", () => {
    const g = game(NAMED).night(
      {
        Вася: killAndIntimidate("Коля", "Лена"),
        Док: serum("Проша"),
        Маша: torture("Миша"),
        Дина: visit("Гоша"),
        Шура: shoot("Эля"),
      },
      {
        rolls: { bossExposed: true, doctorExposed: true, tortureEvidence: true, girlSilence: true },
        gm: [{ modkill: "Петя", reason: "оскорбления" }],
      },
    );
    expect(nightRu(g)).toEqual({
      title: "Итоги ночи 1",
      lines: [
        "Погиб игрок Коля. Роль: Мирный житель.",
        "Погиб игрок Эля. Роль: Злой эльф.",
        "Игрок Петя исключён из игры (модкилл). Роль: Мирный житель.",
        "Мафия оставила улики: босс мафии — Вася.",
        "Доктор оставил следы: доктор — Док.",
        "Сыворотка правды: Проша — Прокурор.",
        "Миша в больнице: это работа маньяка.",
        "Сегодня Гоша лишен возможности голосовать",
        "Сегодня Лена лишен возможности голосовать",
        "Сегодня Миша лишен возможности голосовать",
      ],
    });
    expect(nightEn(g)).toEqual({
      title: "Night 1 results",
      lines: [
        "Player Коля died. Role: Citizen.",
        "Player Эля died. Role: Evil elf.",
        "Player Петя was removed from the game (modkill). Role: Citizen.",
        "The mafia left evidence: the mafia boss is Вася.",
        "The doctor left traces: the doctor is Док.",
        "Truth serum: Проша's role is Prosecutor.",
        "Миша is in hospital: this is the maniac's work.",
        "Today Гоша cannot vote",
        "Today Лена cannot vote",
        "Today Миша cannot vote",
      ],
    });
  });

  it("A1: a night without deaths says so; a modkill alone is announced after that line", () => {
    const quiet = game(NAMED).night({}, { gm: [{ modkill: "Петя", reason: "оскорбления" }] });
    expect(nightRu(quiet).lines).toEqual([
      "Этой ночью никто не погиб.",
      "Игрок Петя исключён из игры (модкилл). Роль: Мирный житель.",
    ]);
    expect(nightEn(quiet).lines).toEqual([
      "Nobody died tonight.",
      "Player Петя was removed from the game (modkill). Role: Citizen.",
    ]);
  });

  it("A1: blocks are never announced, and a visit without the silence roll leaves no line", () => {
    const g = game(NAMED).night(
      { Дина: visit("Вася"), Вася: kill("Коля"), Гоша: block("Док"), Док: heal("Оля") },
      { rolls: { girlSilence: false, thugSilence: false } },
    );
    expect(nightRu(g).lines).toEqual(["Этой ночью никто не погиб."]);
    expect(nightEn(g).lines).toEqual(["Nobody died tonight."]);
  });

  it("A1: the end of the game closes the night's results", () => {
    const g = game("Аня=boss Катя=citizen Оля=citizen").night({ Аня: kill("Катя") });
    expect(nightRu(g)).toEqual({ title: "Итоги ночи 1", lines: ["Погиб игрок Катя.", "Победа мафии!"] });
    expect(nightEn(g)).toEqual({ title: "Night 1 results", lines: ["Player Катя died.", "The mafia wins!"] });
  });

  it("N1c: the torture's lost vote is announced again the next night, without the evidence", () => {
    const g = game(NAMED)
      .night({ Маша: torture("Миша") }, { rolls: { tortureEvidence: false } })
      .day("")
      .night();
    expect(nightRu(g)).toEqual({
      title: "Итоги ночи 2",
      lines: ["Этой ночью никто не погиб.", "Сегодня Миша лишен возможности голосовать"],
    });
  });

  it("R1: a death shows the role at more than 10 alive, and not at 10 or fewer", () => {
    const big = game(NAMED).night({ Вася: kill("Коля") });
    expect(nightRu(big).lines).toEqual(["Погиб игрок Коля. Роль: Мирный житель."]);
    expect(nightEn(big).lines).toEqual(["Player Коля died. Role: Citizen."]);
    const ten = game(TEN).night({ Вася: kill("Коля") });
    expect(nightRu(ten).lines).toEqual(["Погиб игрок Коля."]);
    expect(nightEn(ten).lines).toEqual(["Player Коля died."]);
  });

  it("R2: a bloody kill and the serum show the role even at 10 or fewer alive", () => {
    const g = game(TEN).night(
      { Маша: bloodyKill("Коля"), Вася: kill("Шура"), Док: serum("Серж") },
      { rolls: { doctorExposed: false } },
    );
    expect(nightRu(g).lines).toEqual([
      "Коля — жертва маньяка. Роль: Мирный житель.",
      "Погиб игрок Шура.",
      "Сыворотка правды: Серж — Сержант.",
    ]);
    expect(nightEn(g).lines).toEqual([
      "Коля fell victim to the maniac. Role: Citizen.",
      "Player Шура died.",
      "Truth serum: Серж's role is Sergeant.",
    ]);
  });

  it("N1a: the bloody kill's victim is 'жертва маньяка'; the visiting girl is an ordinary death", () => {
    const g = game(NAMED).night({ Маша: bloodyKill("Док"), Дина: visit("Док") });
    expect(nightRu(g).lines).toEqual([
      "Погиб игрок Дина. Роль: Девочка.",
      "Док — жертва маньяка. Роль: Доктор.",
    ]);
    expect(nightEn(g).lines).toEqual([
      "Player Дина died. Role: Girl.",
      "Док fell victim to the maniac. Role: Doctor.",
    ]);
  });

  it("N1a: a cancelled bloody kill whose victim the mafia kills is an ordinary death", () => {
    const g = game(NAMED).night({ Маша: bloodyKill("Коля"), Док: healFrom("maniac"), Вася: kill("Коля") });
    expect(nightRu(g).lines).toEqual(["Погиб игрок Коля. Роль: Мирный житель."]);
  });

  it("M3: the boss's silent vote loss is never announced; the vote count shows the boss's vote", () => {
    const g = game(NAMED).night(
      { Вася: killAndIntimidate("Коля", "Лена") },
      { rolls: { bossExposed: false } },
    );
    expect(g.match.state.day.bossUncounted).toBe(0);
    const ru = nightRu(g);
    const en = nightEn(g);
    expect(ru.lines).toEqual([
      "Погиб игрок Коля. Роль: Мирный житель.",
      "Сегодня Лена лишен возможности голосовать",
    ]);
    expect(en.lines).toEqual(["Player Коля died. Role: Citizen.", "Today Лена cannot vote"]);
    const { outcome, players } = nightOf(g);
    expect(privateResults(outcome, players, "ru")).toEqual([]);

    const m = cast(g.match, [
      ["Вася", "red", "Маша"],
      ["Дина", "red", "Гоша"],
    ]);
    expect(voteCountPost(m.day, m.state, "ru").lines).toEqual([
      "Против:",
      "Гоша (1): Дина",
      "Маша (1): Вася",
      "Лишены голоса: Лена",
      "Не проголосовали: Адам, Гоша, Док, Маша, Миша, Оля, Петя, Проша, Серж, Тоша, Шахин, Шура, Эля",
    ]);
  });
});

describe("private results (A2)", () => {
  it("A2: the check goes to the living sheriff and sergeant; the maniac reads as not mafia", () => {
    const mafia = nightOf(game(NAMED).night({ Серж: check("Вася") }));
    expect(privateResults(mafia.outcome, mafia.players, "ru")).toEqual([
      { recipients: [6, 7], text: "Проверка: Вася — мафия." },
    ]);
    expect(privateResults(mafia.outcome, mafia.players, "en")).toEqual([
      { recipients: [6, 7], text: "Check: Вася is mafia." },
    ]);
    const maniac = nightOf(game(NAMED).night({ Серж: check("Маша") }));
    expect(privateResults(maniac.outcome, maniac.players, "ru")).toEqual([
      { recipients: [6, 7], text: "Проверка: Маша — не мафия." },
    ]);
    expect(privateResults(maniac.outcome, maniac.players, "en")).toEqual([
      { recipients: [6, 7], text: "Check: Маша is not mafia." },
    ]);
  });

  it("A2: a blocked check is reported as failed, and the block itself is not", () => {
    const g = game(NAMED).night(
      { Дина: visit("Серж"), Серж: check("Вася") },
      { rolls: { girlSilence: false } },
    );
    const { outcome, players } = nightOf(g);
    expect(privateResults(outcome, players, "ru")).toEqual([
      { recipients: [6, 7], text: "Проверка не удалась." },
    ]);
    expect(privateResults(outcome, players, "en")).toEqual([
      { recipients: [6, 7], text: "The check failed." },
    ]);
    expect(nightRu(g).lines).toEqual(["Этой ночью никто не погиб."]);
  });

  it("A2: a sheriff killed that night gets no result", () => {
    const { outcome, players } = nightOf(game(NAMED).night({ Вася: kill("Шура"), Серж: check("Гоша") }));
    expect(privateResults(outcome, players, "ru")).toEqual([
      { recipients: [7], text: "Проверка: Гоша — мафия." },
    ]);
  });

  it("A2: the council's answer goes to every living mafia member, and never to the town", () => {
    const expected = {
      yes: ["Совет ответил: да.", "The council answered: yes."],
      no: ["Совет ответил: нет.", "The council answered: no."],
      rejected: ["Совет отклонил вопрос.", "The council rejected the question."],
    } as const;
    for (const answer of ["yes", "no", "rejected"] as const) {
      const g = game(NAMED).night(
        { Вася: question("Шериф ещё жив?"), Шура: shoot("Эля") },
        { council: answer },
      );
      const { outcome, players } = nightOf(g);
      expect(privateResults(outcome, players, "ru")).toEqual([
        { recipients: [0, 1, 3, 4], text: expected[answer][0] },
      ]);
      expect(privateResults(outcome, players, "en")).toEqual([
        { recipients: [0, 1, 3, 4], text: expected[answer][1] },
      ]);
      expect(nightRu(g).lines).toEqual(["Погиб игрок Эля. Роль: Злой эльф."]);
    }
  });

  it("A2: nobody else is told anything about their own action", () => {
    const g = game(NAMED).night(
      {
        Док: heal("Коля"),
        Дина: visit("Маша"),
        Адам: protect("Вася"),
        Проша: unprotect("Тоша"),
        Шахин: mark("Оля"),
        Гоша: block("Проша"),
        Маша: quickKill("Коля"),
        Вася: kill("Петя"),
      },
      { rolls: { girlSilence: false, thugSilence: false } },
    );
    const { outcome, players } = nightOf(g);
    expect(privateResults(outcome, players, "ru")).toEqual([]);
    expect(privateResults(outcome, players, "en")).toEqual([]);
    expect(nightRu(g).lines).toEqual(["Погиб игрок Петя. Роль: Мирный житель."]);
  });
});

describe("day results (A3)", () => {
  it("A3: the hanged player with the role at more than 10 alive", () => {
    const n = game(NAMED).night({ Вася: kill("Коля") });
    const g = n.day(allRed(votersOf(n), "Шура", "Вася"));
    expect(dayRu(g)).toEqual({
      title: "Итоги дня 1",
      lines: ["По итогам голосования казнён игрок Шура. Роль: Шериф."],
    });
    expect(dayEn(g)).toEqual({
      title: "Day 1 results",
      lines: ["Player Шура was hanged by the vote. Role: Sheriff."],
    });
  });

  it("A3: at 10 or fewer alive the hanged player's role stays hidden", () => {
    const n = game(TEN).night();
    const g = n.day(allRed(votersOf(n), "Шура", "Вася"));
    expect(dayRu(g).lines).toEqual(["По итогам голосования казнён игрок Шура."]);
    expect(dayEn(g).lines).toEqual(["Player Шура was hanged by the vote."]);
  });

  it("A3: a tie, or no positive score, hangs nobody", () => {
    const tie = game(NAMED)
      .night()
      .day(
        "Лена>Коля Вася>Коля Тоша>Коля Эля>Коля Адам>Коля Гоша>Коля " +
          "Коля>Лена Маша>Лена Шура>Лена Серж>Лена Дина>Лена Шахин>Лена " +
          "Док+Оля Проша+Оля Миша+Оля Оля+Миша Петя+Миша",
      );
    expect(dayRu(tie).lines).toEqual(["Голоса разделились — никто не покидает город."]);
    expect(dayEn(tie).lines).toEqual(["The vote is split — nobody leaves the town."]);
    const n = game(TEN).night();
    const blue = n.day(allRed(votersOf(n), "Вася", "Тоша").replace(/>/g, "+"));
    expect(dayRu(blue).lines).toEqual(["Голоса разделились — никто не покидает город."]);
  });

  it("A3: the lawyer's protected player is 'отмазан'", () => {
    const n = game(NAMED).night({ Адам: protect("Коля") });
    const g = n.day(allRed(votersOf(n), "Коля", "Лена"));
    expect(dayRu(g).lines).toEqual(["Игрок Коля отмазан — никто не покидает город."]);
    expect(dayEn(g).lines).toEqual(["Коля was excused by the lawyer — nobody leaves the town."]);
  });

  it("A3: modkills follow the hanging, and the end of the game closes the day", () => {
    const n = game("Аня=boss Оля=citizen Катя=citizen Петя=citizen Юра=citizen").night();
    const g = n.day(allRed(votersOf(n), "Аня", "Оля"), { gm: [{ modkill: "Петя", reason: "мат" }] });
    expect(dayRu(g)).toEqual({
      title: "Итоги дня 1",
      lines: [
        "По итогам голосования казнён игрок Аня.",
        "Игрок Петя исключён из игры (модкилл).",
        "Победа города!",
      ],
    });
    expect(dayEn(g).lines).toEqual([
      "Player Аня was hanged by the vote.",
      "Player Петя was removed from the game (modkill).",
      "The town wins!",
    ]);
  });

  it("A3: a day modkill shows the role at more than 10 alive", () => {
    const n = game(NAMED).night();
    const g = n.day(allRed(votersOf(n), "Шура", "Вася"), { gm: [{ modkill: "Гоша", reason: "мат" }] });
    expect(dayRu(g).lines).toEqual([
      "По итогам голосования казнён игрок Шура. Роль: Шериф.",
      "Игрок Гоша исключён из игры (модкилл). Роль: Громила.",
    ]);
    expect(dayEn(g).lines).toEqual([
      "Player Шура was hanged by the vote. Role: Sheriff.",
      "Player Гоша was removed from the game (modkill). Role: Thug.",
    ]);
  });
});

describe("vote count (V4)", () => {
  it("V4: every vote shows as 1; targets by votes then name, voters as they voted; lost votes and non-voters", () => {
    const g = game(NAMED).night(
      { Вася: killAndIntimidate("Коля", "Лена") },
      { rolls: { bossExposed: false } },
    );
    const m = cast(g.match, [
      ["Тоша", "red", "Гоша"],
      ["Вася", "red", "Маша"],
      ["Дина", "red", "Маша"],
      ["Тоша", "red", "Маша"], // V1: only the last vote counts
      ["Проша", "red", "Гоша"], // counts 2, shown as 1
      ["Шура", "red", "Гоша"],
      ["Док", "blue", "Шура"], // counts 3, shown as 1
      ["Петя", "blue", "Гоша"],
    ]);
    expect(voteCountPost(m.day, m.state, "ru")).toEqual({
      title: "Голосование, день 1",
      lines: [
        "Против:",
        "Маша (3): Вася, Дина, Тоша",
        "Гоша (2): Проша, Шура",
        "В защиту:",
        "Гоша (1): Петя",
        "Шура (1): Док",
        "Лишены голоса: Лена",
        "Не проголосовали: Адам, Гоша, Маша, Миша, Оля, Серж, Шахин, Эля",
      ],
    });
    expect(voteCountPost(m.day, m.state, "en")).toEqual({
      title: "Vote count, day 1",
      lines: [
        "Against:",
        "Маша (3): Вася, Дина, Тоша",
        "Гоша (2): Проша, Шура",
        "In defence:",
        "Гоша (1): Петя",
        "Шура (1): Док",
        "Cannot vote: Лена",
        "Not voted yet: Адам, Гоша, Маша, Миша, Оля, Серж, Шахин, Эля",
      ],
    });
  });

  it("V7: voters are listed in the order they voted (a changed vote moves to the end); an early vote is marked from day 3", () => {
    const five = "Аня=boss Оля=citizen Катя=citizen Петя=citizen Юра=citizen";
    const all = ["Аня", "Оля", "Катя", "Петя", "Юра"];
    const day1 = cast(game(five).night().match, [
      ["Юра", "red", "Аня", "early"],
      ["Петя", "red", "Аня"],
      ["Катя", "blue", "Аня"],
      ["Катя", "red", "Аня"], // V1: the last vote counts, and it was cast last
    ]);
    // Before day 3 the word has no effect (V7), so nothing is marked.
    expect(voteCountPost(day1.day, day1.state, "ru").lines).toContain("Аня (3): Юра, Петя, Катя");
    const day3 = cast(game(five).night().day(ring(all)).night().day(ring(all)).night().match, [
      ["Юра", "red", "Аня", "early"],
      ["Петя", "red", "Аня"],
      ["Оля", "blue", "Петя"],
    ]);
    expect(voteCountPost(day3.day, day3.state, "ru").lines.slice(0, 4)).toEqual([
      "Против:",
      "Аня (2): Юра (досрочно), Петя",
      "В защиту:",
      "Петя (1): Оля",
    ]);
    expect(voteCountPost(day3.day, day3.state, "en").lines[1]).toBe("Аня (2): Юра (early), Петя");
  });

  it("V4: empty sections are left out", () => {
    const g = game("Аня=boss Оля=citizen Катя=citizen Петя=citizen Юра=citizen").night();
    const m = cast(g.match, [["Оля", "red", "Аня"]]);
    expect(voteCountPost(m.day, m.state, "ru")).toEqual({
      title: "Голосование, день 1",
      lines: ["Против:", "Аня (1): Оля", "Не проголосовали: Аня, Катя, Петя, Юра"],
    });
    const all = cast(m, [
      ["Аня", "blue", "Оля"],
      ["Катя", "blue", "Оля"],
      ["Петя", "blue", "Оля"],
      ["Юра", "blue", "Оля"],
    ]);
    expect(voteCountPost(all.day, all.state, "en").lines).toEqual([
      "Against:",
      "Аня (1): Оля",
      "In defence:",
      "Оля (4): Аня, Катя, Петя, Юра",
    ]);
  });
});

describe("the count post laid out from public seats and votes (V4, V6, V7)", () => {
  // TEXTS.ru.md, "Vote count": seats 0–6 are Вася, Петя, Коля, Маша, Оля, Лена (cannot vote), Гоша.
  const seat = (name: string, cannotVote = false) => ({ name, alive: true, cannotVote });
  const publicCount = (mashaEarly: boolean): PublicCount => ({
    seats: [
      seat("Вася"),
      seat("Петя"),
      seat("Коля"),
      seat("Маша"),
      seat("Оля"),
      seat("Лена", true),
      seat("Гоша"),
    ],
    votes: [
      { seat: 1, color: "red", target: 0, early: false },
      { seat: 2, color: "red", target: 0, early: false },
      { seat: 3, color: "red", target: 0, early: mashaEarly },
      { seat: 4, color: "red", target: 3, early: false },
      { seat: 0, color: "blue", target: 2, early: false },
    ],
  });
  const example = [
    "Против:",
    "Вася (3): Петя, Коля, Маша",
    "Маша (1): Оля",
    "В защиту:",
    "Коля (1): Вася",
    "Лишены голоса: Лена",
    "Не проголосовали: Гоша",
  ];

  it("V4, V6: the lines under the title are TEXTS.ru.md's example, word for word", () => {
    expect(countLines(publicVoteCountLines(publicCount(false), false, "ru"), "ru")).toEqual(example);
  });

  it("V7: an early vote is marked only where the word has effect, and a count without a day has no mark", () => {
    expect(countLines(publicVoteCountLines(publicCount(true), false, "ru"), "ru")).toEqual(example);
    expect(countLines(publicVoteCountLines(publicCount(true), true, "ru"), "ru")[1]).toBe(
      "Вася (3): Петя, Коля, Маша (досрочно)",
    );
  });

  it("V7: with the day's number, the title is added and the mark has effect from day 3", () => {
    expect(
      countPost(publicVoteCountSections({ day: 2, earlyFromDay: 3, ...publicCount(true) }, "ru"), "ru"),
    ).toEqual({
      title: "Голосование, день 2",
      lines: example,
    });
    const day3 = countPost(
      publicVoteCountSections({ day: 3, earlyFromDay: 3, ...publicCount(true) }, "ru"),
      "ru",
    );
    expect(day3.title).toBe("Голосование, день 3");
    expect(day3.lines[1]).toBe("Вася (3): Петя, Коля, Маша (досрочно)");
  });
});

describe("replacement (P4)", () => {
  it("P4: the replacement line, and later texts use the substitute's name", () => {
    expect(replacementLine("Вася", "Петя", "ru")).toBe("Замена игрока: Вася → Петя.");
    expect(replacementLine("Вася", "Петя", "en")).toBe("Player replaced: Вася → Петя.");
    const g = game(NAMED).night({ Вася: kill("Ваня") }, { gm: [{ replace: "Коля", with: "Ваня" }] });
    expect(nightRu(g).lines).toEqual(["Погиб игрок Ваня. Роль: Мирный житель."]);
  });
});
