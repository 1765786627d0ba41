import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiFailure } from "../src/api.ts";

/**
 * Issue 28: the app's writes that the server takes an Idempotency-Key for (posts, votes, night actions,
 * messages, signups) carry a new key each, and after no answer, a 502 or a 503 are sent once more with the
 * same key; a refusal is not sent again, and a read carries no key. `fetch` is a stand-in that records
 * what it is asked and answers from a script.
 */

type Step = "network" | number;

function script(steps: Step[]): { keys: (string | null)[]; urls: string[] } {
  const seen = { keys: [] as (string | null)[], urls: [] as string[] };
  vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    seen.keys.push(headers["idempotency-key"] ?? null);
    seen.urls.push(url);
    const step = steps.shift();
    if (step === undefined) throw new Error(`unexpected request ${url}`);
    if (step === "network") return Promise.reject(new TypeError("fetch failed"));
    const body =
      step < 300
        ? JSON.stringify({ id: "p1" })
        : step === 502
          ? "<html>502 Bad Gateway</html>"
          : JSON.stringify({ error: { code: "x", message: "no" } });
    return Promise.resolve(new Response(body, { status: step }));
  });
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a write sent again with its Idempotency-Key (issue 28)", () => {
  it("a post whose first try gets no answer is sent once more with the same key", async () => {
    const seen = script(["network", 201]);
    await expect(api.post("g1", "текст")).resolves.toEqual({ id: "p1" });
    expect(seen.keys).toHaveLength(2);
    expect(seen.keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.keys[1]).toBe(seen.keys[0]);
  });

  it("a vote after a proxy's 502, an action and a message after a 503: once more, the same key", async () => {
    const vote = script([502, 200]);
    await api.vote("g1", { color: "red", target: 1 });
    expect(vote.keys[1]).toBe(vote.keys[0]);
    const act = script([503, 200]);
    await api.act("g1", { act: "pass" });
    expect(act.keys[1]).toBe(act.keys[0]);
    const msg = script(["network", 201]);
    await api.message("g1", "mafia", "привет");
    expect(msg.keys[1]).toBe(msg.keys[0]);
  });

  it("each write has a new key; a refusal is not sent again; a second failure is the caller's", async () => {
    const two = script([201, 201]);
    await api.post("g1", "один");
    await api.post("g1", "два");
    expect(two.keys[0]).not.toBe(two.keys[1]);
    const refused = script([409]);
    await expect(api.vote("g1", { color: "red", target: 1 })).rejects.toMatchObject({ status: 409 });
    expect(refused.keys).toHaveLength(1);
    const down = script([502, 502]);
    const failure = await api.post("g1", "x").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(down.keys).toHaveLength(2);
  });

  it("a read carries no key and is not retried here", async () => {
    const seen = script([200]);
    await api.games();
    expect(seen.keys).toEqual([null]);
  });
});
