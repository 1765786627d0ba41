import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  actionSchema,
  createGameSchema,
  gameOptionsSchema,
  line,
  messageSchema,
  postSchema,
  roleListSchema,
  saveSetupSchema,
  str,
  text,
  voteSchema,
} from "../src/requests.ts";
import {
  createNotebookSchema,
  notebookActionSchema,
  notebookAliasesSchema,
  notebookThreadSchema,
  notebookVoteSchema,
  removeInputSchema,
} from "../src/notebooks.ts";
import { CLASSIC_SETUP, MAX_SEATS, MAX_THRESHOLD, roleListFault, SETUP_PRESETS } from "../src/setups.ts";
import type { RoleId } from "../src/roles.ts";

/**
 * Issue 29, item 2: the request schemas at the edge (STYLE.md: every input validated, a refusal naming the
 * field). Lengths are checked at their boundary, objects are strict, and the expected values come from the
 * rules (RULES.md §1, S3, V1–V2, M2, O1a) and from the limits each schema states, not from running it.
 */

/** The path of the first issue of a refused value ("" for the value itself), or "accepted". */
function refusal(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? "accepted" : r.error.issues[0]!.path.join(".");
}
const accepts = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T> => {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`refused ${JSON.stringify(value)}: ${r.error.message}`);
  return r.data;
};
const messageOf = (schema: z.ZodType, value: unknown): string => {
  const r = schema.safeParse(value);
  return r.success ? "" : r.error.issues.map((i) => i.message).join("; ");
};

/** RULES.md §1's table: every role once and five citizens. */
const TABLE: RoleId[] = [
  "boss",
  "troll",
  "elf",
  "lawyer",
  "thug",
  "maniac",
  "sheriff",
  "sergeant",
  "doctor",
  "girl",
  "prosecutor",
  "shahid",
  "citizen",
  "citizen",
  "citizen",
  "citizen",
  "citizen",
];
/** The acts that name one player: the thug's block, the lawyer's protect, the maniac's two kills and his
 * torture and poison, the sheriff's shot, the sergeant's check, the doctor's serum and heal, the girl's
 * visit, the prosecutor's unprotect, the shahid's mark. */
const TARGETED = [
  "block",
  "protect",
  "bloodyKill",
  "quickKill",
  "torture",
  "poison",
  "shoot",
  "check",
  "serum",
  "heal",
  "visit",
  "unprotect",
  "mark",
];
const sorted = (roles: readonly RoleId[]): RoleId[] => [...roles].sort();
const LONE_HIGH = "\ud83d";
const LONE_LOW = "\ude00";
const EMOJI = "\ud83d\ude00"; // one code point, two UTF-16 units
const RLO = "\u202e";

describe("issue 29: str, text and line", () => {
  it("str: from min to max characters (code points: an emoji is one); U+0000 and a lone surrogate are refused", () => {
    const s = str(4, 1);
    expect(refusal(s, "")).toBe("");
    expect(accepts(s, "a")).toBe("a");
    expect(accepts(s, "abcd")).toBe("abcd");
    expect(refusal(s, "abcde")).toBe("");
    expect(accepts(s, EMOJI + "abc")).toBe(EMOJI + "abc"); // four code points, five UTF-16 units
    expect(refusal(s, EMOJI + "abcd")).toBe("");
    expect(refusal(s, EMOJI.repeat(5))).toBe("");
    expect(refusal(s, "a\u0000")).toBe("");
    expect(messageOf(s, "a\u0000")).toContain("U+0000");
    expect(refusal(s, "a" + LONE_HIGH)).toBe("");
    expect(refusal(s, LONE_LOW + "a")).toBe("");
    expect(refusal(s, 12)).toBe("");
    // str keeps what it is given: no trimming.
    expect(accepts(str(4), " a ")).toBe(" a ");
    expect(accepts(str(4), "")).toBe("");
  });

  it("text: trimmed, not empty, its length counted after the trim; bidi controls dropped; not text refused", () => {
    const t = text(5);
    expect(accepts(t, "  abc  ")).toBe("abc");
    expect(accepts(t, "abcde")).toBe("abcde");
    expect(refusal(t, "abcdef")).toBe("");
    expect(accepts(t, "   abcde   ")).toBe("abcde");
    expect(refusal(t, "   ")).toBe("");
    expect(refusal(t, "")).toBe("");
    expect(accepts(t, `ab${RLO}c\u2066d\u200f`)).toBe("abcd");
    // Five letters and a control: five once the control is dropped.
    expect(accepts(t, `abc${RLO}de`)).toBe("abcde");
    expect(refusal(t, `${RLO}`)).toBe("");
    expect(refusal(t, "ab\u0000")).toBe("");
    expect(refusal(t, `a${LONE_HIGH}`)).toBe("");
  });

  it("line: trimmed and not empty as text, but a bidi control is refused, naming what it is", () => {
    const l = line(5);
    expect(accepts(l, " abcde ")).toBe("abcde");
    expect(refusal(l, "abcdef")).toBe("");
    expect(refusal(l, " ")).toBe("");
    for (const control of ["\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"]) {
      expect(refusal(l, `ab${control}c`), control.codePointAt(0)!.toString(16)).toBe("");
      expect(messageOf(l, `ab${control}c`)).toContain("bidirectional");
    }
    // Arabic and Hebrew letters are text, not controls.
    expect(accepts(l, "שלום")).toBe("שלום");
    expect(refusal(l, "a\u0000")).toBe("");
  });
});

describe("issue 29: the vote, action and post schemas are strict", () => {
  it("V1, V2: a vote is red or blue for a seat 0–63; early defaults to false; nothing else is taken", () => {
    expect(accepts(voteSchema, { color: "red", target: 0 })).toEqual({
      color: "red",
      target: 0,
      early: false,
    });
    expect(accepts(voteSchema, { color: "blue", target: 63, early: true })).toEqual({
      color: "blue",
      target: 63,
      early: true,
    });
    expect(refusal(voteSchema, { color: "green", target: 1 })).toBe("color");
    expect(refusal(voteSchema, { color: "Red", target: 1 })).toBe("color");
    expect(refusal(voteSchema, { target: 1 })).toBe("color");
    expect(refusal(voteSchema, { color: "red", target: 64 })).toBe("target");
    expect(refusal(voteSchema, { color: "red", target: -1 })).toBe("target");
    expect(refusal(voteSchema, { color: "red", target: 1.5 })).toBe("target");
    expect(refusal(voteSchema, { color: "red", target: "1" })).toBe("target");
    expect(refusal(voteSchema, { color: "red", target: 1, early: "yes" })).toBe("early");
    // Strict: an unknown field is refused with its name, not ignored.
    expect(refusal(voteSchema, { color: "red", target: 1, weight: 2 })).toBe("");
    expect(messageOf(voteSchema, { color: "red", target: 1, weight: 2 })).toContain("weight");
  });

  it("M2, O1a: the mafia's action kills at most two and intimidates at most three, each a seat; lists default empty", () => {
    expect(accepts(actionSchema, { act: "mafia", kill: [1, 2] })).toEqual({
      act: "mafia",
      kill: [1, 2],
      intimidate: [],
    });
    expect(accepts(actionSchema, { act: "mafia", intimidate: [1, 2, 3] })).toEqual({
      act: "mafia",
      kill: [],
      intimidate: [1, 2, 3],
    });
    expect(refusal(actionSchema, { act: "mafia", kill: [1, 2, 3] })).toBe("kill");
    expect(refusal(actionSchema, { act: "mafia", intimidate: [1, 2, 3, 4] })).toBe("intimidate");
    expect(refusal(actionSchema, { act: "mafia", kill: [64] })).toBe("kill.0");
    expect(refusal(actionSchema, { act: "mafia", kill: [1], target: 2 })).toBe("");
  });

  it("T1–T6, M2c: each act takes its own fields: a target, a role to heal from, a question; a pass takes none", () => {
    // The acts that name one player (RULES.md §6–§8): each takes a target and nothing else.
    for (const act of TARGETED) {
      expect(accepts(actionSchema, { act, target: 5 })).toEqual({ act, target: 5 });
      expect(refusal(actionSchema, { act })).toBe("target");
    }
    expect(accepts(actionSchema, { act: "heal", target: 5 })).toEqual({ act: "heal", target: 5 });
    expect(accepts(actionSchema, { act: "shoot", target: 0 })).toEqual({ act: "shoot", target: 0 });
    expect(refusal(actionSchema, { act: "heal" })).toBe("target");
    expect(refusal(actionSchema, { act: "heal", target: 5, kill: [1] })).toBe("");
    expect(refusal(actionSchema, { act: "pass", target: 1 })).toBe("");
    expect(accepts(actionSchema, { act: "pass" })).toEqual({ act: "pass" });
    expect(refusal(actionSchema, { act: "dance", target: 1 })).toBe("act");
    expect(refusal(actionSchema, { target: 1 })).toBe("act");
    expect(accepts(actionSchema, { act: "council", question: " Шериф жив? " })).toEqual({
      act: "council",
      question: "Шериф жив?",
    });
    expect(accepts(actionSchema, { act: "council", question: "в".repeat(500) })).toBeTruthy();
    expect(refusal(actionSchema, { act: "council", question: "в".repeat(501) })).toBe("question");
    expect(refusal(actionSchema, { act: "council", question: "  " })).toBe("question");
    expect(refusal(actionSchema, { act: "healFrom", role: "citizen" })).toBe("role");
  });

  it("a post is 1–10,000 characters once trimmed, a message 1–5,000; nothing but the text is taken", () => {
    expect(accepts(postSchema, { text: "я".repeat(10_000) }).text).toHaveLength(10_000);
    expect(refusal(postSchema, { text: "я".repeat(10_001) })).toBe("text");
    expect(accepts(postSchema, { text: ` ${"я".repeat(10_000)}\n` }).text).toHaveLength(10_000);
    expect(refusal(postSchema, { text: " \n " })).toBe("text");
    expect(refusal(postSchema, {})).toBe("text");
    expect(refusal(postSchema, { text: "привет", vote: { color: "red", target: 1 } })).toBe("");
    expect(messageOf(postSchema, { text: "привет", seat: 1 })).toContain("seat");
    expect(accepts(messageSchema, { text: "я".repeat(5_000) }).text).toHaveLength(5_000);
    expect(refusal(messageSchema, { text: "я".repeat(5_001) })).toBe("text");
    expect(refusal(messageSchema, { text: "привет", channel: "mafia" })).toBe("");
  });
});

describe("issue 29: setups (S3)", () => {
  it("S3: a role list needs a player, a town role and an opponent, each role but citizen once, at most MAX_SEATS", () => {
    expect(accepts(roleListSchema, TABLE)).toEqual(TABLE);
    expect(refusal(roleListSchema, [])).toBe("");
    expect(messageOf(roleListSchema, [])).toContain("(S3)");
    expect(refusal(roleListSchema, ["boss", "boss", "citizen"])).toBe("");
    expect(refusal(roleListSchema, ["citizen", "citizen", "doctor"])).toBe("");
    expect(refusal(roleListSchema, ["boss", "maniac"])).toBe("");
    expect(accepts(roleListSchema, ["maniac", "citizen"])).toEqual(["maniac", "citizen"]);
    expect(refusal(roleListSchema, ["boss", "mayor"])).toBe("1");
    const forty: RoleId[] = ["boss", ...Array.from({ length: 39 }, (): RoleId => "citizen")];
    expect(MAX_SEATS).toBe(40);
    expect(accepts(roleListSchema, forty)).toHaveLength(40);
    expect(refusal(roleListSchema, [...forty, "citizen"])).toBe("");
  });

  it("S3: the options default to the numbers the clauses name (P3's shared strikes, R1's 10, M2b's 10, T3a's 15, the lapse at 3, V7's day 3)", () => {
    expect(accepts(gameOptionsSchema, {})).toEqual({
      earlyClose: "majority",
      strikes: "shared",
      revealAbove: 10,
      threeIntimidationsFrom: 10,
      serumRepeatBelow: 15,
      lapseAt: 3,
      earlyFromDay: 3,
    });
    expect(accepts(gameOptionsSchema, { revealAbove: MAX_THRESHOLD }).revealAbove).toBe(99);
    expect(refusal(gameOptionsSchema, { revealAbove: 100 })).toBe("revealAbove");
    expect(refusal(gameOptionsSchema, { lapseAt: -1 })).toBe("lapseAt");
    expect(refusal(gameOptionsSchema, { lapseAt: 2.5 })).toBe("lapseAt");
    expect(refusal(gameOptionsSchema, { earlyClose: "half" })).toBe("earlyClose");
    expect(refusal(gameOptionsSchema, { reveal: 10 })).toBe("");
  });

  it("S3: each preset is a legal list of the size its name gives; the classic one is RULES.md §1", () => {
    expect(sorted(CLASSIC_SETUP.roles)).toEqual(sorted(TABLE));
    const sizes = Object.fromEntries(SETUP_PRESETS.map((p) => [p.id, p.setup.roles.length]));
    expect(sizes).toEqual({ classic17: 17, small9: 9, medium12: 12, large21: 21 });
    for (const p of SETUP_PRESETS) {
      expect(roleListFault(p.setup.roles), p.id).toBeNull();
      expect(accepts(gameOptionsSchema, p.setup.options)).toEqual(p.setup.options);
      expect(p.name.ru).not.toBe("");
      expect(p.description.en).not.toBe("");
    }
  });

  it("a saved setup's name is one line of 1–80; a game's title 1–120; a day's deadline HH:MM of a real time", () => {
    const setup = { roles: TABLE };
    expect(accepts(saveSetupSchema, { name: "н".repeat(80), setup }).name).toHaveLength(80);
    expect(refusal(saveSetupSchema, { name: "н".repeat(81), setup })).toBe("name");
    expect(refusal(saveSetupSchema, { name: `Моя${RLO}`, setup })).toBe("name");
    const game = {
      title: "Т".repeat(120),
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "review",
    };
    const created = accepts(createGameSchema, game);
    expect(created.roles).toHaveLength(17);
    expect(created.dayDeadline).toBeNull();
    expect(refusal(createGameSchema, { ...game, title: "Т".repeat(121) })).toBe("title");
    expect(accepts(createGameSchema, { ...game, dayDeadline: "23:59" }).dayDeadline).toBe("23:59");
    expect(accepts(createGameSchema, { ...game, dayDeadline: "00:00" }).dayDeadline).toBe("00:00");
    expect(refusal(createGameSchema, { ...game, dayDeadline: "24:00" })).toBe("dayDeadline");
    expect(refusal(createGameSchema, { ...game, dayDeadline: "9:00" })).toBe("dayDeadline");
    expect(refusal(createGameSchema, { ...game, dayDeadline: "12:60" })).toBe("dayDeadline");
    expect(refusal(createGameSchema, { ...game, night: { amount: 0, unit: "hours" } })).toBe("night.amount");
    expect(refusal(createGameSchema, { ...game, night: { amount: 241, unit: "hours" } })).toBe(
      "night.amount",
    );
    expect(accepts(createGameSchema, { ...game, night: { amount: 240, unit: "minutes" } }).night.amount).toBe(
      240,
    );
  });
});

describe("issue 29: the notebook's schemas", () => {
  const notebook = {
    title: "Зелёный дом",
    players: ["Аня", "Борис", "Вера"],
    roles: ["boss", "doctor", "citizen"],
    deal: { kind: "random" },
  };

  it("S1, S3: a notebook: nicks are one line each, 1–64 of them; a deal is random or by hand; the dialect defaults", () => {
    expect(accepts(createNotebookSchema, notebook).dialect).toBe("lower");
    expect(accepts(createNotebookSchema, { ...notebook, dialect: "upper" }).dialect).toBe("upper");
    expect(refusal(createNotebookSchema, { ...notebook, dialect: "bbcode" })).toBe("dialect");
    expect(refusal(createNotebookSchema, { ...notebook, players: [] })).toBe("players");
    expect(refusal(createNotebookSchema, { ...notebook, players: ["Аня", `Бо${RLO}рис`, "Вера"] })).toBe(
      "players.1",
    );
    expect(refusal(createNotebookSchema, { ...notebook, players: ["Аня", " ", "Вера"] })).toBe("players.1");
    const many = Array.from({ length: 64 }, (_, i) => `Игрок${i}`);
    expect(accepts(createNotebookSchema, { ...notebook, players: many }).players).toHaveLength(64);
    expect(refusal(createNotebookSchema, { ...notebook, players: [...many, "Лишний"] })).toBe("players");
    const hand = { kind: "hand", roles: ["doctor", "boss", "citizen"] };
    expect(accepts(createNotebookSchema, { ...notebook, deal: hand }).deal).toEqual(hand);
    expect(refusal(createNotebookSchema, { ...notebook, deal: { kind: "hand", roles: [] } })).toBe(
      "deal.roles",
    );
    expect(refusal(createNotebookSchema, { ...notebook, deal: { kind: "seeded", seed: "x" } })).toBe("deal");
    expect(refusal(createNotebookSchema, { ...notebook, deal: { kind: "random", seed: "x" } })).toBe("deal");
    expect(refusal(createNotebookSchema, { ...notebook, roles: ["boss", "boss", "citizen"] })).toBe("roles");
    expect(refusal(createNotebookSchema, { ...notebook, owner: "x" })).toBe("");
  });

  it("F2: an action's reason may be left out but is never blank; a vote entered by hand always needs one", () => {
    const action = { seat: 1, action: { act: "heal", target: 2 } };
    expect(accepts(notebookActionSchema, action)).toEqual(action);
    expect(accepts(notebookActionSchema, { ...action, reason: " опечатка " }).reason).toBe("опечатка");
    expect(refusal(notebookActionSchema, { ...action, reason: "  " })).toBe("reason");
    expect(refusal(notebookActionSchema, { ...action, reason: "п".repeat(501) })).toBe("reason");
    expect(refusal(notebookActionSchema, { ...action, seat: 64 })).toBe("seat");
    expect(refusal(notebookActionSchema, { seat: 1, action: { act: "heal", target: 2, extra: 1 } })).toBe(
      "action",
    );
    const vote = { seat: 1, vote: { color: "red", target: 0 } };
    expect(refusal(notebookVoteSchema, vote)).toBe("reason");
    expect(accepts(notebookVoteSchema, { ...vote, reason: "без цвета" }).vote).toEqual({
      color: "red",
      target: 0,
      early: false,
    });
    expect(refusal(notebookVoteSchema, { ...vote, vote: { color: "pink", target: 0 }, reason: "x" })).toBe(
      "vote.color",
    );
  });

  it("a pasted thread is at most 5 MiB of text or HTML; an input's index is a whole number ≥ 0; at most 10 aliases", () => {
    const limit = 5 * 1024 * 1024;
    expect(accepts(notebookThreadSchema, { text: "a".repeat(limit) }).text).toHaveLength(limit);
    expect(refusal(notebookThreadSchema, { text: "a".repeat(limit + 1) })).toBe("text");
    expect(refusal(notebookThreadSchema, { html: "a".repeat(limit + 1) })).toBe("html");
    expect(refusal(notebookThreadSchema, { html: "<p>\u0000</p>" })).toBe("html");
    expect(refusal(notebookThreadSchema, { bbcode: "[b]x[/b]" })).toBe("");
    expect(accepts(removeInputSchema, { index: 0, reason: "лишнее" }).index).toBe(0);
    expect(refusal(removeInputSchema, { index: -1, reason: "лишнее" })).toBe("index");
    expect(refusal(removeInputSchema, { index: 0.5, reason: "лишнее" })).toBe("index");
    expect(refusal(removeInputSchema, { index: 0 })).toBe("reason");
    const aliases = Array.from({ length: 10 }, (_, i) => `Ник${i}`);
    expect(accepts(notebookAliasesSchema, { seat: 0, aliases }).aliases).toHaveLength(10);
    expect(refusal(notebookAliasesSchema, { seat: 0, aliases: [...aliases, "Ещё"] })).toBe("aliases");
  });
});
