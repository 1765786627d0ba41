import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";

/**
 * The GM tools for games on other forums (issue 6): the vote counter and the results writer answer as the
 * `votecount` and `results` commands print, need no login, and refuse bad input with a 400 naming it.
 */
const ROOT = join(import.meta.dirname, "../../..");
const FIXTURES = join(ROOT, "packages/forum/test/fixtures");
const PLAYERS = readFileSync(join(FIXTURES, "votecount-players.txt"), "utf8");
const THREAD: unknown = JSON.parse(readFileSync(join(FIXTURES, "votecount-thread.json"), "utf8"));
const REPLAY = JSON.parse(readFileSync(join(ROOT, "packages/engine/samples/six-players.json"), "utf8")) as {
  phases: unknown[];
};

interface ErrorBody {
  error: { code: string; message: string; clause?: string };
}

let t: TestServer;
let anyone: Client;

beforeAll(async () => {
  t = await testServer();
  anyone = new Client(() => t.server.app);
});
afterAll(async () => t.close());

describe("vote counter tool", () => {
  it("counts a thread without a login, as the CLI prints it", async () => {
    const r = await anyone.post<{ votes: unknown[]; notVoted: string[]; ignored: unknown[]; count: string }>(
      "/api/tools/votecount",
      { players: PLAYERS, gm: "Ведущий", day: 3, silenced: ["Лена"], thread: THREAD },
    );
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([
      { by: "Вася", red: "Петя", early: false, post: 1 },
      { by: "Коля", blue: "Вася", early: false, post: 6 },
      { by: "Маша", red: "Вася", early: true, post: 3 },
      { by: "Петя", blue: "Zybr", early: false, post: 2 },
    ]);
    expect(r.body.notVoted).toEqual(["Zybr"]);
    expect(r.body.ignored).toHaveLength(5);
    expect(r.body.count.split("\n")[0]).toBe("[b]Голосование, день 3[/b]");
  });

  it("takes the GM, the day and the silenced players as optional", async () => {
    const r = await anyone.post<{ count: string }>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
    });
    expect(r.status).toBe(200);
    expect(r.body.count).toContain("Против:");
  });

  it("refuses a thread that is not an array of posts, naming the field", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: { posts: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid");
    expect(r.body.error.message).toMatch(/^thread: /);
  });

  it("refuses a post without an author, naming the post", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [{ author: "Вася", body: "привет" }, { body: "Петя КРАСНЫМ" }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('post 1 in thread needs a string "author" and "body"');
  });

  it("refuses an empty player list and a silenced player who is not on it", async () => {
    const empty = await anyone.post<ErrorBody>("/api/tools/votecount", { players: " \n", thread: THREAD });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("the player list (players) is empty");
    const stranger = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      silenced: ["Гена"],
      thread: THREAD,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain("Гена");
  });

  it("refuses an unknown field and a day that is not a whole number from 1", async () => {
    const unknown = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
      days: 2,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('unknown field "days"');
    const day = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
      day: 0,
    });
    expect(day.status).toBe(400);
    expect(day.body.error.message).toMatch(/^day: /);
  });

  it("takes a saved thread larger than the app's 64 KiB body limit", async () => {
    const long = Array.from({ length: 400 }, (_, i) => ({
      author: "Вася",
      time: "",
      body: `Пост ${i}. ${"болтовня ".repeat(40)}`,
    }));
    const r = await anyone.post<{ votes: unknown[] }>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [...long, { author: "Вася", time: "", body: "Петя КРАСНЫМ" }],
    });
    expect(JSON.stringify(long).length).toBeGreaterThan(64 * 1024);
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([{ by: "Вася", red: "Петя", early: false, post: 400 }]);
  });

  it("refuses a body over 5 MiB with the tools' own limit", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [{ author: "Вася", time: "", body: "x".repeat(5 * 1024 * 1024) }],
    });
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe(`body: larger than ${5 * 1024 * 1024} bytes`);
  });
});

describe("results writer tool", () => {
  it("writes the results post of the replay's last finished phase, as the CLI prints it", async () => {
    const r = await anyone.post<{ post: string }>("/api/tools/results", { replay: REPLAY });
    expect(r.status).toBe(200);
    expect(r.body.post).toBe("[b]Итоги дня 1[/b]\nПо итогам голосования казнён игрок Вася.\nПобеда города!");
  });

  it("writes the post in English when asked", async () => {
    const r = await anyone.post<{ post: string }>("/api/tools/results", { replay: REPLAY, lang: "en" });
    expect(r.status).toBe(200);
    expect(r.body.post).not.toContain("Итоги");
  });

  it("refuses a missing replay, naming the field", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/results", {});
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^replay: /);
  });

  it("refuses an illegal action with the replay's message and clause", async () => {
    const bad = structuredClone(REPLAY) as {
      phases: { actions?: { by: string; act: string; target?: string }[] }[];
    };
    bad.phases[0]!.actions![1] = { by: "Петя", act: "visit", target: "Оля" };
    const r = await anyone.post<ErrorBody>("/api/tools/results", { replay: bad });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^replay: night 1: Петя/);
  });

  it("refuses a replay with no finished phase", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/results", { replay: { ...REPLAY, phases: [] } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("replay: no finished phase to report (REPLAY.md)");
  });
});
