// The server builds the published results and the vote count from public events and views, never from the
// match. These properties check that what the public sees is enough: the results and the count built from
// it are the ones the engine's outcomes and ballots give, at every point of random games with substitutes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dayAnnouncement,
  eventsSeenBy,
  isRejection,
  nightAnnouncement,
  publicDay,
  publicVoteCountSections,
  publishedResults,
  replace,
  type DayOutcome,
  type Match,
  type NightOutcome,
} from "../src/index.ts";
import { gameEvents } from "../src/events.ts";
import { viewFor } from "../src/view.ts";
import { voteCountSections } from "../src/announce.ts";
import { MATCH_CALLS, playRandomGame, type MatchCalls } from "../src/random-play.ts";

/** Random play with a substitute now and then (P4), so that names change between results. */
function withSubstitutes(check: (m: Match) => void): MatchCalls {
  let phases = 0;
  const substitute = (m: Match): Match => {
    phases++;
    if (phases % 3 !== 1) return m;
    const next = replace(m, (phases * 5) % m.state.players.length, `Замена${phases}`, "P4: отсутствует");
    return isRejection(next) ? m : next;
  };
  return {
    ...MATCH_CALLS,
    vote: (m, seat, v) => {
      const next = MATCH_CALLS.vote(m, seat, v);
      if (!isRejection(next)) check(next);
      return next;
    },
    endNight: (m, decisions) => MATCH_CALLS.endNight(substitute(m), decisions),
    endDay: (m) => MATCH_CALLS.endDay(substitute(m)),
  };
}

describe("public builders", () => {
  it("A1, A3, P4: the results published from the public events are the GM's post of each outcome, with the names of that moment", () => {
    let results = 0;
    let renamed = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        const m = playRandomGame(seed, { calls: withSubstitutes(() => undefined) });
        const roles = m.setup.players.map((p) => p.role);
        const seen = eventsSeenBy(gameEvents(m), { kind: "public" }, roles);
        const expected = m.outcomes.map(({ outcome, players }) => {
          const a =
            outcome.phase.kind === "night"
              ? nightAnnouncement(outcome as NightOutcome, players, "ru")
              : dayAnnouncement(outcome as DayOutcome, players, "ru");
          return { phase: outcome.phase, lines: [a.title, ...a.lines] };
        });
        expect(publishedResults(seen, "ru")).toEqual(expected);
        results += expected.length;
        if (m.outcomes.some(({ players }) => players.some((p) => p.name.startsWith("Замена")))) renamed++;
      }),
      { seed: 4242, numRuns: 100 },
    );
    expect(results).toBeGreaterThan(500);
    expect(renamed).toBeGreaterThan(50);
  });

  it("V2, V4, V6, V7: after every vote of random games, the count from the public view is the count from the ballots", () => {
    let counted = 0;
    let early = 0;
    let lost = 0;
    const check = (m: Match): void => {
      const roles = m.setup.players.map((p) => p.role);
      const sections = publicVoteCountSections(
        publicDay(viewFor(gameEvents(m), { kind: "public" }, roles)),
        "ru",
      );
      expect(sections).toEqual(voteCountSections(m.day, m.state, "ru"));
      counted++;
      if ([...sections.red, ...sections.blue].some((l) => l.includes("досрочно"))) early++;
      if (sections.lost !== null) lost++;
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        playRandomGame(seed, { calls: withSubstitutes(check) });
      }),
      { seed: 5151, numRuns: 100 },
    );
    expect(counted).toBeGreaterThan(5000);
    expect(early).toBeGreaterThan(100);
    expect(lost).toBeGreaterThan(100);
  });
});
