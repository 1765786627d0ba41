import { DEFAULT_ROLES } from "@forum-mafia/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk, setUpGame } from "./play.ts";

/**
 * Issue 28: bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) reorder how the
 * text around them is shown. A one-line title or name holding one is refused at the edge, a 400 naming the
 * field, and nothing is stored; a long text (a post) is stored without them.
 */

type ErrorBody = { error: { code: string; message: string } };
/** Each control by its code point. */
const CONTROLS = [
  0x202e, 0x202a, 0x202b, 0x202c, 0x202d, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
].map((c) => [c.toString(16).toUpperCase().padStart(4, "0"), String.fromCodePoint(c)] as const);
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

let t: TestServer;
let gm: Client;
beforeAll(async () => {
  t = await testServer();
  gm = new Client(() => t.server.app, "Хозяин");
  expectOk(await gm.register());
});
afterAll(() => t.close());

const refused = (r: { status: number; body: unknown }, field: string): void => {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  const { error } = r.body as ErrorBody;
  expect(error.message).toMatch(new RegExp(`^${field}: contains a bidirectional control`));
};

describe("bidi controls in one-line fields are refused (issue 28)", () => {
  it.each(CONTROLS)("a game's title holding U+%s", async (_, c) => {
    const before = (await gm.get<{ games: unknown[] }>("/api/games")).body;
    const r = await gm.post("/api/games", {
      title: `Партия ${c}яинчоп`,
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
    });
    refused(r, "title");
    expect((await gm.get<{ games: unknown[] }>("/api/games")).body).toEqual(before);
  });

  it("a saved setup's name", async () => {
    refused(
      await gm.post("/api/me/setups", {
        name: "\u202eяавалам",
        setup: { roles: ["boss", "sheriff", "citizen", "citizen"] },
      }),
      "name",
    );
    expect((await gm.get<{ setups: unknown[] }>("/api/me/setups")).body.setups).toEqual([]);
  });

  it("a notebook's title, and a player's nick in it", async () => {
    const roles = ["boss", "sheriff", "citizen", "citizen", "citizen"];
    const body = (title: string, nick: string): unknown => ({
      title,
      players: ["Вася", "Петя", "Маша", "Коля", nick],
      roles,
      deal: { kind: "hand", roles },
    });
    refused(await gm.post("/api/notebooks", body("Блокнот \u2067", "Zybr")), "title");
    refused(await gm.post("/api/notebooks", body("Блокнот", "Zy\u202ebr")), "players.4");
    expectOk(await gm.post("/api/notebooks", body("Блокнот", "Zybr")));
  });

  it("a title without any is taken as it is (Arabic and Hebrew letters too)", async () => {
    const r = await gm.post<{ id: string }>("/api/games", {
      title: "Партия שלום مرحبا",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
      roles: [...DEFAULT_ROLES],
    });
    expectOk(r);
  });
});

describe("bidi controls in a long text are dropped (issue 28)", () => {
  it("V2: a post is stored and shown without them, so a coloured nick is the one its readers see", async () => {
    const table = await setUpGame(t, "automatic");
    const author = table.players[12]!;
    expectOk(
      await author.post(`/api/games/${table.id}/posts`, {
        text: `Голосую: [color=red]\u202eясаВ\u202c[/color]\u200f, а ты \u2066Петя\u2069?`,
      }),
    );
    const posts = await author.get(`/api/games/${table.id}/posts`);
    expectOk(posts);
    const raw = JSON.stringify(posts.body);
    expect(raw).toContain("ясаВ");
    expect(raw).toContain("а ты Петя?");
    expect(raw).not.toMatch(ANY_CONTROL);
  });
});
