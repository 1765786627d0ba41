import { createHash } from "node:crypto";
import {
  dayAnnouncement,
  nightAnnouncement,
  replayMatch,
  teamOf,
  type DayOutcome,
  type NightOutcome,
} from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { detail, expectOk, playToEnd, setUpGame, type Table } from "./play.ts";

/** The published results, as a replay of the downloaded file gives them (A1, A3). */
function replayedAnnouncements(file: unknown): string[][] {
  const m = replayMatch(file);
  return m.outcomes.map(({ outcome, players }) => {
    const a =
      outcome.phase.kind === "night"
        ? nightAnnouncement(outcome as NightOutcome, players, "ru")
        : dayAnnouncement(outcome as DayOutcome, players, "ru");
    return [a.title, ...a.lines];
  });
}

/** What every player sees at the start: their own role, their team, and nothing else (S1, S2). */
async function checkStart(table: Table): Promise<void> {
  const gm = await detail(table.gm, table.id);
  const roles = gm.view!.seats.map((s) => s.role!);
  expect(roles.every((r) => r !== null)).toBe(true);
  expect(gm.commitment).toMatch(/^[0-9a-f]{64}$/);
  for (const p of table.players) {
    const d = await detail(p, table.id);
    const seat = d.me.seat!;
    const mine = roles[seat]!;
    expect(d.me.kind).toBe("player");
    expect(d.roleCard?.role).toBe(mine);
    expect(d.view!.me?.role).toBe(mine);
    expect(d.commitment).toBe(gm.commitment);
    const team = teamOf(mine);
    d.view!.seats.forEach((s, i) => {
      const mayKnow = i === seat || (team !== null && teamOf(roles[i]!) === team);
      expect(s.role).toBe(mayKnow ? roles[i] : null);
    });
    // S1: the role message opens the player's channel with the GM.
    const own = d.channels.find((c) => c.id === `gm:${seat}`)!;
    expect(own.messages[0]!.html).toContain("Ваша роль");
    // S2: the mafia and the pair have their chats; nobody else has any.
    expect(d.channels.map((c) => c.id).sort()).toEqual(
      [`gm:${seat}`, ...(team === "mafia" ? ["mafia"] : team === "pair" ? ["pair"] : [])].sort(),
    );
  }
}

/** What everyone sees at the end: every role (R3), the seed that matches the commitment (F1), the replay. */
async function checkEnd(table: Table): Promise<GameDetail> {
  const gm = await detail(table.gm, table.id);
  expect(gm.summary.status).toBe("ended");
  const seed = gm.view!.seed!;
  expect(createHash("sha256").update(seed).digest("hex")).toBe(gm.commitment);
  const replay = await table.players[0]!.get(`/api/games/${table.id}/replay`);
  expectOk(replay);
  expect(replayedAnnouncements(replay.body)).toEqual(gm.announcements.map((a) => a.lines));
  for (const p of table.players) {
    const d = await detail(p, table.id);
    expect(d.view!.winner).toBe(gm.view!.winner);
    expect(d.view!.seats.map((s) => s.role)).toEqual(gm.view!.seats.map((s) => s.role));
    expect(d.announcements).toEqual(gm.announcements);
  }
  return gm;
}

describe("a whole 17-player game through HTTP", () => {
  it("runs in automatic mode from registration to a winner", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic");
      await checkStart(table);
      const phases = await playToEnd(t, table, 1, "automatic");
      expect(phases).toBeGreaterThan(1);
      const end = await checkEnd(table);
      expect(end.view!.winner).not.toBeNull();
    } finally {
      await t.close();
    }
  });

  it("runs with the GM reviewing every night, and publishes the GM's log at the end (F2)", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "review");
      await checkStart(table);
      await playToEnd(t, table, 2, "review");
      await checkEnd(table);
      const log = await table.players[3]!.get<{ seed: string; overrides: unknown[] }>(
        `/api/games/${table.id}/log`,
      );
      expectOk(log);
      expect(log.body.seed).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await t.close();
    }
  });

  it("shows each player the same public results, in Russian by default and in English on request", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic");
      expectOk(await table.gm.post(`/api/games/${table.id}/gm/close`));
      const first = await detail(table.players[0]!, table.id);
      expect(first.view!.phase).toEqual({ kind: "day", number: 1 });
      expect(first.announcements[0]!.lines[0]).toMatch(/Итоги ночи|ночь/i);
      for (const p of table.players)
        expect((await detail(p, table.id)).announcements).toEqual(first.announcements);
      const en = (await table.players[0]!.get<GameDetail>(`/api/games/${table.id}?lang=en`)).body;
      expect(en.announcements[0]!.lines[0]).toMatch(/night/i);
    } finally {
      await t.close();
    }
  });
});
