// Bots that talk (issue 16): what they say comes from their own view, their votes are cast by their
// posts, they answer the people who address them, and they never repeat themselves.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  act,
  endDay,
  endNight,
  isMafia,
  isRejection,
  startMatch,
  vote,
  type Match,
  type RoleId,
  type Seat,
} from "../src/index.ts";
import {
  RANDOM_PLAYER_NAMES,
  botChat,
  botDayPost,
  botReply,
  botView,
  botVote,
  playTalkingGame,
  talkInput,
  talkSeeds,
  type NameForms,
  type TalkMessage,
  type TalkPost,
  type TalkStep,
} from "../src/bots-entry.ts";
import { gameEvents } from "../src/events.ts";
import { viewFor } from "../src/view.ts";

const plain = (nick: string): NameForms => ({
  nom: nick,
  gen: nick,
  dat: nick,
  acc: nick,
  ins: nick,
  prep: nick,
});

function must(next: Match | ReturnType<typeof act>): Match {
  if (isRejection(next)) throw new Error(`refused: ${next.message} (${next.clause})`);
  return next;
}

/** The roles the seed deals (S1). */
const dealt = (seed: string): RoleId[] =>
  must(startMatch({ players: RANDOM_PLAYER_NAMES.map((name) => ({ name })), seed })).state.players.map(
    (p) => p.role,
  );

/** The colour tags of a post, in order. */
const tags = (text: string): string[] =>
  [...text.matchAll(/\[color=(red|blue)\]([^[]*)\[\/color\]/gu)].map((m) => `${m[1]}:${m[2]}`);

describe("bots that talk (issue 16)", () => {
  // A bot's talk, like its moves, is a function of its own view: two deals that differ only in the roles of
  // two players whose public history is the same must make every other bot say exactly the same.
  it("S2: swapping the hidden roles of two players a bot cannot see (same public history) leaves its posts and chat messages identical", () => {
    const SWAPPABLE: readonly RoleId[] = ["citizen", "doctor", "girl", "prosecutor", "shahid", "maniac"];
    let compared = 0;
    let games = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.nat(), fc.nat(), (seed, x, y) => {
        const roles = dealt(seed);
        const candidates = roles.flatMap((r, s) => (SWAPPABLE.includes(r) ? [s] : []));
        const a = candidates[x % candidates.length]!;
        const b = candidates[y % candidates.length]!;
        fc.pre(a !== b && roles[a] !== roles[b]);
        const original = playTalkingGame(seed, { roles, phases: 4 });
        const swapped = roles.slice();
        [swapped[a], swapped[b]] = [roles[b]!, roles[a]!];
        const replayed = replayTalk(seed, swapped, original.steps, a, b);
        if (replayed === null) return; // the swap made a night action illegal: not the same public history
        const pub = (m: Match): string => JSON.stringify(viewFor(gameEvents(m), { kind: "public" }, []));
        fc.pre(pub(replayed.match) === pub(original.match) && replayed.samePublic);
        games++;
        expect(replayed.said).toEqual(replayed.expected);
        compared += replayed.said.length;
      }),
      { seed: 16, numRuns: 60 },
    );
    expect(games).toBeGreaterThan(10);
    expect(compared).toBeGreaterThan(500);
  });

  it("S2: the views a talking game keeps between moves are the bots' own views, as botView folds them", () => {
    let checked = 0;
    for (let g = 0; g < 6; g++)
      playTalkingGame(`kept-${g}`, {
        observe: (m, seat, bot) => {
          expect(bot).toEqual(botView(m, seat));
          checked++;
        },
      });
    expect(checked).toBeGreaterThan(300);
  });

  it("V2: every bot vote in the count was cast by its post, whose last colour tag names the target; no other post holds one", () => {
    for (let g = 0; g < 20; g++) {
      const game = playTalkingGame(`votes-${g}`);
      const names = game.match.state.players.map((p) => p.name);
      const byPosts = game.thread
        .filter((p) => p.vote)
        .map((p) => `${p.phase.number}:${p.seat}:${p.vote!.color}:${p.vote!.target}`);
      const counted = viewFor(gameEvents(game.match), { kind: "public" }, []).pastVotes.map(
        (v) => `${v.day}:${v.seat}:${v.color}:${v.target}`,
      );
      expect(byPosts.sort()).toEqual(counted.sort());
      for (const p of game.thread) {
        const t = tags(p.text);
        if (p.vote) expect(t).toEqual([`${p.vote.color}:${names[p.vote.target]}`]);
        else expect(t).toEqual([]);
      }
      expect(byPosts.length).toBeGreaterThan(10);
    }
  });

  it("G7: a bot posts only while alive, and most living bots post every day; none repeats a post in a game", () => {
    let days = 0;
    let sentences = 0;
    let distinct = 0;
    for (let g = 0; g < 20; g++) {
      const game = playTalkingGame(`lines-${g}`);
      const bySeat = new Map<Seat, string[]>();
      for (const p of game.thread) bySeat.set(p.seat!, [...(bySeat.get(p.seat!) ?? []), p.text]);
      for (const [, texts] of bySeat) {
        expect(new Set(texts).size).toBe(texts.length);
        const lines = texts.flatMap((t) => t.split(/(?<=[.!?…])\s+/u));
        sentences += lines.length;
        distinct += new Set(lines).size;
      }
      for (let d = 1; game.thread.some((p) => p.phase.number === d && p.phase.kind === "day"); d++) {
        const posters = new Set(
          game.thread.filter((p) => p.phase.kind === "day" && p.phase.number === d).map((p) => p.seat),
        );
        // Who was alive that day: the day's votes are cast only by the living (V1), and every living bot votes.
        const voters = viewFor(gameEvents(game.match), { kind: "public" }, []).pastVotes.filter(
          (v) => v.day === d,
        );
        for (const v of voters) expect(posters.has(v.seat)).toBe(true);
        days++;
      }
    }
    expect(days).toBeGreaterThan(40);
    // A line is said again only in other words («Повторю: …»); a sentence inside a longer line may recur.
    expect(distinct / sentences).toBeGreaterThan(0.95);
  });

  it("S2: the mafia agree in their chat on tonight's target and tomorrow's push, and each keeps one cover role all game", () => {
    let pushed = 0;
    for (let g = 0; g < 12; g++) {
      const game = playTalkingGame(`story-${g}`);
      const roles = game.match.state.players.map((p) => p.role);
      for (const m of game.chat) {
        if (m.channel === "mafia") expect(isMafia(roles[m.seat!]!)).toBe(true);
        else expect(["sheriff", "sergeant"]).toContain(roles[m.seat!]);
      }
      // The night 1 story names every member's cover; a mafioso who claims in the thread claims that one.
      const story = game.chat.find(
        (m) => m.channel === "mafia" && m.phase.number === 1 && /назов|прижмут/u.test(m.text),
      );
      expect(story).toBeDefined();
      const claims = new Map<Seat, Set<string>>();
      for (const p of game.thread) {
        const claim = /(?:моя роль —|я) (мирный житель|доктор|прокурор|девочка|шахид)\./iu.exec(p.text);
        if (!claim || !isMafia(roles[p.seat!]!)) continue;
        claims.set(p.seat!, (claims.get(p.seat!) ?? new Set()).add(claim[1]!));
        // The cover the team agreed on, or a citizen's when that role was announced on someone else first.
        if (claim[1] !== "мирный житель")
          expect(story!.text).toContain(`${RANDOM_PLAYER_NAMES[p.seat!]} — ${claim[1]}`);
      }
      for (const [, said] of claims) expect(said.size).toBe(1);
      // By day the mafia bots' votes lean to the agreed push.
      for (const p of game.thread) if (p.vote && isMafia(roles[p.seat!]!)) pushed++;
    }
    expect(pushed).toBeGreaterThan(50);
  });

  it("V1: a bot answers a person who quotes or names it with a reply that quotes that post, once", () => {
    const seed = "reply";
    let m = must(startMatch({ players: RANDOM_PLAYER_NAMES.map((name) => ({ name })), seed }));
    m = must(endNight(m, { rolls: {}, council: "no" }));
    const names = m.state.players.map((p) => plain(p.name));
    const bot: Seat = m.state.players.findIndex((p, s) => s !== 0 && p.alive);
    const human: Seat = m.state.players.findIndex((p) => p.alive);
    const seeds = talkSeeds(seed, bot, m.state.players[bot]!.role);
    const question: TalkPost = {
      id: "h1",
      seat: human,
      text: `[quote=${RANDOM_PLAYER_NAMES[bot]}]старое[/quote]\n${RANDOM_PLAYER_NAMES[bot]}, кого подозреваешь? [color=red]${RANDOM_PLAYER_NAMES[bot]}[/color]`,
      phase: m.state.phase,
      vote: { color: "red", target: bot },
    };
    const thread: TalkPost[] = [question];
    const input = () => ({
      ...talkInput({ thread, chat: [] }, botView(m, bot), seeds, names, "ru"),
      humans: [human],
    });
    const reply = botReply(input())!;
    expect(
      reply.startsWith(
        `[quote=${RANDOM_PLAYER_NAMES[human]}]${RANDOM_PLAYER_NAMES[bot]}, кого подозреваешь?`,
      ),
    ).toBe(true);
    expect(reply).toContain("[/quote]");
    // The quoted vote is inside the quote: the reply itself casts nothing (V2 reads outside quotes).
    expect(tags(reply.slice(reply.indexOf("[/quote]")))).toEqual([]);
    thread.push({ id: "b1", seat: bot, text: reply, phase: m.state.phase, vote: null });
    expect(botReply(input())).toBeNull();
    // A bot does not answer another bot.
    expect(botReply({ ...input(), humans: [], thread: [question] })).toBeNull();
  });

  it("V2: in an English game the bots talk in English, and their votes are cast the same way", () => {
    const game = playTalkingGame("english", { lang: "en", phases: 4 });
    const names = game.match.state.players.map((p) => p.name);
    const words = (text: string): string => names.reduce((t, n) => t.split(n).join(""), text);
    expect(game.thread.length).toBeGreaterThan(20);
    for (const p of game.thread) expect(words(p.text)).not.toMatch(/[а-яё]/iu);
    for (const m of game.chat) expect(words(m.text)).not.toMatch(/[а-яё]/iu);
    expect(game.thread.filter((p) => p.vote).length).toBeGreaterThan(10);
  });

  it("G7: the dead say nothing: no post, reply or chat message from a dead bot", () => {
    const game = playTalkingGame("dead", { phases: 6 });
    const m = game.match;
    const dead = m.state.players.findIndex((p) => !p.alive);
    expect(dead).toBeGreaterThanOrEqual(0);
    const input = talkInput(
      game,
      botView(m, dead),
      talkSeeds("dead", dead, m.state.players[dead]!.role),
      m.state.players.map((p) => plain(p.name)),
      "ru",
    );
    expect(botDayPost(input, 0, null)).toBeNull();
    expect(botReply({ ...input, humans: [0, 1, 2] })).toBeNull();
    expect(botChat(input)).toBeNull();
  });
});

/**
 * Replays a talking game's steps against another deal: the night actions of seats a and b are exchanged
 * with their roles, the posts and votes stay as they were; every other seat's talk (and vote) is worked out
 * again from its view in the new deal and listed beside what it said in the original.
 */
function replayTalk(
  seed: string,
  roles: readonly RoleId[],
  steps: readonly TalkStep[],
  a: Seat,
  b: Seat,
): { match: Match; said: string[]; expected: string[]; samePublic: boolean } | null {
  let m = must(
    startMatch({ players: RANDOM_PLAYER_NAMES.map((name, i) => ({ name, role: roles[i]! })), seed }),
  );
  const names = m.state.players.map((p) => plain(p.name));
  const thread: TalkPost[] = [];
  const chat: TalkMessage[] = [];
  const said: string[] = [];
  const expected: string[] = [];
  const other = (s: Seat): Seat => (s === a ? b : s === b ? a : s);
  const input = (s: Seat) =>
    talkInput({ thread, chat }, botView(m, s), talkSeeds(seed, s, roles[s]!), names, "ru");
  for (const st of steps) {
    if (st.kind === "act") {
      const next = act(m, other(st.seat), st.action);
      if (isRejection(next)) return null;
      m = next;
    } else if (st.kind === "endNight") m = must(endNight(m, { rolls: {}, council: "no" }));
    else if (st.kind === "endDay") m = must(endDay(m));
    else if (st.kind === "chat") {
      if (st.seat !== a && st.seat !== b) {
        said.push(botChat(input(st.seat))?.text ?? "(nothing)");
        expected.push(st.text);
      }
      chat.push({ channel: st.channel, seat: st.seat, text: st.text, phase: m.state.phase });
    } else {
      if (st.seat !== a && st.seat !== b) {
        const i = input(st.seat);
        const ballot =
          st.vote && botVote(i.bot, talkSeeds(seed, st.seat, roles[st.seat]!).decide(m.state.phase));
        said.push(`${JSON.stringify(ballot)} ${botDayPost(i, st.slot, ballot) ?? "(nothing)"}`);
        expected.push(`${JSON.stringify(st.vote)} ${st.text}`);
      }
      thread.push({
        id: `p${thread.length}`,
        seat: st.seat,
        text: st.text,
        phase: m.state.phase,
        vote: st.vote,
      });
      if (st.vote) {
        const next = vote(m, st.seat, st.vote);
        if (isRejection(next)) return null; // the public history differs (V6): not a case to compare
        m = next;
      }
    }
  }
  return { match: m, said, expected, samePublic: true };
}
