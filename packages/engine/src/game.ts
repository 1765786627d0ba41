import { emptyBallots } from "./night-action.ts";
import { DEFAULT_OPTIONS, type GameOptions } from "./options.ts";
import { nameKey, playerLabel, withPlayer, type Player, type Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { dealStream, rollStream, shuffle } from "./rng.ts";
import { DEFAULT_ROLES, roleListFault, type RoleId } from "./roles.ts";
import { NO_DAY_EFFECTS, countAlive, currentBoss, withState, type GameState } from "./state.ts";

export interface SeatSetup {
  readonly name: string;
  /** Dealt by the GM's hand (S1); leave every role out to deal from the seed. */
  readonly role?: RoleId;
}

export interface GameSetup {
  readonly players: readonly SeatSetup[];
  /** F1: the seed behind the deal and the rolls; null when the GM fixes every roll by hand. */
  readonly seed: string | null;
  readonly options?: Partial<GameOptions>;
  /** S3: the role list to deal from the seed; the default table (RULES.md §1) when left out. */
  readonly roles?: readonly RoleId[];
}

/** Names must be non-empty and unique, compared as REPLAY.md says (case, ё = е). */
export function checkNewName(players: readonly { readonly name: string }[], name: string): Rejection | null {
  if (name.trim() === "") return reject("setup/empty-name", "S3", "a player's name is empty");
  const key = nameKey(name);
  if (players.some((p) => nameKey(p.name) === key))
    return reject("setup/duplicate-name", "S3", `the name ${name} is taken`);
  return null;
}

/** S3: the named [reading] options and the thresholds, each at its documented default unless set. */
function withDefaults(options: Partial<GameOptions> | undefined): GameOptions {
  return {
    earlyClose: options?.earlyClose ?? DEFAULT_OPTIONS.earlyClose,
    strikes: options?.strikes ?? DEFAULT_OPTIONS.strikes,
    revealAbove: options?.revealAbove ?? DEFAULT_OPTIONS.revealAbove,
    threeIntimidationsFrom: options?.threeIntimidationsFrom ?? DEFAULT_OPTIONS.threeIntimidationsFrom,
    serumRepeatBelow: options?.serumRepeatBelow ?? DEFAULT_OPTIONS.serumRepeatBelow,
    lapseAt: options?.lapseAt ?? DEFAULT_OPTIONS.lapseAt,
    earlyFromDay: options?.earlyFromDay ?? DEFAULT_OPTIONS.earlyFromDay,
  };
}

/** S1, S3, G4: the state at the start of night 1, from a hand deal or a deal from the seed. */
export function createGame(setup: GameSetup): GameState | Rejection {
  const keys = new Set<string>();
  for (const p of setup.players) {
    if (p.name.trim() === "") return reject("setup/empty-name", "S3", "a player's name is empty");
    const key = nameKey(p.name);
    if (keys.has(key)) return reject("setup/duplicate-name", "S3", `the name ${p.name} is taken`);
    keys.add(key);
  }
  if (keys.size === 0) return reject("setup/no-players", "S3", "the game has no players");
  const given = setup.players.filter((p) => p.role !== undefined).length;
  let roles: RoleId[];
  if (given === setup.players.length) {
    roles = setup.players.map((p) => p.role!);
  } else if (given === 0) {
    if (setup.seed === null) return reject("setup/no-seed", "S1", "a deal from the seed needs a seed");
    const list = setup.roles ?? DEFAULT_ROLES;
    if (list.length !== setup.players.length)
      return reject("setup/role-count", "S3", `${list.length} roles for ${setup.players.length} players`);
    roles = shuffle(list, dealStream(setup.seed)).value;
  } else {
    return reject("setup/partial-deal", "S1", "either every player has a role (a hand deal) or none has");
  }
  // S3: each role at most once except citizen; at least one town player and one mafia member or the maniac.
  const fault = roleListFault(roles);
  if (fault !== null) {
    const message =
      fault.code === "setup/duplicate-role"
        ? `the role ${fault.role} appears more than once`
        : fault.code === "setup/no-town"
          ? "the role list has no town player"
          : fault.code === "setup/no-opponent"
            ? "the role list has neither a mafia member nor the maniac"
            : "the game has no players";
    return reject(fault.code, "S3", message);
  }
  const players: Player[] = setup.players.map((p, i) => ({
    name: p.name,
    role: roles[i]!,
    alive: true,
    voteStrikes: 0,
    nightStrikes: 0,
    conductStrikes: 0,
  }));
  return {
    options: withDefaults(setup.options),
    players,
    phase: { kind: "night", number: 1 },
    aliveAtStart: countAlive(players),
    boss: currentBoss(players),
    rng: setup.seed === null ? null : rollStream(setup.seed),
    memory: {
      own: emptyBallots(players.length).own,
      pair: null,
      healTarget: null,
      savedByHealFrom: [],
      silencedNext: [],
    },
    day: NO_DAY_EFFECTS,
    winner: null,
  };
}

/** P4: the substitute takes the seat whole (role, chats, strikes, silences, last night's targets). */
export function replacePlayer(state: GameState, seat: Seat, name: string): GameState | Rejection {
  const p = state.players[seat];
  if (!p) return reject("gm/unknown-player", "P4", "no such player to replace");
  if (!p.alive) return reject("gm/replace-dead", "P4", `${playerLabel(p)} is dead and cannot be replaced`);
  const bad = checkNewName(state.players, name);
  if (bad) return reject(bad.code, "P4", `${playerLabel(p)} cannot be replaced: ${bad.message}`);
  const players = state.players.slice();
  players[seat] = withPlayer(p, { name });
  return withState(state, { players });
}

/** G5, P3 (issue 31): a strike for swearing or an insult names a living player. */
export function checkStrike(state: GameState, seat: Seat): Rejection | null {
  const p = state.players[seat];
  if (!p) return reject("gm/unknown-player", "G5", "no such player to strike");
  if (!p.alive) return reject("gm/strike-dead", "G5", `${playerLabel(p)} is already dead`);
  return null;
}

/** F2: a modkill by the GM names a living player; it takes effect at the end of the phase. */
export function checkModkill(state: GameState, seat: Seat): Rejection | null {
  const p = state.players[seat];
  if (!p) return reject("gm/unknown-player", "F2", "no such player to modkill");
  if (!p.alive) return reject("gm/modkill-dead", "F2", `${playerLabel(p)} is already dead`);
  return null;
}
