import type { GameDetail, PostView } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { HAND, myGame, put, seat, storeServer, type StoreServer } from "./me-helpers.ts";
import { detail, expectOk, NICKS, setUpGame, type Table } from "./play.ts";

/** Issue 15: unread state (PUT /api/games/:id/read, GameDetail.unread) and «Посты игрока» (?seat=). */

let t: StoreServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

type G = Table & { by: (n: string) => Client };

async function table(): Promise<G> {
  t = await storeServer();
  const g = await setUpGame(t, "automatic", HAND);
  return { ...g, by: (nick) => g.players[seat(nick)]! };
}

const say = async (c: Client, id: string, text: string) =>
  expectOk(await c.post(`/api/games/${id}/posts`, { text }));
const write = async (c: Client, id: string, channel: string, text: string) =>
  expectOk(await c.post(`/api/games/${id}/channels/${channel}`, { text }));
const unread = async (c: Client, id: string): Promise<NonNullable<GameDetail["unread"]>> =>
  (await detail(c, id)).unread!;
const read = (c: Client, id: string, body: unknown) => put(t!, c, `/api/games/${id}/read`, body);

describe("unread in the thread", () => {
  it("another player's post counts, one's own never; the GM's own posts neither", async () => {
    const g = await table();
    await say(g.by("Маша"), g.id, "Привет");
    await say(g.by("Маша"), g.id, "Как дела?");
    await say(g.gm, g.id, "Ночь первая");
    expect((await unread(g.by("Маша"), g.id)).thread).toEqual({ unread: 1, readUpTo: 0 });
    expect((await unread(g.by("Ника"), g.id)).thread).toEqual({ unread: 3, readUpTo: 0 });
    expect((await unread(g.gm, g.id)).thread).toEqual({ unread: 2, readUpTo: 0 });
    expect((await myGame(g.by("Ника"), g.id))!.unread.thread).toBe(3);
    expect((await myGame(g.by("Маша"), g.id))!.unread.thread).toBe(1);
    // Without a session there is nobody to have read anything.
    expect((await detail(new Client(() => t!.server.app), g.id)).unread).toBeNull();
  });

  it("a mark from one session is seen from another session of the same user; upTo is clamped to the thread", async () => {
    const g = await table();
    for (const text of ["раз", "два", "три"]) await say(g.by("Маша"), g.id, text);
    const phone = g.by("Ника");
    const laptop = new Client(() => t!.server.app, "Ника");
    expectOk(await laptop.post("/api/login", { nick: "Ника", password: "correct horse battery" }));
    expect(laptop.cookie).not.toBe(phone.cookie);
    expectOk(await read(phone, g.id, { where: "thread", upTo: 2 }));
    expect((await unread(laptop, g.id)).thread).toEqual({ unread: 1, readUpTo: 2 });
    expect((await myGame(laptop, g.id))!.unread.thread).toBe(1);
    // A mark only moves forward, and never past the thread's end.
    expectOk(await read(laptop, g.id, { where: "thread", upTo: 1 }));
    expect((await unread(phone, g.id)).thread.readUpTo).toBe(2);
    expectOk(await read(laptop, g.id, { where: "thread", upTo: 1_000 }));
    expect((await unread(phone, g.id)).thread).toEqual({ unread: 0, readUpTo: 3 });
    await say(g.by("Маша"), g.id, "четыре");
    expect((await unread(phone, g.id)).thread).toEqual({ unread: 1, readUpTo: 3 });
    // Another user's marks are their own.
    expect((await unread(g.by("Олег"), g.id)).thread).toEqual({ unread: 4, readUpTo: 0 });
  });

  it("refuses without a session (401), for an unknown game (404), a bad body (400)", async () => {
    const g = await table();
    const anonymous = new Client(() => t!.server.app);
    expect((await read(anonymous, g.id, { where: "thread", upTo: 1 })).status).toBe(401);
    expect((await read(g.by("Ника"), "nosuchgame", { where: "thread", upTo: 1 })).status).toBe(404);
    expect((await read(g.by("Ника"), g.id, { where: "thread", upTo: -1 })).status).toBe(400);
    expect((await read(g.by("Ника"), g.id, { where: "lobby", upTo: 1 })).status).toBe(400);
  });
});

describe("unread in channels", () => {
  it("S2: only the viewer's own channels, each with its unread messages; one's own never count", async () => {
    const g = await table();
    await write(g.by("Аня"), g.id, "mafia", "Бьём Машу");
    await write(g.by("Аня"), g.id, "mafia", "Или Нику");
    await write(g.by("Борис"), g.id, "mafia", "Согласен");
    const boss = await unread(g.by("Аня"), g.id);
    expect(boss.channels).toEqual([
      { id: "mafia", unread: 1, readUpTo: 0 },
      // S1: the role message is the GM's, unread until read.
      { id: `gm:${seat("Аня")}`, unread: 1, readUpTo: 0 },
    ]);
    const troll = await unread(g.by("Борис"), g.id);
    expect(troll.channels.find((c) => c.id === "mafia")).toEqual({ id: "mafia", unread: 2, readUpTo: 0 });
    expect((await unread(g.by("Ника"), g.id)).channels).toEqual([
      { id: `gm:${seat("Ника")}`, unread: 1, readUpTo: 0 },
    ]);
    expect((await myGame(g.by("Борис"), g.id))!.unread.channels).toBe(3);
    expectOk(await read(g.by("Борис"), g.id, { where: "mafia", upTo: 3 }));
    expect((await myGame(g.by("Борис"), g.id))!.unread.channels).toBe(1);
    // The GM reads every channel; the GM's own role messages are not unread for the GM.
    const gm = await unread(g.gm, g.id);
    expect(gm.channels.find((c) => c.id === "mafia")!.unread).toBe(3);
    expect(gm.channels.filter((c) => c.id.startsWith("gm:")).map((c) => c.unread)).toEqual(
      NICKS.map(() => 0),
    );
    expectOk(await read(g.gm, g.id, { where: `gm:${seat("Ника")}`, upTo: 1 }));
  });

  it("G6: a mark in a channel the user is not in is refused, alike for a busy and an empty one, and stores nothing", async () => {
    const g = await table();
    await write(g.by("Аня"), g.id, "mafia", "Бьём Машу");
    const nika = g.by("Ника");
    const busy = await read(nika, g.id, { where: "mafia", upTo: 1 });
    const empty = await read(nika, g.id, { where: "pair", upTo: 1 });
    const none = await read(nika, g.id, { where: "spectators", upTo: 0 });
    const other = await read(nika, g.id, { where: `gm:${seat("Маша")}`, upTo: 1 });
    const noSeat = await read(nika, g.id, { where: "gm:63", upTo: 1 });
    expect(busy.status).toBe(403);
    for (const r of [empty, none, other, noSeat]) expect([r.status, r.raw]).toEqual([busy.status, busy.raw]);
    const me = (await nika.get<{ user: { id: string } }>("/api/me")).body.user;
    expect(await t!.store.accounts.readMarks(me.id, g.id)).toEqual({});
    expectOk(await read(nika, g.id, { where: `gm:${seat("Ника")}`, upTo: 1 }));
    expect(await t!.store.accounts.readMarks(me.id, g.id)).toEqual({ [`gm:${seat("Ника")}`]: 1 });
  });
});

describe("«Посты игрока»", () => {
  it("?seat= lists one seat's posts, counts only them and pages through them; a hidden post stays hidden", async () => {
    const g = await table();
    await say(g.by("Маша"), g.id, "первый");
    await say(g.by("Ника"), g.id, "чужой");
    await say(g.by("Маша"), g.id, "[b]второй[/b]");
    await say(g.gm, g.id, "от ведущего");
    await say(g.by("Маша"), g.id, "третий");
    const all = (await g.gm.get<{ posts: PostView[] }>(`/api/games/${g.id}/posts`)).body.posts;
    const second = all.filter((p) => p.seat === seat("Маша"))[1]!;
    expectOk(await g.gm.post(`/api/games/${g.id}/posts/${second.id}/hide`, { reason: "оффтоп" }));
    const page = (url: string) => g.by("Олег").get<{ posts: PostView[]; total: number }>(url);
    const mine = (await page(`/api/games/${g.id}/posts?seat=${seat("Маша")}`)).body;
    expect(mine.total).toBe(3);
    expect(mine.posts.map((p) => [p.seat, p.html, p.hidden])).toEqual([
      [seat("Маша"), "первый", null],
      [seat("Маша"), "", { reason: "оффтоп" }],
      [seat("Маша"), "третий", null],
    ]);
    const paged = (await page(`/api/games/${g.id}/posts?seat=${seat("Маша")}&after=1&limit=1`)).body;
    expect([paged.total, paged.posts.map((p) => p.id)]).toEqual([3, [second.id]]);
    expect((await page(`/api/games/${g.id}/posts?seat=${seat("Рома")}`)).body).toEqual({
      posts: [],
      total: 0,
    });
    expect((await page(`/api/games/${g.id}/posts`)).body.total).toBe(5);
    expect((await page(`/api/games/${g.id}/posts?seat=64`)).status).toBe(400);
  });
});
