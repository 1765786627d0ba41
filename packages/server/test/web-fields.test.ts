import { DEFAULT_ROLES } from "@forum-mafia/engine";
import { DEFAULT_DEAL, type GameDetail, type GameLog } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { detail, expectOk, NICKS, NIGHT_MS, DAY_MS, setUpGame } from "./play.ts";

// What the web app reads beyond the engine's view: private results as text, role names, the GM's strikes,
// the viewer's stream position, and the published log. Roles as in gm.test.ts: Аня boss, Ёлка sheriff,
// Женя sergeant, Маша a citizen.
const seat = (nick: string): number => NICKS.indexOf(nick);

describe("the fields the web app reads", () => {
  it("S3: the protocol's standard deal, which the GM console offers, is the engine's", () => {
    expect(DEFAULT_DEAL).toEqual(DEFAULT_ROLES);
  });

  it("A2: a check's result reaches the sheriff and the sergeant as text, and nobody else; the GM alone gets strikes", async () => {
    const t = await testServer();
    try {
      const g = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const by = (nick: string) => g.players[seat(nick)]!;
      expectOk(await by("Женя").post(`/api/games/${g.id}/actions`, { act: "check", target: seat("Аня") }));
      await t.clock.advance(NIGHT_MS);
      const sheriff = await detail(by("Ёлка"), g.id);
      expect(sheriff.privateResults.map((r) => r.lines)).toEqual([["Проверка: Аня — мафия."]]);
      expect((await detail(by("Женя"), g.id)).privateResults).toEqual(sheriff.privateResults);
      for (const nick of ["Аня", "Маша"]) expect((await detail(by(nick), g.id)).privateResults).toEqual([]);
      expect(sheriff.roleNames.sheriff).toBe("Шериф");
      expect(sheriff.gm).toBeNull();
      // P2: everyone who had a night act and sent nothing got a strike; only the GM's table shows them.
      const gm = await detail(g.gm, g.id);
      expect(gm.gm!.strikes[seat("Женя")]).toEqual({ vote: 0, night: 0, conduct: 0 });
      expect(gm.gm!.strikes[seat("Зоя")]!.night).toBe(1);
      expect((await detail(by("Зоя"), g.id)).gm).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("streamAt: the detail says where the viewer's own stream stands, so the app resumes it without a gap", async () => {
    const t = await testServer();
    try {
      const g = await setUpGame(t, "automatic");
      const reader = g.players[0]!;
      const before: GameDetail = await detail(reader, g.id);
      expectOk(await g.gm.post(`/api/games/${g.id}/posts`, { text: "Доброе утро" }));
      const after: GameDetail = await detail(reader, g.id);
      expect(after.streamAt).toBe(before.streamAt + 1);
    } finally {
      await t.close();
    }
  });

  it("R3: the published log holds every event and the GM's explanation of each night", async () => {
    const t = await testServer();
    try {
      const g = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const running = await g.players[0]!.get(`/api/games/${g.id}/log`);
      expect(running.status).toBe(409);
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/modkill`, { seat: seat("Егор"), reason: "тест" }));
      for (let i = 0; i < 40 && (await detail(g.gm, g.id)).summary.status !== "ended"; i++) {
        const d = await detail(g.gm, g.id);
        if (d.view!.phase.kind === "night") await t.clock.advance(NIGHT_MS);
        else {
          // Everyone alive hangs the first living mafia member, so the town wins quickly.
          const target = d.view!.seats.find(
            (s) => s.alive && ["boss", "troll", "elf", "lawyer", "thug"].includes(s.role!),
          )!;
          for (const s of d.view!.seats)
            if (s.alive && s.seat !== target.seat && !s.cannotVote)
              await g.players[s.seat]!.post(`/api/games/${g.id}/votes`, {
                color: "red",
                target: target.seat,
              });
          await t.clock.advance(DAY_MS);
        }
      }
      const log = (await g.players[0]!.get<GameLog>(`/api/games/${g.id}/log`)).body;
      expect(log.events[0]!.type).toBe("gameStarted");
      expect(log.events.at(-1)!.type).toBe("gameEnded");
      expect(log.explanations[0]!.phase).toEqual({ kind: "night", number: 1 });
      expect(log.explanations[0]!.lines.join("\n")).toContain("Егор");
      expect(log.overrides.map((o) => o.kind)).toContain("modkill");
    } finally {
      await t.close();
    }
  });
});
