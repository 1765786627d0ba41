import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail, PostPreview } from "@forum-mafia/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk, NICKS, NIGHT_MS } from "./play.ts";

/**
 * Issue 12: POST /api/games/:id/posts/preview says what a draft post would count as, read by the same
 * code as a post (V2), and stores nothing.
 */

// «Белый Кролик» holds the last seat (a citizen); Аня the first (the boss).
const RABBIT = "Белый Кролик";
const PLAYERS = [...NICKS.slice(0, DEFAULT_ROLES.length - 1), RABBIT];
const RABBIT_SEAT = PLAYERS.length - 1;

describe("the post preview (issue 12)", () => {
  let t: TestServer;
  let gm: Client;
  let anya: Client;
  let id = "";
  const preview = (c: Client, text: string) =>
    c.post<PostPreview>(`/api/games/${id}/posts/preview`, { text });
  const detail = async (c: Client): Promise<GameDetail> => (await c.get<GameDetail>(`/api/games/${id}`)).body;

  beforeAll(async () => {
    t = await testServer();
    const app = () => t.server.app;
    gm = new Client(app, "Ведущий");
    expectOk(await gm.register());
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Превью",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
    });
    expectOk(created);
    id = created.body.id;
    const clients: Client[] = [];
    for (const nick of PLAYERS) {
      const c = new Client(app, nick);
      expectOk(await c.register());
      expectOk(await c.post(`/api/games/${id}/signup`));
      clients.push(c);
    }
    anya = clients[0]!;
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: [...DEFAULT_ROLES] } }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("V2: at night a coloured nick is no vote, and the preview says it is night", async () => {
    const r = await preview(anya, `[color=red]${RABBIT}[/color]`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      vote: null,
      refused: null,
      unmatched: [],
      night: true,
      counts: true,
      profanity: { flag: null, words: [] },
    });
  });

  it("V2: by day a red nick is a vote against that player, with its name", async () => {
    await t.clock.advance(NIGHT_MS);
    expect((await detail(anya)).view!.phase).toMatchObject({ kind: "day", number: 1 });
    const r = await preview(anya, `Я за [color=red]${RABBIT}[/color]\nдосрочно`);
    expect(r.status).toBe(200);
    // V7: before day 3 the word has no effect.
    expect(r.body.vote).toEqual({ color: "red", target: RABBIT_SEAT, name: RABBIT, early: false });
    expect(r.body.refused).toBeNull();
    expect(r.body.night).toBe(false);
  });

  it("V2: a red «Кролик» for «Белый Кролик» is no vote; it is listed unmatched with the nearest name", async () => {
    const r = await preview(anya, "[color=red]Кролик[/color] и [color=blue]Зоя[/color]");
    expect(r.status).toBe(200);
    expect(r.body.unmatched).toEqual([{ color: "red", text: "Кролик", nearest: [RABBIT] }]);
    expect(r.body.vote).toMatchObject({ color: "blue", name: "Зоя" });
  });

  it("V3: a vote for oneself is shown refused, with its code and clause", async () => {
    const r = await preview(anya, "[color=red]Аня[/color]");
    expect(r.status).toBe(200);
    expect(r.body.vote).toBeNull();
    expect(r.body.refused).toMatchObject({ code: "vote/self", clause: "V3" });
    // The post itself would be refused with the same reason.
    const posted = await anya.post(`/api/games/${id}/posts`, { text: "[color=red]Аня[/color]" });
    expect(posted.status).toBeGreaterThanOrEqual(400);
    expect(posted.raw).toContain("vote/self");
  });

  it("V1: stores nothing: no post, no vote", async () => {
    const before = await anya.get<{ total: number }>(`/api/games/${id}/posts`);
    expect((await preview(anya, `[color=red]${RABBIT}[/color]`)).status).toBe(200);
    const after = await anya.get<{ total: number }>(`/api/games/${id}/posts`);
    expect(after.body.total).toBe(before.body.total);
    expect((await detail(gm)).view!.votes).toEqual([]);
  });

  it("V1: the GM may preview, and the GM's coloured nicks never count; others are refused", async () => {
    const r = await preview(gm, `[color=red]${RABBIT}[/color]`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ vote: null, refused: null, counts: false });
    const stranger = new Client(() => t.server.app, "Чужой");
    expectOk(await stranger.register());
    expect((await preview(stranger, "[color=red]Аня[/color]")).status).toBe(403);
    const guest = new Client(() => t.server.app);
    expect((await preview(guest, "[color=red]Аня[/color]")).status).toBe(401);
    expect((await preview(anya, "   ")).status).toBe(400);
  });
});
