import * as P from "@forum-mafia/protocol";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "../src/http/routes/context.ts";
import { resultsToolSchema, threadToolSchema, voteCountToolSchema } from "../src/tools/tools.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

/**
 * Issue 28, item 3: a large body is read off the event loop. The routes that take bodies up to 5 MiB (the
 * GM tools and the notebook's pasted thread) get the body as the bytes that arrived; decoding, parsing and
 * the schema's check run in the tools' worker threads, never on the event loop. The refusals stay what they
 * were, word for word, and a body nested too deeply is a 400, not a 500. Checked by what runs where (spies
 * on the event loop's JSON.parse and on the schemas), never by timing.
 */
const ROOT = join(import.meta.dirname, "../../..");
const FIXTURES = join(ROOT, "packages/forum/test/fixtures");
const PLAYERS = readFileSync(join(FIXTURES, "votecount-players.txt"), "utf8");
const THREAD = JSON.parse(readFileSync(join(FIXTURES, "votecount-thread.json"), "utf8")) as unknown[];
const PAGE = readFileSync(join(FIXTURES, "pages/phpbb.html"), "utf8");

/** A forum page with its posts over and over: about `bytes` long. */
function bigPage(bytes: number): string {
  const first = PAGE.indexOf('<div id="p4501"');
  const end = PAGE.indexOf('<div class="action-bar bar-bottom">');
  const middle = PAGE.slice(first, end);
  return PAGE.slice(0, first) + middle.repeat(Math.ceil(bytes / middle.length)) + PAGE.slice(end);
}
/** The fixture's posts over and over: about 150 bytes each. */
const bigThread = (posts: number): unknown[] =>
  Array.from({ length: posts }, (_, i) => THREAD[i % THREAD.length]);

interface ErrorBody {
  error: { code: string; message: string; clause?: string };
}

const NOT_JSON = {
  code: "FST_ERR_CTP_INVALID_JSON_BODY",
  message: "body: Body is not valid JSON but content-type is set to 'application/json'",
};
const NOT_TEXT = "contains U+0000 or an unpaired UTF-16 surrogate, which is not text";

let t: TestServer;
let gm: Client;
/** A notebook in day 1, and one still in night 1. */
let dayBook: string;
let nightBook: string;
/** Every large-body request's body as the route's handlers see it: bytes or not. */
const bodies: { url: string; bytes: boolean }[] = [];

async function notebook(title: string, toDay: boolean): Promise<string> {
  const roles: P.RoleId[] = ["boss", "sheriff", "citizen", "citizen", "citizen"];
  const made = await gm.post<{ id: string }>("/api/notebooks", {
    title,
    players: ["Вася", "Петя", "Маша", "Коля", "Zybr"],
    roles,
    deal: { kind: "hand", roles },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.id;
  if (toDay) {
    for (const seat of [0, 1])
      expectOk(await gm.post(`/api/notebooks/${id}/actions`, { seat, action: { act: "pass" } }));
    expectOk(await gm.post(`/api/notebooks/${id}/close`, {}));
  }
  return id;
}

beforeAll(async () => {
  t = await testServer();
  t.server.app.addHook("preHandler", (req, _reply, done) => {
    const url = req.routeOptions.url ?? "";
    if (url.startsWith("/api/tools/") || url === "/api/notebooks/:id/thread")
      bodies.push({ url, bytes: Buffer.isBuffer(req.body) });
    done();
  });
  gm = new Client(() => t.server.app, "Ведущий");
  expectOk(await gm.register());
  dayBook = await notebook("День", true);
  nightBook = await notebook("Ночь", false);
}, 60_000);
afterAll(() => t.close());

/** A body sent as it is (any bytes), with the GM's session, from its own address. */
async function send(
  url: string,
  payload: string | Buffer | null,
  type: string | null = "application/json",
): Promise<{ status: number; body: ErrorBody & Record<string, unknown> }> {
  const r = await t.server.app.inject({
    method: "POST",
    url,
    headers: { cookie: gm.cookie!, ...(type ? { "content-type": type } : {}) },
    ...(payload !== null ? { payload } : {}),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as ErrorBody & Record<string, unknown> };
}

describe("issue 28, item 3: a large body is read off the event loop", () => {
  it("reaches the large-body routes' handlers as the bytes that arrived", async () => {
    bodies.length = 0;
    expect((await send("/api/tools/results", JSON.stringify({ replay: {} }))).status).toBe(400);
    expect((await send("/api/tools/thread", JSON.stringify({ paste: { text: "Вася" } }))).status).toBe(200);
    expect(
      (await send("/api/tools/votecount", JSON.stringify({ players: PLAYERS, thread: THREAD }))).status,
    ).toBe(200);
    expect((await send(`/api/notebooks/${dayBook}/thread`, JSON.stringify({ text: "Вася" }))).status).toBe(
      200,
    );
    expect(bodies).toEqual([
      { url: "/api/tools/results", bytes: true },
      { url: "/api/tools/thread", bytes: true },
      { url: "/api/tools/votecount", bytes: true },
      { url: "/api/notebooks/:id/thread", bytes: true },
    ]);
  });

  it("parses and checks no large body on the event loop: the worker does, and answers as before", async () => {
    const parsedHere: number[] = [];
    const json = JSON.parse.bind(JSON);
    const spies = [
      vi
        .spyOn(JSON, "parse")
        .mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
          if (typeof text === "string" && text.length > 1_000_000) parsedHere.push(text.length);
          return json(text, reviver) as unknown;
        }),
      ...[voteCountToolSchema, threadToolSchema, resultsToolSchema, P.notebookThreadSchema].map((s) =>
        vi.spyOn(s, "safeParse"),
      ),
    ];
    try {
      const html = bigPage(2_000_000);
      const read = await send("/api/tools/thread", JSON.stringify({ paste: { html } }));
      expect(read.status).toBe(200);
      expect(read.body.kind).toBe("html");
      const counted = await send(
        "/api/tools/votecount",
        JSON.stringify({ players: PLAYERS, thread: bigThread(14_000) }),
      );
      expect(counted.status).toBe(200);
      expect(counted.body.votes).toBeInstanceOf(Array);
      const refused = await send(
        "/api/tools/results",
        JSON.stringify({ replay: { phases: bigThread(14_000) }, x: 1 }),
      );
      expect(refused.body.error).toEqual({ code: "invalid", message: 'unknown field "x"' });
      const pasted = await send(`/api/notebooks/${dayBook}/thread`, JSON.stringify({ html }));
      expect(pasted.status).toBe(200);
      expect(parsedHere).toEqual([]);
      for (const spy of spies.slice(1)) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  /** Hostile bodies, each with the answer the event loop gave before (worked out by hand from zod's wording). */
  const hostile: readonly {
    name: string;
    url: string;
    payload: () => string | Buffer | null;
    type?: string | null;
    status: number;
    error: { code: string; message: string };
  }[] = [
    {
      name: "JSON cut short",
      url: "/api/tools/votecount",
      payload: () => JSON.stringify({ players: PLAYERS, thread: bigThread(20_000) }).slice(0, -1),
      status: 400,
      error: NOT_JSON,
    },
    {
      name: "an empty body",
      url: "/api/tools/thread",
      payload: () => "",
      status: 400,
      error: { code: "FST_ERR_CTP_EMPTY_JSON_BODY", message: "body: empty JSON body" },
    },
    {
      name: "prototype poisoning",
      url: "/api/tools/thread",
      payload: () => '{"__proto__":{"admin":true},"paste":{"text":"x"}}',
      status: 400,
      error: NOT_JSON,
    },
    {
      name: "no body at all",
      url: "/api/tools/thread",
      payload: () => null,
      type: null,
      status: 400,
      error: { code: "invalid", message: "paste: Invalid input: expected object, received undefined" },
    },
    {
      name: "JSON null",
      url: "/api/tools/votecount",
      payload: () => "null",
      status: 400,
      error: { code: "invalid", message: "players: Invalid input: expected string, received undefined" },
    },
    {
      name: "a field of the wrong type",
      url: "/api/tools/votecount",
      payload: () => JSON.stringify({ players: 12, thread: [] }),
      status: 400,
      error: { code: "invalid", message: "players: Invalid input: expected string, received number" },
    },
    {
      name: "U+0000 at the end of 4 MB",
      url: "/api/tools/thread",
      payload: () => JSON.stringify({ paste: { text: "а".repeat(2_000_000) + "\u0000" } }),
      status: 400,
      error: { code: "invalid", message: `paste.text: ${NOT_TEXT}` },
    },
    {
      name: "lone surrogates",
      url: `/api/notebooks/{day}/thread`,
      payload: () => `{"text":"${"\\ud800".repeat(100_000)}"}`,
      status: 400,
      error: { code: "invalid", message: `text: ${NOT_TEXT}` },
    },
    {
      name: "4 MB of players",
      url: "/api/tools/votecount",
      payload: () => JSON.stringify({ players: "а".repeat(2_000_000), thread: [] }),
      status: 400,
      error: { code: "invalid", message: "players: Too big: expected string to have <=100000 characters" },
    },
    {
      name: "4 MB in an unknown field",
      url: "/api/tools/thread",
      payload: () => JSON.stringify({ paste: { text: "x" }, extra: "а".repeat(2_000_000) }),
      status: 400,
      error: { code: "invalid", message: 'unknown field "extra"' },
    },
    {
      name: "a huge array",
      url: "/api/tools/votecount",
      payload: () => `{"players":"x","thread":[${"0,".repeat(1_000_000)}0]}`,
      status: 400,
      error: { code: "invalid", message: "thread: Too big: expected array to have <=50000 items" },
    },
    {
      name: "a million silenced",
      url: "/api/tools/votecount",
      payload: () => `{"players":"x","thread":[],"silenced":[${'"a",'.repeat(1_000_000)}"a"]}`,
      status: 400,
      error: { code: "invalid", message: "silenced: Too big: expected array to have <=64 items" },
    },
    {
      name: "an empty paste in a notebook",
      url: `/api/notebooks/{day}/thread`,
      payload: () => JSON.stringify({ html: " ", text: "\n" }),
      status: 400,
      error: { code: "html", message: "html: paste the thread (its HTML, or its BBCode or text as `text`)" },
    },
    {
      name: "a bad body at night: the body's refusal first",
      url: `/api/notebooks/{night}/thread`,
      payload: () => JSON.stringify({ html: 5 }),
      status: 400,
      error: { code: "invalid", message: "html: Invalid input: expected string, received number" },
    },
  ];

  for (const h of hostile)
    it(`refuses ${h.name} as before, and the server goes on answering`, async () => {
      const url = h.url.replace("{day}", dayBook).replace("{night}", nightBook);
      const r = await send(url, h.payload(), h.type === undefined ? "application/json" : h.type);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: h.status, error: h.error });
      expect((await gm.get("/api/health")).status).toBe(200);
    });

  it("refuses a thread nested two million deep with a 400 naming the body, not a 500", async () => {
    const deep = `{"players":"x","thread":${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}}`;
    const r = await send("/api/tools/votecount", deep);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid");
    const replay = await send(
      "/api/tools/results",
      `{"replay":{"phases":${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}}}`,
    );
    expect(replay.status).toBe(400);
    expect((await gm.get("/api/health")).status).toBe(200);
  });

  it("gives a good body at night the notebook's own refusal, after the body is found well-formed", async () => {
    const r = await send(`/api/notebooks/${nightBook}/thread`, JSON.stringify({ text: "Вася" }));
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("notebook/not-day");
  });

  it("fuzz: a broken or odd body gets the refusal the event loop's parse and schema gave", async () => {
    /** The answer before issue 28: fastify's JSON parser, then the route's schema, on the event loop. */
    const before = (schema: typeof threadToolSchema | typeof voteCountToolSchema, text: string) => {
      if (text === "") return { code: "FST_ERR_CTP_EMPTY_JSON_BODY", message: "body: empty JSON body" };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return NOT_JSON;
      }
      try {
        parse(schema, value ?? {}, "body");
        return null;
      } catch (e) {
        const { code, message } = e as { code: string; message: string };
        return { code, message };
      }
    };
    const shaped = fc.record(
      {
        players: fc.oneof(fc.string(), fc.integer(), fc.constant(PLAYERS)),
        paste: fc.oneof(fc.record({ text: fc.string() }, { requiredKeys: [] }), fc.jsonValue()),
        thread: fc.oneof(fc.constant(THREAD), fc.array(fc.jsonValue(), { maxLength: 3 })),
        day: fc.oneof(fc.integer({ min: -2, max: 1000 }), fc.string()),
        silenced: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      shaped.map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      shaped.chain((v) => {
        const s = JSON.stringify(v);
        return fc.nat({ max: s.length }).map((n) => s.slice(0, n));
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/tools/thread", "/api/tools/votecount"),
        body,
        async (url, text) => {
          const r = await send(url, text);
          expect(r.status).toBeLessThan(500);
          const want = before(url === "/api/tools/thread" ? threadToolSchema : voteCountToolSchema, text);
          if (want !== null)
            expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error: want });
        },
      ),
      { numRuns: 80, seed: 28 },
    );
  });
});
