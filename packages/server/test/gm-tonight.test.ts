import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { SeatTonight } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { detail, expectOk, NICKS, NIGHT_MS, setUpGame } from "./play.ts";

// The hand deal follows RULES.md §1's table: Аня boss, Борис troll, Вика elf, Гоша lawyer, Даша thug,
// Егор maniac, Ёлка sheriff, Женя sergeant, Зоя doctor, Игорь girl, Катя prosecutor, Лёва shahid,
// Маша … Рома citizens.
const seat = (nick: string): number => NICKS.indexOf(nick);
const CITIZENS: SeatTonight[] = ["none", "none", "none", "none", "none"];

describe("the GM's table of tonight's moves", () => {
  it("O1, M4, T1, P2: each seat's move as the night goes, for the GM only; none by day", async () => {
    const t = await testServer();
    try {
      const g = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const by = (nick: string) => g.players[seat(nick)]!;
      const act = (nick: string, body: unknown) => by(nick).post(`/api/games/${g.id}/actions`, body);
      const tonight = async () => (await detail(g.gm, g.id)).gm!.tonight;

      // Everyone with a move owes it (P2); the troll, the elf and the citizens owe nothing of their own.
      // boss troll elf lawyer thug maniac sheriff sergeant doctor girl prosecutor shahid, then citizens
      expect(await tonight()).toEqual([
        ...["owes", "none", "none", "owes", "owes", "owes", "owes", "owes", "owes", "owes", "owes", "owes"],
        ...CITIZENS,
      ]);

      expectOk(await act("Борис", { act: "mafia", kill: [seat("Маша")] })); // M4: the troll sends it
      expectOk(await act("Ёлка", { act: "pass" })); // T1: the sheriff passes for the pair
      expectOk(await act("Игорь", { act: "visit", target: seat("Петя") }));
      expectOk(await act("Гоша", { act: "mafia", kill: [seat("Ника")] })); // the lawyer's protect is still owed
      expect(await tonight()).toEqual([
        "mafia", // Аня, boss: the troll's action covers her
        "sent", // Борис, troll
        "mafia", // Вика, elf
        "owes", // Гоша, lawyer
        "owes", // Даша, thug
        "owes", // Егор, maniac
        "sent", // Ёлка, sheriff
        "pair", // Женя, sergeant
        "owes", // Зоя, doctor
        "sent", // Игорь, girl
        "owes", // Катя, prosecutor
        "owes", // Лёва, shahid
        ...CITIZENS,
      ]);

      // A player's detail never holds the GM's table.
      expect((await detail(by("Женя"), g.id)).gm).toBeNull();
      expect((await detail(by("Маша"), g.id)).gm).toBeNull();

      await t.clock.advance(NIGHT_MS);
      const day = await detail(g.gm, g.id);
      expect(day.summary.phase).toEqual({ kind: "day", number: 1 });
      expect(day.gm!.tonight).toBeNull();
    } finally {
      await t.close();
    }
  });
});
