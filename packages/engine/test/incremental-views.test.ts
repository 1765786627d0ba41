// Views folded as a game goes on (ViewFold, EventReader, BotViews): the bots decide from views folded
// only from the events they have not read yet, and each must be the view viewFor folds from the whole
// list (S2: still only what that seat may see). Bot games also run on any role list S3 allows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventReader, gameEvents } from "../src/events.ts";
import {
  DEFAULT_ROLES,
  ROLE_IDS,
  type GameOptions,
  type GameView,
  type Match,
  type RoleId,
  type Seat,
  type Viewer,
} from "../src/index.ts";
import { THRESHOLDS } from "../src/options.ts";
import { BotViews, playBotGame, playTalkingGame } from "../src/bots-entry.ts";
import { nightForm } from "../src/night-form.ts";
import { factionOf } from "../src/roles.ts";
import { ViewFold, viewFor } from "../src/view.ts";
import { gameWithSubstitutes } from "./substitutes.ts";

const rolesOf = (m: Match): RoleId[] => m.setup.players.map((p) => p.role);
const player = (seat: Seat): Viewer => ({ kind: "player", seat });

/** S3: a role list the engine deals: each role once except citizen, a town player, and a mafioso or the maniac. */
const roleLists: fc.Arbitrary<RoleId[]> = fc
  .tuple(
    fc.subarray(ROLE_IDS.filter((r) => r !== "citizen")),
    fc.nat({ max: 12 }),
    fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
  )
  .map(([named, citizens, order]) => {
    const list: RoleId[] = [...named, ...Array.from({ length: citizens }, (): RoleId => "citizen")];
    // The list's order only matters to the deal's shuffle; vary it anyway.
    return list
      .map((role, i) => ({ role, key: order[i % order.length]! * 64 + i }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.role);
  })
  .filter((list) => list.some((r) => factionOf(r) === "town") && list.some((r) => factionOf(r) !== "town"));

/** S3: every threshold set to a number in 0..20. */
const thresholds: fc.Arbitrary<Partial<GameOptions>> = fc
  .array(fc.integer({ min: 0, max: 20 }), { minLength: THRESHOLDS.length, maxLength: THRESHOLDS.length })
  .map((values) => Object.fromEntries(THRESHOLDS.map((name, i) => [name, values[i]!])));

describe("views folded as the game goes on", () => {
  it("S2: a view folded incrementally equals the view folded from the whole list, at every bot decision", () => {
    let games = 0;
    let decisions = 0;
    let kept = 0;
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.option(roleLists, { freq: 3 }),
        fc.option(thresholds, { freq: 2 }),
        (seed, roles, gameOptions) => {
          // Views handed out earlier, with a copy as they were: a later fold must not change them.
          const given: { view: GameView; copy: GameView }[] = [];
          const m = playBotGame(seed, {
            ...(roles ? { roles } : {}),
            ...(gameOptions ? { gameOptions } : {}),
            observe: (match, seat, _decision, bot) => {
              expect(bot.view).toStrictEqual(viewFor(gameEvents(match), player(seat), rolesOf(match)));
              expect(bot.form).toStrictEqual(nightForm(match.state, seat));
              if (decisions % 17 === 0) given.push({ view: bot.view, copy: structuredClone(bot.view) });
              decisions++;
            },
          });
          for (const g of given) expect(g.view).toStrictEqual(g.copy);
          kept += given.length;
          expect(m.state.winner).not.toBeNull();
          games++;
        },
      ),
      { seed: 20261202, numRuns: 120 },
    );
    expect(games).toBeGreaterThanOrEqual(100);
    expect(decisions).toBeGreaterThan(100 * 50);
    expect(kept).toBeGreaterThan(100);
  });

  it("S2: folded in pieces of any size, every viewer's view (each player, the public, the GM) equals viewFor of the list so far", () => {
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
          const viewers: Viewer[] = [...roles.map((_, s) => player(s)), { kind: "public" }, { kind: "gm" }];
          const folds = viewers.map((v) => new ViewFold(v, roles));
          let end = 0;
          for (let i = 0; end < events.length; i++) {
            end = Math.min(events.length, end + pieces[i % pieces.length]!);
            const upTo = events.slice(0, end);
            folds.forEach((fold, v) => {
              fold.add(upTo);
              expect(fold.view()).toStrictEqual(viewFor(upTo, viewers[v]!, roles));
              compared++;
            });
          }
        },
      ),
      { seed: 20261203, numRuns: 40 },
    );
    expect(compared).toBeGreaterThan(40 * 19 * 5);
  });

  it("S2: the events read as a match goes on are the match's events (gameEvents), at every step", () => {
    let steps = 0;
    for (let g = 0; g < 20; g++) {
      const reader = new EventReader();
      playBotGame(`reader-${g}`, {
        observe: (m) => {
          expect(reader.read(m)).toStrictEqual(gameEvents(m));
          steps++;
        },
      });
    }
    expect(steps).toBeGreaterThan(20 * 50);
  });

  it("S2: a talking game's bots decide and talk from their own views, as viewFor folds them from the whole list", () => {
    let checked = 0;
    for (let g = 0; g < 10; g++)
      playTalkingGame(`incremental-${g}`, {
        observe: (m, seat, bot) => {
          expect(bot.view).toStrictEqual(viewFor(gameEvents(m), player(seat), rolesOf(m)));
          expect(bot.form).toStrictEqual(nightForm(m.state, seat));
          checked++;
        },
      });
    expect(checked).toBeGreaterThan(10 * 50);
  });

  it("S2: BotViews gives each seat the BotView botView folds from the whole match", () => {
    const m = playBotGame("bot-views");
    const views = new BotViews(m);
    for (let s = 0; s < m.state.players.length; s++) {
      const v = views.of(m, s);
      expect(v.view).toStrictEqual(viewFor(gameEvents(m), player(s), rolesOf(m)));
      expect(views.of(m, s).view).toBe(v.view); // nothing new: the same view
    }
  });
});

/** S3: fixed role lists of several sizes. */
const SIZED: Record<number, readonly RoleId[]> = {
  5: ["boss", "sheriff", "doctor", "citizen", "citizen"],
  9: ["boss", "troll", "sheriff", "sergeant", "doctor", "girl", "maniac", "citizen", "citizen"],
  12: [
    "boss",
    "troll",
    "elf",
    "sheriff",
    "sergeant",
    "doctor",
    "girl",
    "prosecutor",
    "maniac",
    "shahid",
    "citizen",
    "citizen",
  ],
  21: [...DEFAULT_ROLES, "citizen", "citizen", "citizen", "citizen"],
  30: [...DEFAULT_ROLES, ...Array.from({ length: 13 }, (): RoleId => "citizen")],
};

describe("bot games on other role lists", () => {
  it.each(Object.entries(SIZED))(
    "S3: a bot game of %s players reaches its end, under the default thresholds and random ones",
    (size, roles) => {
      expect(roles).toHaveLength(Number(size));
      fc.assert(
        fc.property(fc.string({ maxLength: 8 }), fc.option(thresholds), (seed, gameOptions) => {
          const m = playBotGame(seed, { roles, ...(gameOptions ? { gameOptions } : {}) });
          expect(m.state.winner).not.toBeNull();
          expect(m.state.players).toHaveLength(roles.length);
        }),
        { seed: 5000 + Number(size), numRuns: 30 },
      );
    },
  );

  it("S3: bot games of random valid role lists with random thresholds 0..20 all reach an end without throwing", () => {
    let games = 0;
    const sizes = new Set<number>();
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), roleLists, thresholds, (seed, roles, gameOptions) => {
        const m = playBotGame(seed, { roles, gameOptions });
        expect(m.state.winner).not.toBeNull();
        expect(m.state.players.map((p) => p.name)).toEqual(roles.map((_, i) => `Игрок${i + 1}`));
        sizes.add(roles.length);
        games++;
      }),
      { seed: 5100, numRuns: 200 },
    );
    expect(games).toBe(200);
    expect(sizes.size).toBeGreaterThan(10);
  });
});
