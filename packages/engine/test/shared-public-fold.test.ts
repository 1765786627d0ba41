// The seats of a game share one fold of the public events (BotViews): today's votes, the past votes and
// the results are folded once, from the events everyone sees, and each seat's fold keeps the rest from
// what its own player may see (S2). Each seat's view must still be exactly viewFor's, and the shared lists
// must be exactly the public viewer's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { audienceOf, gameEvents } from "../src/events.ts";
import { type GameView, type Match, type RoleId, type Seat, type Viewer } from "../src/index.ts";
import { playTalkingGame } from "../src/bots-entry.ts";
import { playRandomGame } from "../src/random-play.ts";
import { ViewFold, viewFor } from "../src/view.ts";
import { gameWithSubstitutes } from "./substitutes.ts";

const rolesOf = (m: Match): RoleId[] => m.setup.players.map((p) => p.role);
const player = (seat: Seat): Viewer => ({ kind: "player", seat });
const PUBLIC: Viewer = { kind: "public" };

/** The shared lists hold public events only: every result's audience is everyone. */
function onlyPublic(view: GameView): void {
  for (const r of view.results) expect(audienceOf(r)).toEqual({ to: "everyone" });
}

describe("the public events folded once for all seats", () => {
  it("S2: player folds sharing the public fold's lists, read in pieces of any size, equal viewFor; the shared lists are the public view's", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 30 }),
        (seed, pieces) => {
          // Random legal play with the GM's modkills (F2), and now and then a substitute (P4) at a day's end.
          const m = gameWithSubstitutes(seed);
          const events = gameEvents(m);
          const roles = rolesOf(m);
          const shared = new ViewFold(PUBLIC, roles);
          const folds = roles.map((_, s) => new ViewFold(player(s), roles, shared));
          let end = 0;
          for (let i = 0; end < events.length; i++) {
            end = Math.min(events.length, end + pieces[i % pieces.length]!);
            const upTo = events.slice(0, end);
            shared.add(upTo);
            const pub = viewFor(upTo, PUBLIC, roles);
            folds.forEach((fold, s) => {
              fold.add(upTo);
              const view = fold.view();
              expect(view).toStrictEqual(viewFor(upTo, player(s), roles));
              expect(view.votes).toBe(shared.view().votes);
              expect(view.pastVotes).toBe(shared.view().pastVotes);
              expect(view.results).toBe(shared.view().results);
              expect(view.votes).toStrictEqual(pub.votes);
              expect(view.pastVotes).toStrictEqual(pub.pastVotes);
              expect(view.results).toStrictEqual(pub.results);
              onlyPublic(view);
              compared++;
            });
          }
        },
      ),
      { seed: 20261204, numRuns: 20 },
    );
    expect(compared).toBeGreaterThan(20 * 17 * 5);
  });

  it("S2: in talking games each seat's BotView equals viewFor at every act and post, and the seats hold the same public lists", () => {
    let looks = 0;
    let sharedLooks = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        // The views of one match as they were handed out, seat by seat.
        let at: Match | null = null;
        let seen: GameView[] = [];
        playTalkingGame(seed, {
          observe: (m, seat, bot) => {
            const events = gameEvents(m);
            expect(bot.view).toStrictEqual(viewFor(events, player(seat), rolesOf(m)));
            const pub = viewFor(events, PUBLIC, rolesOf(m));
            expect(bot.view.votes).toStrictEqual(pub.votes);
            expect(bot.view.results).toStrictEqual(pub.results);
            onlyPublic(bot.view);
            if (m !== at) [at, seen] = [m, []];
            for (const other of seen) {
              expect(bot.view.votes).toBe(other.votes);
              expect(bot.view.pastVotes).toBe(other.pastVotes);
              expect(bot.view.results).toBe(other.results);
              sharedLooks++;
            }
            seen.push(bot.view);
            looks++;
          },
        });
      }),
      { seed: 20261205, numRuns: 12 },
    );
    expect(looks).toBeGreaterThan(12 * 100);
    expect(sharedLooks).toBeGreaterThan(12 * 20);
  });

  it("S2: only the public viewer's fold may lend its lists, and only when it has read as far", () => {
    const m = playRandomGame("shared-guard");
    const roles = rolesOf(m);
    expect(() => new ViewFold(player(1), roles, new ViewFold(player(0), roles))).toThrow(/public/u);
    expect(() => new ViewFold(player(1), roles, new ViewFold({ kind: "gm" }, roles))).toThrow(/public/u);
    const shared = new ViewFold(PUBLIC, roles);
    const fold = new ViewFold(player(0), roles, shared);
    const events = gameEvents(m);
    fold.add(events);
    expect(() => fold.view()).toThrow(/same events/u);
    shared.add(events);
    expect(fold.view()).toStrictEqual(viewFor(events, player(0), roles));
  });
});
