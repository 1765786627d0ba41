// Bots that talk (issue 16): in a demo the bots play the thread. Their posts come at moments spread over the
// phase, each bot's vote is cast by a post that states it (V2), a person who quotes a bot gets a reply that
// quotes them, no bot says the same thing twice, and the mafia's talk stays in the mafia's channel (S2, G6).
import { isMafia } from "@forum-mafia/engine";
import { votesInPost } from "@forum-mafia/forum";
import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import type { Room } from "../src/log/room.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { detail, expectOk } from "./play.ts";

const MINUTE = 60_000;
const SECOND = 1_000;

const roomOf = (t: TestServer, id: string): Room => t.server.games.rooms.get(id)!;

/** Each bot's posts in the room so far, by seat. */
function postsBySeat(room: Room, human: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const p of room.posts) {
    if (p.seat === null || p.seat === human) continue;
    out.set(p.seat, [...(out.get(p.seat) ?? []), p.text]);
  }
  return out;
}

describe("demo bots that talk (issue 16)", () => {
  it("V2: in a day of 1-minute phases most living bots post, spread over the day, and every bot vote in the count was cast by a post that states it", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Болтун");
      expectOk(await me.register());
      const id = (await me.post<{ id: string }>("/api/demo", { minutes: 1 })).body.id;
      let d: GameDetail = await detail(me, id);
      const human = d.me.seat!;
      let days = 0;
      for (let phase = 0; phase < 40 && d.summary.status === "running"; phase++) {
        const room = roomOf(t, id);
        const kind = room.match!.state.phase.kind;
        const start = room.posts.length;
        // A quarter into the phase some bots have spoken, and not all of them: the posts are spread.
        await t.clock.advance(15 * SECOND);
        const early = room.posts.length - start;
        await t.clock.advance(44 * SECOND);
        d = await detail(me, id);
        if (kind === "day" && d.summary.status === "running" && d.view!.phase.kind === "day") {
          days++;
          const today = room.posts.slice(start);
          const living = d.view!.seats.filter((s) => s.alive && s.seat !== human);
          const posters = new Set(today.map((p) => p.seat));
          expect(living.filter((s) => posters.has(s.seat)).length).toBeGreaterThan(living.length * 0.75);
          expect(early).toBeLessThan(today.length);
          // Every vote in the count has the post that cast it, and that post's text holds it (V2).
          const names = d.view!.seats.map((s) => s.name);
          for (const v of d.view!.votes) {
            if (v.seat === human) continue;
            const cast = today.filter((p) => p.seat === v.seat && p.vote);
            expect(cast.length).toBe(1);
            expect(cast[0]!.vote).toEqual({ color: v.color, target: v.target, early: v.early });
            const read = votesInPost(cast[0]!.text, names);
            expect(read[read.length - 1]).toMatchObject({ color: v.color, name: names[v.target] });
          }
          // …and every living bot that may vote has voted (V1, G2).
          const voters = living.filter((s) => !s.cannotVote).map((s) => s.seat);
          expect(
            d
              .view!.votes.map((v) => v.seat)
              .filter((s) => s !== human)
              .sort(),
          ).toEqual(voters.sort());
        }
        await t.clock.advance(MINUTE - 59 * SECOND);
        d = await detail(me, id);
      }
      expect(days).toBeGreaterThan(0);
      // No bot says the same post twice in the game.
      for (const [, texts] of postsBySeat(roomOf(t, id), human))
        expect(new Set(texts).size).toBe(texts.length);
    } finally {
      await t.close();
    }
  });

  it("a demo of a person who reads the app in English talks in English: the bots' words, not their nicks", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Talker");
      expectOk(await me.register());
      expectOk(await me.req("PATCH", "/api/me", { lang: "en" }));
      const id = (await me.post<{ id: string }>("/api/demo", { minutes: 1 })).body.id;
      const room = roomOf(t, id);
      expect(room.title).toBe("Demo game: Talker");
      // Night 1, then most of day 1.
      await t.clock.advance(MINUTE);
      await t.clock.advance(55 * SECOND);
      const names = room.match!.state.players.map((p) => p.name);
      const bots = room.posts.filter((p) => p.seat !== null && names[p.seat] !== "Talker");
      expect(bots.length).toBeGreaterThan(5);
      for (const p of bots) {
        let words = p.text.replace(/\[\/?[a-z]+(=[^\]]*)?\]/gu, " ");
        for (const n of names) words = words.split(n).join(" ");
        expect([p.text, /[а-яё]/iu.test(words)]).toEqual([p.text, false]);
      }
    } finally {
      await t.close();
    }
  });

  it("V1: a person who quotes a bot gets a reply that quotes them, once; the mafia's talk is only in the mafia's channel (S2, G6)", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Спорщица");
      expectOk(await me.register());
      const id = (await me.post<{ id: string }>("/api/demo", { minutes: 1 })).body.id;
      await t.clock.advance(MINUTE); // day 1
      const room = roomOf(t, id);
      let d = await detail(me, id);
      const human = d.me.seat!;
      expect(d.view!.phase.kind).toBe("day");
      await t.clock.advance(20 * SECOND); // some bots have spoken
      const said = room.posts.find(
        (p) => p.seat !== null && p.seat !== human && room.match!.state.players[p.seat]!.alive,
      )!;
      expect(said).toBeDefined();
      const quote = `[quote=${said.author}]${said.text.slice(0, 60)}[/quote]\nА почему ты так думаешь?`;
      if (room.match!.state.players[human]!.alive) {
        expectOk(await me.post(`/api/games/${id}/posts`, { text: quote }));
        await t.clock.advance(10 * SECOND);
        const replies = room.posts.filter(
          (p) => p.seat === said.seat && p.text.startsWith(`[quote=${me.nick}]`),
        );
        expect(replies).toHaveLength(1);
        expect(replies[0]!.text).toContain("А почему ты так думаешь?");
        expect(replies[0]!.vote).toBeNull();
        await t.clock.advance(20 * SECOND);
        expect(
          room.posts.filter((p) => p.seat === said.seat && p.text.startsWith(`[quote=${me.nick}]`)),
        ).toHaveLength(1);
      }
      // Play on a few phases; every bot message in a team channel is its team's (S2), none elsewhere.
      for (let i = 0; i < 5 && room.status === "running"; i++) await t.clock.advance(MINUTE);
      const roles = room.match!.state.players.map((p) => p.role);
      const mafia = room.messages.get("mafia") ?? [];
      expect(mafia.filter((m) => m.seat !== human).length).toBeGreaterThan(0);
      for (const m of mafia) expect(isMafia(roles[m.seat!]!)).toBe(true);
      for (const [channel, messages] of room.messages) {
        if (channel === "mafia") continue;
        for (const m of messages) if (m.seat !== null && m.seat !== human) expect(channel).toBe("pair");
      }
      d = await detail(me, id);
      expect(d.summary.status).not.toBe("signup");
    } finally {
      await t.close();
    }
  });

  it("after a restart in the middle of a day, no bot repeats what it already said, and the ones that had not voted vote", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Перезапуск");
      expectOk(await me.register());
      const id = (await me.post<{ id: string }>("/api/demo", { minutes: 1 })).body.id;
      await t.clock.advance(MINUTE + 40 * SECOND); // day 1, two thirds through
      Object.assign(t, await t.restart());
      await t.clock.advance(19 * SECOND);
      const room = roomOf(t, id);
      const d = await detail(me, id);
      if (d.summary.status !== "running") return;
      const human = d.me.seat!;
      for (const [, texts] of postsBySeat(room, human)) expect(new Set(texts).size).toBe(texts.length);
      // Each bot's planned posts of the day: at most one per slot (3), and one vote each.
      const day1 = room.posts.filter(
        (p) => p.seat !== null && p.seat !== human && !p.text.startsWith("[quote"),
      );
      const perSeat = new Map<number, number>();
      for (const p of day1) perSeat.set(p.seat!, (perSeat.get(p.seat!) ?? 0) + 1);
      for (const [, n] of perSeat) expect(n).toBeLessThanOrEqual(3);
      const voters = d
        .view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== human)
        .map((s) => s.seat);
      expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.sort());
    } finally {
      await t.close();
    }
  });
});
