// Issue 28: the bots' votes must not tell their roles. An attacker who knows the bots' code replays their
// public logic on the public thread and asks, voter by voter, whether each vote is the one that logic
// predicts; a mafia bot that votes by another logic (pushing the likeliest town role, sparing its
// teammates) is predicted less often than a town bot, and so stands out. The test plays seeded bot games
// and compares how often the prediction matches town votes and mafia votes. (The demo's talking bots cast
// the same botVote in their vote's post, from the same view: one path for both.)
import { describe, expect, it } from "vitest";
import { gameEvents } from "../src/events.ts";
import { isMafia, type GameView, type Seat } from "../src/index.ts";
import { roleSpec } from "../src/roles.ts";
import { RANDOM_PLAYER_NAMES, playBotGame, playTalkingGame } from "../src/bots-entry.ts";
import { viewFor } from "../src/view.ts";

/**
 * The attacker's model, written from the bots' published rule (docs/engine.md) and the public thread alone:
 * a player announced town (R1, R2) or exposed as the doctor (T3a) looks innocent (−10), one announced mafia
 * or maniac, or exposed as the boss (M3), guilty (+10); a voter's red votes today on the innocent (+2) or
 * the guilty (−2), and earlier days' votes read the same way (red on the innocent +2, on the guilty −1; blue
 * for the innocent −1, for the guilty +2), add to the voter's own score. The predicted vote is red for the
 * living other player with the highest 2·guilt + today's red votes on them + their own score.
 */
function predicted(pub: GameView, voter: Seat): Set<Seat> {
  const guilt = new Map<Seat, number>();
  for (const s of pub.seats)
    if (s.role !== null) guilt.set(s.seat, roleSpec(s.role).faction === "town" ? -10 : 10);
  for (const r of pub.results)
    if (r.type === "nightResults") for (const e of r.exposed) guilt.set(e.seat, e.as === "boss" ? 10 : -10);
  const g = (s: Seat): number => guilt.get(s) ?? 0;
  const score = new Map<Seat, number>();
  const add = (s: Seat, d: number): void => void score.set(s, (score.get(s) ?? 0) + d);
  for (const v of pub.votes) {
    if (v.color === "red") add(v.target, 1);
    if (v.color === "red" && g(v.target) !== 0) add(v.seat, g(v.target) < 0 ? 2 : -2);
  }
  for (const v of pub.pastVotes) {
    if (g(v.target) === 0) continue;
    const onInnocent = g(v.target) < 0;
    add(v.seat, v.color === "red" ? (onInnocent ? 2 : -1) : onInnocent ? -1 : 2);
  }
  const others = pub.seats.filter((s) => s.alive && s.seat !== voter).map((s) => s.seat);
  const total = (s: Seat): number => 2 * g(s) + (score.get(s) ?? 0);
  const top = Math.max(...others.map(total));
  return new Set(others.filter((s) => total(s) === top));
}

interface Tally {
  votes: number;
  matched: number;
  blue: number;
}

/** Town and mafia votes over seeded games, and how many the attacker's model predicted. */
function attack(games: number): { town: Tally; mafia: Tally } {
  const town: Tally = { votes: 0, matched: 0, blue: 0 };
  const mafia: Tally = { votes: 0, matched: 0, blue: 0 };
  const count = (
    mafioso: boolean,
    pub: GameView,
    seat: Seat,
    vote: { color: string; target: Seat },
  ): void => {
    const t = mafioso ? mafia : town;
    t.votes++;
    if (vote.color === "blue") t.blue++;
    else if (predicted(pub, seat).has(vote.target)) t.matched++;
  };
  for (let g = 0; g < games; g++)
    playBotGame(`attack-${g}`, {
      observe: (m, seat, decision) => {
        if (decision.kind !== "vote") return;
        const pub = viewFor(
          gameEvents(m),
          { kind: "public" },
          m.setup.players.map((p) => p.role),
        );
        count(isMafia(m.state.players[seat]!.role), pub, seat, decision.vote);
      },
    });
  return { town, mafia };
}

/** The two-proportion z statistic of `of`/votes, pooled (0 when neither side has any). */
function z(a: Tally, b: Tally, of: "matched" | "blue" = "matched"): number {
  const p = (a[of] + b[of]) / (a.votes + b.votes);
  if (p === 0) return 0;
  const se = Math.sqrt(p * (1 - p) * (1 / a.votes + 1 / b.votes));
  return (a[of] / a.votes - b[of] / b.votes) / se;
}

describe("the bots' votes do not tell their roles (issue 28)", () => {
  it("V1, S2: replaying the public logic predicts town and mafia bots' votes equally often (within 3 standard errors), over 60 seeded games", () => {
    const { town, mafia } = attack(60);
    const rate = (t: Tally): string => `${t.matched}/${t.votes} = ${(t.matched / t.votes).toFixed(3)}`;
    const said =
      `town ${rate(town)}, mafia ${rate(mafia)}, z = ${z(town, mafia).toFixed(2)}; ` +
      `blue: town ${town.blue}, mafia ${mafia.blue}`;
    expect(town.votes).toBeGreaterThan(2000);
    expect(mafia.votes).toBeGreaterThan(500);
    // The model is the bots' rule, so it predicts most votes (the noise decides the rest).
    expect(town.matched / town.votes, said).toBeGreaterThan(0.4);
    expect(Math.abs(z(town, mafia)), said).toBeLessThan(3);
    // Nor do blue votes (a mafioso defending a teammate under fire) tell them apart.
    expect(Math.abs(z(town, mafia, "blue")), said).toBeLessThan(3);
  });

  it("V2, S2: a talking bot's first post of the day names the player it then votes for as often whether it is town or mafia (within 3 standard errors), over 60 seeded games", () => {
    // The opening post names the bot's suspect; its vote's post comes later the same day. A mafia bot that
    // talked up the team's agreed push but voted by the public rule would name its vote's target less often.
    const town: Tally = { votes: 0, matched: 0, blue: 0 };
    const mafia: Tally = { votes: 0, matched: 0, blue: 0 };
    for (let g = 0; g < 60; g++) {
      const game = playTalkingGame(`attack-talk-${g}`);
      const roles = game.match.state.players.map((p) => p.role);
      for (const vote of game.steps) {
        if (vote.kind !== "post" || vote.vote === null || vote.vote.color !== "red") continue;
        const day = game.thread.find((p) => p.seat === vote.seat && p.text === vote.text)!.phase.number;
        const opening = game.steps.find(
          (st) =>
            st.kind === "post" &&
            st.seat === vote.seat &&
            st.slot === 0 &&
            game.thread.find((p) => p.seat === st.seat && p.text === st.text)?.phase.number === day,
        );
        if (opening?.kind !== "post") continue;
        const t = isMafia(roles[vote.seat]!) ? mafia : town;
        t.votes++;
        if (opening.text.includes(RANDOM_PLAYER_NAMES[vote.vote.target]!)) t.matched++;
      }
    }
    const rate = (t: Tally): string => `${t.matched}/${t.votes} = ${(t.matched / t.votes).toFixed(3)}`;
    const said = `town ${rate(town)}, mafia ${rate(mafia)}, z = ${z(town, mafia).toFixed(2)}`;
    expect(town.votes).toBeGreaterThan(1000);
    expect(mafia.votes).toBeGreaterThan(300);
    expect(Math.abs(z(town, mafia)), said).toBeLessThan(3);
  });
});
