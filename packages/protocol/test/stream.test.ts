import {
  DEFAULT_ROLES,
  eventsSeenBy,
  foldView,
  gameEventsSince,
  isRejection,
  ROLE_IDS,
  startMatch,
  type GameView,
  type Match,
  type RoleId,
  type Viewer,
} from "@forum-mafia/engine";
import { describe, expect, it } from "vitest";
import {
  applyStreamItem,
  type PublicState,
  type PublicSummary,
  type StreamItem,
  type YourState,
} from "../src/stream.ts";
import type { ChannelView, GameDetail, GmTable, MessageView, VoteCount } from "../src/views.ts";

/**
 * Issue 29, item 2: the live stream's reducer (stream.ts's contract, written out in its header): an item
 * carries values whole, so a client applies it to the detail it holds; a message joins its channel once;
 * the public half of a phase change replaces the held one while a player keeps their own half; what cannot
 * be applied (a channel the client does not hold, a change of the channels, an unknown type) is null, which
 * a client treats as a reset. The details are built by hand around views folded by the engine.
 */

/** RULES.md §1's table, dealt by hand in this order (S1). */
const NAMES = [
  "Аня",
  "Борис",
  "Вера",
  "Глеб",
  "Даша",
  "Егор",
  "Жанна",
  "Зоя",
  "Игорь",
  "Катя",
  "Лёша",
  "Маша",
  "Нина",
  "Олег",
  "Петя",
  "Рита",
  "Семён",
];
const match = ((): Match => {
  const m = startMatch({ players: NAMES.map((name, i) => ({ name, role: DEFAULT_ROLES[i]! })), seed: null });
  if (isRejection(m)) throw new Error(m.message);
  return m;
})();
const ROLES = match.setup.players.map((p) => p.role);
const EVENTS = gameEventsSince(match, null).events;
const viewOf = (viewer: Viewer): GameView => foldView(eventsSeenBy(EVENTS, viewer, ROLES), viewer);
/** Seat 1 holds the troll (RULES.md §1's order): a mafioso, who knows the mafia (S2). */
const TROLL = 1;

const summary: PublicSummary = {
  id: "g1",
  title: "Зелёный дом",
  gm: "Ведущая",
  status: "running",
  phase: { kind: "night", number: 1 },
  signedUp: 17,
  seats: 17,
  winner: null,
  deadline: 1_000,
};
const message = (id: string, channel: MessageView["channel"], text: string): MessageView => ({
  id,
  channel,
  seat: TROLL,
  author: "Борис",
  html: text,
  at: 5,
});

/** The detail a client holds: the troll's, or a guest's (no seat, no channels). */
function detail(kind: "player" | "none"): GameDetail {
  const viewer: Viewer = kind === "player" ? { kind: "player", seat: TROLL } : { kind: "public" };
  const channels: ChannelView[] =
    kind === "player" ? [{ id: "mafia", canPost: true, messages: [message("m1", "mafia", "привет")] }] : [];
  return {
    summary: { ...summary, mine: kind },
    settings: {
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      dayDeadline: null,
      timeZone: "Europe/Moscow",
      options: match.state.options,
      mode: "review",
      roles: [...DEFAULT_ROLES],
      seats: 17,
      g5: { policy: "off", strikes: true },
    },
    signups: [],
    me: { kind, seat: kind === "player" ? TROLL : null },
    clock: {
      phase: summary.phase,
      deadline: 1_000,
      paused: false,
      resultsPending: false,
      mafiaReopened: false,
    },
    commitment: "ab".repeat(32),
    view: viewOf(viewer),
    roleCard: null,
    form: null,
    voteCount: null,
    channels,
    notices: [],
    stall: null,
    announcements: [],
    privateResults: [],
    roleNames: Object.fromEntries(ROLE_IDS.map((r) => [r, r])) as Record<RoleId, string>,
    streamAt: 4,
    gm: null,
    unread: null,
  };
}

/** The troll's own half, as the server would send it. */
const yours = (change: Partial<YourState> = {}): YourState => {
  const v = viewOf({ kind: "player", seat: TROLL });
  return {
    viewer: v.viewer,
    me: v.me,
    submissions: v.submissions,
    privateResultsView: v.privateResults,
    roles: v.seats.map((s) => s.role),
    form: null,
    privateResults: [],
    channels: [{ id: "mafia", canPost: true }],
    gm: null,
    ...change,
  };
};
const count = (text: string): VoteCount => ({
  text,
  title: "Итоги",
  red: [text],
  blue: [],
  cannotVote: [],
  notVoted: [],
});
const apply = (d: GameDetail, id: number, item: StreamItem, nick: string | null = "Борис") =>
  applyStreamItem(d, id, item, nick);

describe("issue 29: applyStreamItem, each item kind", () => {
  it("a post or a hidden post moves only the stream's place (the client keeps posts by id)", () => {
    const d = detail("player");
    const post = {
      id: "p1",
      seat: 3,
      author: "Глеб",
      html: "<b>Привет</b>",
      at: 9,
      hidden: null,
      vote: null,
    };
    expect(apply(d, 5, { type: "post", post })).toEqual({ ...d, streamAt: 5 });
    expect(apply(d, 5, { type: "postHidden", id: "p1", reason: "спам" })).toEqual({ ...d, streamAt: 5 });
  });

  it("a message joins its channel once; one for a channel the client does not hold cannot be applied", () => {
    const d = detail("player");
    const m2 = message("m2", "mafia", "убьём Нину?");
    const once = apply(d, 5, { type: "message", message: m2 })!;
    expect(once.channels[0]!.messages.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(once.streamAt).toBe(5);
    // The same message again (a repeat on reconnect) is kept once.
    const twice = apply(once, 6, { type: "message", message: m2 })!;
    expect(twice.channels[0]!.messages.map((m) => m.id)).toEqual(["m1", "m2"]);
    expect(twice.streamAt).toBe(6);
    // The pair's channel is not the troll's: its history is not in the stream, so it is a reset.
    expect(apply(d, 5, { type: "message", message: message("m3", "pair", "проверим Аню") })).toBeNull();
    // The held detail is left as it was.
    expect(d.channels[0]!.messages.map((m) => m.id)).toEqual(["m1"]);
  });

  it("lobby: the signups and the summary replaced, and a user without a seat finds their place in them", () => {
    const d = {
      ...detail("none"),
      summary: { ...summary, status: "signup" as const, mine: "none" as const },
    };
    const signups = [
      { nick: "Вика", reserve: false },
      { nick: "Гоша", reserve: true },
    ];
    const lobby: StreamItem = {
      type: "lobby",
      signups,
      summary: { ...summary, status: "signup", signedUp: 2 },
    };
    const reserve = apply(d, 5, lobby, "Гоша")!;
    expect(reserve.signups).toEqual(signups);
    expect(reserve.summary.signedUp).toBe(2);
    expect(reserve.me.kind).toBe("reserve");
    expect(reserve.summary.mine).toBe("reserve");
    expect(apply(d, 5, lobby, "Вика")!.me.kind).toBe("signedUp");
    expect(apply(d, 5, lobby, "Катя")!.me.kind).toBe("none");
    expect(apply(d, 5, lobby, null)!.summary.mine).toBe("none");
    // A player keeps their seat whatever the signups say.
    expect(apply(detail("player"), 5, lobby, "Гоша")!.me).toEqual({ kind: "player", seat: TROLL });
  });

  it("clock: the clock, the notices and the summary replaced; the user's place in the summary kept", () => {
    const d = detail("player");
    const clock = {
      phase: summary.phase,
      deadline: null,
      paused: true,
      resultsPending: false,
      mafiaReopened: false,
    };
    const next = apply(d, 5, {
      type: "clock",
      clock,
      notices: ["Игра на паузе"],
      summary: { ...summary, deadline: null },
    })!;
    expect(next.clock).toEqual(clock);
    expect(next.notices).toEqual(["Игра на паузе"]);
    expect(next.summary).toEqual({ ...summary, deadline: null, mine: "player" });
    expect(next.streamAt).toBe(5);
    expect(next.view).toEqual(d.view);
  });

  it("vote: today's votes and the public count replaced; no view stays no view", () => {
    const d = detail("player");
    const votes = [{ seat: 3, color: "red" as const, target: 0, early: false }];
    const next = apply(d, 5, { type: "vote", votes, voteCount: count("Аня (1): Глеб") })!;
    expect(next.view!.votes).toEqual(votes);
    expect(next.view!.seats).toEqual(d.view!.seats);
    expect(next.voteCount!.red).toEqual(["Аня (1): Глеб"]);
    const none = apply({ ...d, view: null }, 5, { type: "vote", votes, voteCount: null })!;
    expect(none.view).toBeNull();
  });

  it("phase: the public half replaced whole; a player whose item carries no own half keeps the roles they know", () => {
    const d = detail("player");
    const pub = viewOf({ kind: "public" });
    const state: PublicState = {
      summary: { ...summary, phase: { kind: "day", number: 1 } },
      signups: [],
      clock: { ...d.clock, phase: { kind: "day", number: 1 } },
      notices: [],
      commitment: d.commitment,
      view: pub,
      voteCount: count("пусто"),
      announcements: [{ phase: { kind: "night", number: 1 }, lines: ["Ночь прошла спокойно"] }],
      stall: null,
    };
    const next = apply(d, 5, { type: "phase", state })!;
    expect(next.summary.phase).toEqual({ kind: "day", number: 1 });
    expect(next.summary.mine).toBe("player");
    expect(next.announcements).toEqual(state.announcements);
    expect(next.voteCount).toEqual(count("пусто"));
    // S2: the troll knows the five mafiosi (boss, troll, elf, lawyer, thug: seats 0–4); the public view
    // knows nobody's role, and the troll's own half stays.
    expect(pub.seats.every((s) => s.role === null)).toBe(true);
    expect(next.view!.seats.filter((s) => s.role !== null).map((s) => s.seat)).toEqual([0, 1, 2, 3, 4]);
    expect(next.view!.viewer).toEqual({ kind: "player", seat: TROLL });
    expect(next.view!.me).toEqual(d.view!.me);
    // A guest gets the public view as it is.
    const guest = apply(detail("none"), 5, { type: "phase", state }, null)!;
    expect(guest.view).toEqual(pub);
    // With the own half, the roles come from it.
    const roles = yours().roles.map((r, seat) => (seat === 5 ? ("maniac" as RoleId) : r));
    const withYou = apply(d, 5, { type: "phase", state, you: yours({ roles }) })!;
    expect(withYou.view!.seats[5]!.role).toBe("maniac");
  });

  it("you: the viewer's own half replaced (private results, the GM's table, whether a channel takes posts)", () => {
    const d = detail("player");
    const gm: GmTable = { strikes: [], flags: [], council: null, day: null, tonight: null };
    const privateResults = [{ phase: { kind: "night" as const, number: 1 }, lines: ["Совет ответил: да"] }];
    const next = apply(d, 5, {
      type: "you",
      you: yours({ privateResults, gm, channels: [{ id: "mafia", canPost: false }] }),
    })!;
    expect(next.privateResults).toEqual(privateResults);
    expect(next.gm).toEqual(gm);
    expect(next.channels).toEqual([{ ...d.channels[0]!, canPost: false }]);
    expect(next.streamAt).toBe(5);
    // The channels changed (one opened to the viewer): its history is not in the stream, a reset.
    const opened = yours({
      channels: [
        { id: "mafia", canPost: true },
        { id: "spectators", canPost: true },
      ],
    });
    expect(apply(d, 5, { type: "you", you: opened })).toBeNull();
    expect(apply(d, 5, { type: "you", you: yours({ channels: [] }) })).toBeNull();
    expect(
      apply(d, 5, { type: "you", you: yours({ channels: [{ id: "pair", canPost: true }] }) }),
    ).toBeNull();
  });

  it("an item of a type this client does not know (a newer server) cannot be applied", () => {
    const item = { type: "poll", question: "?" } as unknown as StreamItem;
    expect(apply(detail("player"), 5, item)).toBeNull();
  });
});

describe("issue 29: applyStreamItem, whole values", () => {
  const v1: StreamItem = {
    type: "vote",
    votes: [{ seat: 3, color: "red", target: 0, early: false }],
    voteCount: count("1"),
  };
  const v2: StreamItem = {
    type: "vote",
    votes: [
      { seat: 3, color: "red", target: 0, early: false },
      { seat: 8, color: "blue", target: 0, early: false },
    ],
    voteCount: count("2"),
  };

  it("a repeat leaves the same state: the same item applied twice is the item applied once", () => {
    const once = apply(detail("player"), 5, v1)!;
    expect(apply(once, 5, v1)).toEqual(once);
  });

  it("a gap of items that carry the same fields: the later one alone gives what both in turn give", () => {
    const d = detail("player");
    expect(apply(d, 6, v2)).toEqual(apply(apply(d, 5, v1)!, 6, v2));
  });

  it("the detail held is never changed in place", () => {
    const d = detail("player");
    const before = structuredClone(d);
    apply(d, 5, v2);
    apply(d, 5, { type: "message", message: message("m2", "mafia", "ещё") });
    apply(d, 5, { type: "you", you: yours({ channels: [{ id: "mafia", canPost: false }] }) });
    expect(d).toEqual(before);
  });
});
