/**
 * Issue 31, done when: «An automatic game with the hide-and-strike policy replays exactly through `npm run
 * replay`.» A game with no human decisions: one player swears in six posts during night 1 (G5); the policy
 * hides each, warns, and strikes the third and the sixth (P3: the second strike is a modkill at the end of
 * the night); then bots' moves play it to the end. The finished game's replay file, run by the real command,
 * must give the results the game published, phase by phase.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GameDetail } from "@forum-mafia/protocol";
import { expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { NIGHT_MS, S3_DEFAULTS, detail, expectOk, playToEnd, setUpGame } from "./play.ts";
import { replayCommand } from "./replay-command.ts";

const HAND = ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"];

interface Outcome {
  readonly phases: readonly { readonly died: readonly string[]; readonly modkilled: readonly string[] }[];
  readonly winner: string | null;
}

it("G5, P3: a hide-and-strike game's replay file gives, through npm run replay, the results it published", async () => {
  const t = await testServer({ seed: () => "g5-cli" });
  try {
    const setup = { roles: HAND as never[], options: S3_DEFAULTS };
    const table = await setUpGame(t, "automatic", { hand: HAND }, setup, {
      policy: "hideStrike",
      strikes: true,
    });
    const egor = table.players[5]!;
    for (const text of ["пиздец", "ты дебил, Вика", "х*й вам", "бл*ть", "Даша, ты урод", "еб*ть"])
      expectOk(await egor.post(`/api/games/${table.id}/posts`, { text }));
    await t.clock.advance(NIGHT_MS);
    await playToEnd(t, table, 11, "automatic");
    const file = join(t.dir, "g5-replay.json");
    writeFileSync(file, (await table.gm.get(`/api/games/${table.id}/replay`)).raw);
    const run = replayCommand(file);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as Outcome;
    // What the game published: the winner, and each phase's deaths, by name (the public view's results).
    const ended: GameDetail = await detail(table.gm, table.id);
    const names = ended.view!.seats.map((s) => s.name);
    expect(out.winner).toBe(ended.summary.winner);
    expect(out.phases[0]!.modkilled).toEqual(["Егор"]);
    expect(out.phases.map((p) => [...p.died].sort())).toEqual(
      ended.view!.results.map((r) => r.died.map((s) => names[s]!).sort()),
    );
  } finally {
    await t.close();
  }
});
