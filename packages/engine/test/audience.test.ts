// Secrets (STYLE.md): a unique marker in every event of random games, and each event's audience checked
// on the RAW event list, for every receiver, against a table written here from RULES.md. The folded views
// cannot serve for this: viewFor ignores the GM's working and other players' strikes whatever the
// audience lets through, so a test on the views alone passes when the audience table is wrong.
// The expected audiences never come from the engine's AUDIENCE, audienceOf or teamOf.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  audienceOf,
  isRejection,
  replace,
  type GameEvent,
  type Match,
  type RoleId,
  type Seat,
  type Team,
  type Viewer,
} from "../src/index.ts";
import { gameEvents, maySee, type GameEventType } from "../src/events.ts";
import { MATCH_CALLS, playRandomGame, type MatchCalls } from "../src/random-play.ts";

type EventOf<T extends GameEventType> = Extract<GameEvent, { readonly type: T }>;

/** Who receives an event: the GM, the public (spectators, anyone not at the table), a seat, a team's channel. */
type Receiver = "gm" | "public" | `seat:${number}` | `team:${Team}`;

/** §1's factions and S2's two private channels, written out again. */
const MAFIA: readonly RoleId[] = ["boss", "troll", "elf", "lawyer", "thug"];
const PAIR: readonly RoleId[] = ["sheriff", "sergeant"];
const TEAMS: readonly Team[] = ["mafia", "pair"];
const teamOfRole = (r: RoleId): Team | null =>
  MAFIA.includes(r) ? "mafia" : PAIR.includes(r) ? "pair" : null;
/** M1: the succession, rank 1 first. */
const SUCCESSION: readonly RoleId[] = ["boss", "troll", "elf", "lawyer", "thug"];

/** Who the rules say may learn an event. The GM learns everything (G1, F2): every audience includes the GM. */
type Expected =
  | { readonly to: "everyone" }
  | { readonly to: "gm" }
  | { readonly to: "seat"; readonly seat: Seat }
  | { readonly to: "team"; readonly team: Team };

/** What the test knows of the game at an event: the deal and the boss of the night in play (M1). */
interface Table {
  readonly roles: readonly RoleId[];
  boss: Seat | null;
}

interface Rule<E> {
  readonly clause: string;
  readonly to: (e: E, t: Table) => Expected;
}

const ALL: Expected = { to: "everyone" };
const GM_ONLY: Expected = { to: "gm" };
const own = (seat: Seat): Expected => ({ to: "seat", seat });
const team = (t: Team): Expected => ({ to: "team", team: t });

/**
 * The slot a night submission fills, read from the rules: the mafia's action (M2) is the mafia's, whoever
 * of them sends it (M4); a thug who is boss has one slot for it and his block (M6, P2), his own. The pair
 * has one action for both (T1). A pass fills the pair's slot for the sheriff or the sergeant, and the
 * mafia's for the boss (a lawyer-boss has lost the protect, M5), the troll and the elf (no action of their
 * own, P2); anyone else's pass is their own.
 */
function submissionAudience(e: EventOf<"actionSubmitted">, t: Table): Expected {
  const role = t.roles[e.seat]!;
  const isBoss = t.boss === e.seat;
  const thugBoss = isBoss && role === "thug";
  switch (e.action.act) {
    case "mafia":
    case "council":
      return thugBoss ? own(e.seat) : team("mafia");
    case "shoot":
    case "check":
      return team("pair");
    case "pass":
      if (PAIR.includes(role)) return team("pair");
      if (isBoss) return thugBoss ? own(e.seat) : team("mafia");
      return role === "troll" || role === "elf" ? team("mafia") : own(e.seat);
    default:
      return own(e.seat);
  }
}

/** The audience of each event type, from the rules. No default: a new event type must be added here. */
const RULES: { readonly [T in GameEventType]: Rule<EventOf<T>> } = {
  gameStarted: { clause: "G4, F1: the table and the seed's commitment are public", to: () => ALL },
  roleDealt: { clause: "S1, S2: a player is told their own role, and nobody else", to: (e) => own(e.seat) },
  teamRevealed: {
    clause: "S2: the mafia know each other, the sheriff and the sergeant know each other",
    // the team of its members' roles, not the event's own label
    to: (e) => team(teamOfRole(e.members[0]!.role)!),
  },
  actionSubmitted: {
    clause: "O1, M4, T1, G6: a submission is its author's, a shared slot its team's",
    to: submissionAudience,
  },
  nightResults: { clause: "A1: the night's public results", to: () => ALL },
  checkResult: { clause: "A2: the check's result, to the sheriff and the sergeant", to: () => team("pair") },
  councilAnswer: { clause: "A2, M2c: the council's answer, to the mafia", to: () => team("mafia") },
  strike: {
    // S2: a night strike says the player had a night action, a part of the role; docs/readings.md (P2):
    // a strike is told only to the player who got it.
    clause: "S2, P2: a strike is its player's",
    to: (e) => own(e.seat),
  },
  voteCast: { clause: "V1, V4: votes are cast in the game thread", to: () => ALL },
  dayResults: { clause: "A3: the day's public result", to: () => ALL },
  replaced: { clause: "P4: the substitute takes the seat in public", to: () => ALL },
  // F2: the order and its reason are in the log, published with it at the end; the public learns the
  // modkill itself only when it takes effect, in the phase's results (P3, A1, A3; checked below).
  modkillOrdered: { clause: "F2: the GM's modkill order is the GM's", to: () => GM_ONLY },
  // R3 publishes every action and roll at the end; in the engine the event stays the GM's, and a finished
  // game is read as the GM (the server's views.ts, engineViewer) or as the published log.
  nightDetail: {
    clause: "R3, A2, M3: the night's attacks, blocks and rolls are the GM's",
    to: () => GM_ONLY,
  },
  dayDetail: { clause: "V4, M3, P1: scores, weights and penalties are the GM's", to: () => GM_ONLY },
  gameEnded: { clause: "R3, F1: every role and the seed, at the end", to: () => ALL },
};

const ruleOf = (e: GameEvent): Rule<GameEvent> => RULES[e.type] as Rule<GameEvent>;

function receiversOf(roles: readonly RoleId[]): Receiver[] {
  return [
    "gm",
    "public",
    ...roles.map((_, s): Receiver => `seat:${s}`),
    ...TEAMS.filter((t) => roles.some((r) => teamOfRole(r) === t)).map((t): Receiver => `team:${t}`),
  ];
}

/** The receivers the rules allow, the GM always among them. */
function expectedReceivers(x: Expected, roles: readonly RoleId[]): Set<Receiver> {
  switch (x.to) {
    case "everyone":
      return new Set(receiversOf(roles));
    case "gm":
      return new Set(["gm"]);
    case "seat":
      return new Set<Receiver>(["gm", `seat:${x.seat}`]);
    case "team":
      return new Set<Receiver>([
        "gm",
        `team:${x.team}`,
        ...roles.flatMap((r, s): Receiver[] => (teamOfRole(r) === x.team ? [`seat:${s}`] : [])),
      ]);
  }
}

/** Whether the engine lets the event reach the receiver: maySee for a viewer, audienceOf for a channel. */
function reaches(e: GameEvent, roles: readonly RoleId[], r: Receiver): boolean {
  if (r.startsWith("team:")) {
    const a = audienceOf(e); // what the server routes by (server/src/log/room.ts)
    return a.to === "everyone" || (a.to === "team" && `team:${a.team}` === r);
  }
  const viewer: Viewer =
    r === "gm" || r === "public" ? { kind: r } : { kind: "player", seat: Number(r.slice("seat:".length)) };
  return maySee(e, viewer, roles);
}

/** M1: the highest-ranked living mafioso. */
function bossOf(roles: readonly RoleId[], dead: ReadonlySet<Seat>): Seat | null {
  for (const role of SUCCESSION) {
    const seat = roles.findIndex((r, s) => r === role && !dead.has(s));
    if (seat >= 0) return seat;
  }
  return null;
}

/**
 * Walk the raw events in order, each with a unique marker, and list every receiver that the engine lets
 * a marker reach against the rules, or keeps it from. Each event is judged where it stands (the boss of
 * that night, M1), so an empty list means every receiver's stream is right at every point of the game.
 */
function audit(events: readonly GameEvent[], roles: readonly RoleId[]): string[] {
  const receivers = receiversOf(roles);
  const dead = new Set<Seat>();
  const table: Table = { roles, boss: bossOf(roles, dead) };
  const pendingModkills: Seat[] = [];
  const problems: string[] = [];
  events.forEach((event, i) => {
    const marked: GameEvent & { readonly marker: string } = { ...event, marker: `«${i}:${event.type}»` };
    const rule = ruleOf(event);
    const want = expectedReceivers(rule.to(event, table), roles);
    for (const r of receivers) {
      const got = reaches(marked, roles, r);
      if (got !== want.has(r))
        problems.push(`${marked.marker} ${got ? "reached" : "missed"} ${r} (${rule.clause})`);
    }
    if (event.type === "teamRevealed") {
      const members = roles.flatMap((r, s) => (teamOfRole(r) === event.team ? [s] : []));
      if (JSON.stringify(event.members.map((m) => m.seat)) !== JSON.stringify(members))
        problems.push(`${marked.marker} names the wrong members (S2)`);
    }
    if (event.type === "modkillOrdered") pendingModkills.push(event.seat);
    if (event.type === "nightResults" || event.type === "dayResults") {
      // P3, A1, A3: the public learns of a modkill at the end of its phase, as a death.
      for (const s of pendingModkills.splice(0))
        if (!event.died.includes(s)) problems.push(`the modkill of seat ${s} was not announced (F2, A1, A3)`);
      for (const s of event.died) dead.add(s);
    }
    if (event.type === "dayResults") table.boss = bossOf(roles, dead); // M1: from the next night
  });
  return problems;
}

/**
 * The random player's calls, with free text that is a unique marker: each modkill's reason (F2: the GM's
 * until the log is published) and each council question (A2, M2c: the mafia's), and now and then a
 * substitute (P4) so that every event type occurs. The markers are listed with their kind.
 */
function plantingCalls(): { calls: MatchCalls; planted: { text: string; kind: "reason" | "question" }[] } {
  const planted: { text: string; kind: "reason" | "question" }[] = [];
  let phases = 0;
  const substitute = (m: Match): Match => {
    phases++;
    if (phases % 4 !== 2) return m;
    const seat = (phases * 7) % m.state.players.length;
    const next = replace(m, seat, `Замена${phases}`, "P4: отсутствует");
    return isRejection(next) ? m : next;
  };
  const calls: MatchCalls = {
    act: (m, seat, action) => {
      if (action.act !== "council") return MATCH_CALLS.act(m, seat, action);
      const text = `МАРКЕР-вопрос-${planted.length}`;
      planted.push({ text, kind: "question" });
      return MATCH_CALLS.act(m, seat, { act: "council", question: text });
    },
    vote: MATCH_CALLS.vote,
    modkill: (m, seat) => {
      const text = `МАРКЕР-причина-${planted.length}`;
      planted.push({ text, kind: "reason" });
      return MATCH_CALLS.modkill(m, seat, text);
    },
    endNight: (m, decisions) => MATCH_CALLS.endNight(substitute(m), decisions),
    endDay: (m) => MATCH_CALLS.endDay(substitute(m)),
  };
  return { calls, planted };
}

const rolesOf = (m: Match): RoleId[] => m.setup.players.map((p) => p.role);

describe("each event reaches exactly its audience", () => {
  it("G6: in random games every marked event reaches exactly the receivers the rules name, at every point", () => {
    const seen = new Set<GameEventType>();
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), (seed) => {
        const { calls } = plantingCalls();
        const m = playRandomGame(seed, { calls, modkillPercent: 6 });
        const events = gameEvents(m);
        for (const e of events) seen.add(e.type);
        expect(audit(events, rolesOf(m))).toEqual([]);
      }),
      { seed: 1313, numRuns: 150 },
    );
    // Not vacuous: every event type occurred, the private ones included.
    expect([...seen].sort()).toEqual(Object.keys(RULES).sort());
  });

  it("F2, A2: a modkill's reason reaches the GM only, and a council question the mafia and the GM only", () => {
    let reasons = 0;
    let questions = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), (seed) => {
        const { calls, planted } = plantingCalls();
        const m = playRandomGame(seed, { calls, modkillPercent: 6 });
        const roles = rolesOf(m);
        const events = gameEvents(m);
        const leaks: string[] = [];
        for (const r of receiversOf(roles)) {
          const stream = JSON.stringify(events.filter((e) => reaches(e, roles, r)));
          for (const p of planted) {
            // A rejected question (the GM's answer) or a question replaced later may leave no event.
            if (!events.some((e) => JSON.stringify(e).includes(`"${p.text}"`))) continue;
            const may =
              r === "gm" ||
              (p.kind === "question" &&
                (r === "team:mafia" ||
                  (r.startsWith("seat:") && teamOfRole(roles[Number(r.slice(5))]!) === "mafia")));
            const got = stream.includes(`"${p.text}"`);
            // The GM gets every marker; a mafioso may miss a question a thug-boss replaced (M6's one slot).
            if (got ? !may : r === "gm") leaks.push(`${p.text} ${got ? "reached" : "missed"} ${r}`);
          }
        }
        expect(leaks).toEqual([]);
        reasons += planted.filter((p) => p.kind === "reason").length;
        questions += planted.filter((p) => p.kind === "question").length;
      }),
      { seed: 2718, numRuns: 100 },
    );
    expect(reasons).toBeGreaterThan(20);
    expect(questions).toBeGreaterThan(20);
  });
});
