import {
  castVote,
  checkListedQuestion,
  earlyCounts,
  checkVote,
  isRejection,
  type HealFromRole,
  type RoleId as EngineRoleId,
  type TargetedAct as EngineTargetedAct,
  submitNightAction,
  type NightAction,
  type Rejection,
  type Vote,
} from "@forum-mafia/engine";
import { nickKey, unmatchedColours, votesInPost } from "@forum-mafia/forum";
import type {
  ActionRequest,
  ChannelId,
  HEAL_FROM_ROLES,
  PostPreview,
  RoleId,
  TargetedAct,
} from "@forum-mafia/protocol";
import { nanoid } from "nanoid";
import type { EntryBody } from "../log/entries.ts";
import type { Games } from "../log/games.ts";
import type { IdempotencyMark } from "../log/idempotency.ts";
import type { Room } from "../log/room.ts";
import { conflict, forbidden, notFound, refused } from "../http/errors.ts";
import type { UserRecord } from "../stores/store.ts";
import { channelsOf } from "../views/channels.ts";
import { autoMeasures, flagOf, textCheck } from "./conduct.ts";

/**
 * protocol writes out the engine's role and act lists (the web app must not load the engine); the
 * compiler checks here, where both are seen, that they are the same sets.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const WIRE_MATCHES_ENGINE: [
  Same<RoleId, EngineRoleId>,
  Same<TargetedAct, EngineTargetedAct>,
  Same<(typeof HEAL_FROM_ROLES)[number], HealFromRole>,
] = [true, true, true];

/** The vote a post holds (V2), or why the engine would refuse it. */
type PostVoteCheck = { readonly vote: Vote } | { readonly refused: Rejection };

/**
 * Issue 29: the players' commands (night actions, votes, posts, channel messages) and the preview of a
 * post, each decided against the room and committed through the log keeper.
 */
export class Play {
  constructor(private readonly games: Games) {}

  async act(
    user: UserRecord,
    id: string,
    action: NightAction,
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    await this.games.commit(
      id,
      (room) => {
        const seat = playerSeat(user, room);
        const m = room.match!;
        const r = submitNightAction(m.state, m.night, seat, action);
        if (isRejection(r)) throw refused(r);
        // M2c: without a GM the council answers only the questions of the rules' list (council.ts).
        if (action.act === "council" && room.settings.mode === "automatic") {
          const unlisted = checkListedQuestion(action.question);
          if (unlisted) throw refused(unlisted);
        }
        return [{ kind: "act", seat, action }];
      },
      idem,
    );
  }

  async vote(user: UserRecord, id: string, v: Vote, idem: IdempotencyMark | null = null): Promise<void> {
    await this.games.commit(
      id,
      (room) => {
        const seat = playerSeat(user, room);
        refuseBadVote(room, seat, v);
        return withEarlyClose(room, [{ kind: "vote", seat, vote: v }], seat, v);
      },
      idem,
    );
  }

  async post(
    user: UserRecord,
    id: string,
    text: string,
    idem: IdempotencyMark | null = null,
  ): Promise<string> {
    const postId = nanoid(12);
    const replay = await this.games.commit(
      id,
      (room) => {
        const { seat, isGm, vote } = readPost(room, user, text);
        if (vote && "refused" in vote) throw refused(vote.refused);
        const v = vote?.vote ?? null;
        const author = isGm ? null : seat;
        const flag = author === null ? null : flagOf(text);
        const bodies: EntryBody[] = [
          { kind: "post", id: postId, seat: author, text, vote: v, ...(flag ? { flag } : {}) },
        ];
        // G5: the game's policy acts in the same commit, before an early close ends the day (V7).
        if (flag && author !== null) bodies.push(...autoMeasures(room, author, postId, "thread"));
        return v && seat !== null ? withEarlyClose(room, bodies, seat, v) : bodies;
      },
      idem,
    );
    return replay?.created ?? postId;
  }

  /**
   * What a draft post would count as (issue 12), read exactly as `post` reads it, with nothing stored:
   * the vote or why it would be refused, the text in a vote colour that names no player, and whether it
   * is night (V2: no votes then). Same access as posting.
   */
  previewPost(user: UserRecord, id: string, text: string): PostPreview {
    const room = this.games.room(id);
    const { seat, isGm, vote } = readPost(room, user, text);
    const state = room.match!.state;
    const names = state.players.map((p) => p.name);
    const running = room.status === "running";
    return {
      vote:
        vote && "vote" in vote
          ? {
              color: vote.vote.color,
              target: vote.vote.target,
              name: names[vote.vote.target]!,
              early: vote.vote.early && earlyCounts(state.phase.number, state.options.earlyFromDay),
            }
          : null,
      refused:
        vote && "refused" in vote
          ? { code: vote.refused.code, message: vote.refused.message, clause: vote.refused.clause }
          : null,
      unmatched: unmatchedColours(text, names).map((u) => ({
        color: u.color,
        text: u.text,
        nearest: u.nearest,
      })),
      night: running && state.phase.kind === "night",
      counts: running && !isGm && seat !== null,
      profanity: textCheck(text),
    };
  }

  async message(
    user: UserRecord,
    id: string,
    channel: ChannelId,
    text: string,
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    const messageId = nanoid(12);
    await this.games.commit(
      id,
      (room) => {
        if (room.status === "signup")
          throw conflict("game/not-started", "the channels open when the game starts");
        const isGm = room.gmId === user.id;
        const seat = room.seatOf(user.id);
        if (!isGm) {
          if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
          const may = channelsOf(room, seat).find((c) => c.id === channel);
          if (!may)
            throw forbidden("channel/not-member", `you are not a member of the channel ${channel}`, "G6");
          if (!may.canPost)
            throw forbidden("channel/dead", `the dead cannot write in a channel of the living`, "G7");
        } else if (channel.startsWith("gm:") && !room.match!.state.players[Number(channel.slice(3))]) {
          throw notFound(`no seat ${channel.slice(3)}`);
        }
        const author = isGm ? null : seat;
        const flag = author === null ? null : flagOf(text);
        const body: EntryBody = {
          kind: "message",
          id: messageId,
          channel,
          seat: author,
          text,
          ...(flag ? { flag } : {}),
        };
        return flag && author !== null ? [body, ...autoMeasures(room, author, messageId, channel)] : [body];
      },
      idem,
    );
  }
}

/** The user's seat in a running game (409 before the start or after the end, 403 without a seat). */
function playerSeat(user: UserRecord, room: Room): number {
  if (room.status === "signup") throw conflict("game/not-started", "the game has not started");
  if (room.status === "ended") throw conflict("game/over", "the game is over", "W1");
  const seat = room.seatOf(user.id);
  if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
  return seat;
}

/** The engine's checks of a one-tap vote (V2), thrown as its refusal. */
function refuseBadVote(room: Room, seat: number, v: Vote): void {
  const m = room.match!;
  const bad = checkVote(m.state, m.day, seat, v);
  if (bad) throw refused(bad);
}

/** V7: when this vote closes the day early, the day's end is stored with it, in the same commit. */
function withEarlyClose(room: Room, bodies: EntryBody[], seat: number, v: Vote): EntryBody[] {
  if (!v.early) return bodies;
  const m = room.match!;
  const next = castVote(m.state, m.day, seat, v); // pure: the ballots as they would be
  return !isRejection(next) && next.closedEarly ? [...bodies, { kind: "endDay" }] : bodies;
}

/**
 * The checks every post passes (the thread is open, the author holds a seat or is the GM, G7) and the
 * vote it holds: the one code path of `post` and `previewPost`.
 */
function readPost(
  room: Room,
  user: UserRecord,
  text: string,
): { seat: number | null; isGm: boolean; vote: PostVoteCheck | null } {
  if (room.status === "signup") throw conflict("game/not-started", "the thread opens when the game starts");
  const isGm = room.gmId === user.id;
  const seat = room.seatOf(user.id);
  if (!isGm && seat === null)
    throw forbidden("not-a-player", "only the players and the GM write in the game thread");
  let vote: PostVoteCheck | null = null;
  if (seat !== null && room.status === "running") {
    const p = room.match!.state.players[seat]!;
    if (!p.alive) throw forbidden("post/dead", `${p.name} is dead and cannot post in the game thread`, "G7");
    vote = voteInPost(room, seat, text);
  }
  return { seat, isGm, vote };
}

/** V2: the post's last coloured vote, outside quotes, checked like a one-tap vote; none at night. */
function voteInPost(room: Room, seat: number, text: string): PostVoteCheck | null {
  const m = room.match!;
  const state = m.state;
  if (state.phase.kind !== "day") return null;
  const names = state.players.map((p) => p.name);
  const found = votesInPost(text, names);
  const last = found[found.length - 1];
  if (!last) return null;
  const key = nickKey(last.name);
  const target = names.findIndex((n) => nickKey(n) === key);
  const v: Vote = { color: last.color, target, early: last.early };
  const bad = checkVote(state, m.day, seat, v);
  return bad ? { refused: bad } : { vote: v };
}

/** A night action as the API receives it, as the engine takes it. */
export function toNightAction(req: ActionRequest): NightAction {
  switch (req.act) {
    case "mafia":
      return { act: "mafia", kill: req.kill, intimidate: req.intimidate };
    case "council":
      return { act: "council", question: req.question };
    case "healFrom":
      return { act: "healFrom", role: req.role };
    case "pass":
      return { act: "pass" };
    default:
      return { act: req.act, target: req.target };
  }
}
