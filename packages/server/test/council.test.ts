// M2c, F2: the council's listed questions on the server. In an automatic game the rules answer them in the
// mafia's private results; a question of one's own is refused there. In a review game the GM sees the rules'
// answer, accepts it without a reason or changes it with one, and the log keeps the reason. Expected answers
// are worked out by hand from the deal below.
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail, MyGames, NightDraft } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { gameLog } from "../src/views/gm-views.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { detail, DAY_MS, expectOk, NICKS, NIGHT_MS, setUpGame, type Table } from "./play.ts";

// RULES.md §1's order: Аня boss, Борис troll, Вика elf, Гоша lawyer, Даша thug, Егор maniac, Ёлка sheriff,
// Женя sergeant, Зоя doctor, Игорь girl, Катя prosecutor, Лёва shahid, Маша … Рома citizens.
const HAND = { hand: [...DEFAULT_ROLES] };
const seat = (nick: string): number => NICKS.indexOf(nick);
const MAFIA = ["Аня", "Борис", "Вика", "Гоша", "Даша"];

const SHERIFF_ALIVE = "Есть ли среди живых шериф?";
const MANIAC_MOVED = "Был ли у маньяка ход прошлой ночью?";
const DOCTOR_ALIVE = "Есть ли среди живых доктор?";

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
const councils = (d: GameDetail) =>
  d.view!.privateResults.flatMap((r) =>
    r.council ? [[r.phase.number, r.council.question, r.council.answer]] : [],
  );

describe("M2c: the council in an automatic game", () => {
  it("M2c: a listed question is answered by the rules, before the night's deaths, to the mafia alone", () =>
    game("automatic", async (t, g) => {
      // Night 1: the maniac kills the sheriff while the boss asks whether the sheriff is alive: at the
      // night's start Ёлка was, so the answer is yes, though the morning announces Ёлка's death.
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: SHERIFF_ALIVE }));
      expectOk(await act(g.by("Егор"), g.id, { act: "quickKill", target: seat("Ёлка") }));
      await t.clock.advance(NIGHT_MS);
      for (const nick of NICKS) {
        const d = await detail(g.by(nick), g.id);
        expect([nick, councils(d)]).toEqual([nick, MAFIA.includes(nick) ? [[1, SHERIFF_ALIVE, "yes"]] : []]);
        if (!MAFIA.includes(nick)) expect(JSON.stringify(d)).not.toContain(SHERIFF_ALIVE);
      }
      const boss = await detail(g.by("Аня"), g.id);
      expect(boss.privateResults.flatMap((r) => r.lines)).toEqual([`${SHERIFF_ALIVE} — Совет ответил: да.`]);
      expect(boss.view!.seats[seat("Ёлка")]!.alive).toBe(false);
      const pub = await detail(new Client(() => t.server.app), g.id);
      expect(JSON.stringify(pub)).not.toContain(SHERIFF_ALIVE);

      // Night 2: the maniac made a move last night (the kill): yes; and the sheriff is no longer alive.
      await t.clock.advance(DAY_MS);
      expectOk(await act(g.by("Борис"), g.id, { act: "council", question: MANIAC_MOVED }));
      await t.clock.advance(NIGHT_MS);
      expect(councils(await detail(g.by("Вика"), g.id))).toEqual([
        [1, SHERIFF_ALIVE, "yes"],
        [2, MANIAC_MOVED, "yes"],
      ]);
      expect(councils(await detail(g.by("Женя"), g.id))).toEqual([]);
    }));

  it("M2c: a question of one's own is refused at submission, with its code and clause; nothing is stored", () =>
    game("automatic", async (_t, g) => {
      const res = await act(g.by("Аня"), g.id, { act: "council", question: "Зоя — доктор?" });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: { code: "council/not-listed", clause: "M2c", message: expect.stringMatching(/list/) },
      });
      const d = await detail(g.by("Аня"), g.id);
      expect(d.form!.submitted).toEqual([]);
      // The form offers the list (13 questions, RULES.md M2c as read in docs/readings.md), the text to send first.
      const council = d.form!.acts.find((a) => a.act === "council")!;
      expect(council.questions).toHaveLength(13);
      expect(council.questions!.map((q) => q.text)).toContain(SHERIFF_ALIVE);
      expect((await detail(g.gm, g.id)).gm!.council).toBeNull();
      // The English text of a listed question is the same question.
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: "Is the doctor among the living?" }));
      expect((await detail(g.gm, g.id)).gm!.council).toMatchObject({ suggested: "yes" });
      // The rules answer it: the automatic game's GM owes no answer («Мои игры», issue 15).
      const mine = (await g.gm.get<MyGames>("/api/me/games")).body;
      expect(mine.hosting.find((x) => x.id === g.id)!.owes).toEqual([]);
    }));
});

describe("M2c, F2: the council in a review game", () => {
  it("M2c: the draft shows the rules' answer to a listed question; accepting it needs no reason", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: DOCTOR_ALIVE }));
      await t.clock.advance(NIGHT_MS);
      const draft = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(draft).toMatchObject({
        councilQuestion: DOCTOR_ALIVE,
        councilAnswer: null,
        councilSuggested: "yes",
        blockedCode: "night/council-unanswered",
      });
      expect((await detail(g.gm, g.id)).gm!.council).toEqual({
        question: DOCTOR_ALIVE,
        answer: null,
        suggested: "yes",
      });
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "yes" }));
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      expect(councils(await detail(g.by("Даша"), g.id))).toEqual([[1, DOCTOR_ALIVE, "yes"]]);
      const room = t.server.games.rooms.get(g.id)!;
      expect(gameLog(room, "ru").overrides.filter((o) => o.kind === "council")).toEqual([
        { phase: { kind: "night", number: 1 }, kind: "council", detail: "yes", reason: "" },
      ]);
    }));

  it("F2: an answer other than the rules' needs a reason, refused without one naming the field; the log keeps it", () =>
    game("review", async (t, g) => {
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: DOCTOR_ALIVE }));
      await t.clock.advance(NIGHT_MS);
      for (const body of [{ answer: "no" }, { answer: "rejected" }, { answer: "no", reason: "   " }]) {
        const res = await g.gm.post(`/api/games/${g.id}/gm/council`, body);
        expect(res.status).toBe(400);
        const error = (res.body as { error: { code: string; message: string } }).error;
        expect(error.message).toMatch(/^reason\b/);
      }
      expect((await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body.councilAnswer).toBeNull();
      const reason = "совет подкуплен не до конца";
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "no", reason }));
      const draft = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(draft).toMatchObject({ councilAnswer: "no", councilSuggested: "yes", blocked: null });
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      expect(councils(await detail(g.by("Борис"), g.id))).toEqual([[1, DOCTOR_ALIVE, "no"]]);
      expect(councils(await detail(g.by("Зоя"), g.id))).toEqual([]);
      const room = t.server.games.rooms.get(g.id)!;
      const log = gameLog(room, "ru");
      expect(log.overrides.filter((o) => o.kind === "council")).toEqual([
        { phase: { kind: "night", number: 1 }, kind: "council", detail: "no", reason },
      ]);
      expect(log.moderation.filter((m) => m.kind === "council").map((m) => [m.detail, m.reason])).toEqual([
        ["no", reason],
      ]);
    }));

  it("M2c: a question of one's own stays allowed; the GM answers it freely, with no suggestion", () =>
    game("review", async (t, g) => {
      const own = "Проверял ли кто-нибудь Аню?";
      expectOk(await act(g.by("Аня"), g.id, { act: "council", question: own }));
      await t.clock.advance(NIGHT_MS);
      const draft = (await g.gm.get<NightDraft>(`/api/games/${g.id}/gm/draft`)).body;
      expect(draft).toMatchObject({ councilQuestion: own, councilSuggested: null });
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "rejected" }));
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
      expect(councils(await detail(g.by("Гоша"), g.id))).toEqual([[1, own, "rejected"]]);
    }));
});
