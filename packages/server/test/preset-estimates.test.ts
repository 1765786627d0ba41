import { SETUP_PRESETS, type BalanceEstimate, type PresetId, type Setup } from "@forum-mafia/protocol";
import { PRESET_ESTIMATES } from "@forum-mafia/protocol/preset-estimates";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/http/app.ts";
import { Demo } from "../src/demo/demo.ts";
import { Estimator } from "../src/tools/estimate.ts";
import { Games } from "../src/log/games.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import { Client } from "./client.ts";
import { FakeClock } from "./harness.ts";

/**
 * Issue 32: the presets' balance estimates are kept with the code (packages/protocol/src/preset-estimates.ts,
 * `npm run presets:estimate`). The server answers a preset from them at once, with no run; any other setup
 * is still played; and the kept figures are those the server's Estimator gives today (played again here:
 * 8,000 bot games on every core, so this file is in the "serial" project, vitest.config.ts).
 */

const REGENERATE = "npm run presets:estimate";
const preset = (id: PresetId): Setup => SETUP_PRESETS.find((p) => p.id === id)!.setup;

let app: FastifyInstance;
let estimator: Estimator;
let anna: Client;

beforeAll(async () => {
  // The app's own default: the kept figures on.
  estimator = new Estimator({ warmOnListen: false });
  const store = new SqliteStore(":memory:");
  const clock = new FakeClock();
  const games = new Games(store, clock);
  app = await buildApp({
    store,
    clock,
    games,
    demo: new Demo(games, store, clock),
    rateLimit: 0,
    estimates: estimator,
  });
  app.addHook("onClose", async () => store.close());
  anna = new Client(() => app, "Анна");
  expect((await anna.register()).status).toBe(201);
});
afterAll(async () => app.close());

const ask = (setup: unknown) => anna.post<BalanceEstimate>("/api/setups/estimate", setup);

describe("the presets' kept estimates", () => {
  it("S3: every preset, its roles in any order, is answered with its kept figures at once: no run, no chunk, nothing cached", async () => {
    expect(SETUP_PRESETS.map((p) => p.id).sort()).toEqual(Object.keys(PRESET_ESTIMATES).sort());
    for (const p of SETUP_PRESETS) {
      const straight = await ask(p.setup);
      const reversed = await ask({ ...p.setup, roles: [...p.setup.roles].reverse() });
      expect(straight.status).toBe(200);
      expect(straight.body).toStrictEqual(PRESET_ESTIMATES[p.id]);
      expect(reversed.body).toStrictEqual(PRESET_ESTIMATES[p.id]);
    }
    expect(estimator.counters).toMatchObject({
      runsStarted: 0,
      chunksDone: 0,
      cacheHits: 0,
      presetHits: 2 * SETUP_PRESETS.length,
    });
  });

  it("S3: a setup that is no preset (a preset with one threshold changed) is still played", async () => {
    const before = { ...estimator.counters };
    const small = preset("small9");
    const r = await ask({ ...small, options: { ...small.options, revealAbove: 5 } });
    expect(r.status).toBe(200);
    expect(r.body.games).toBe(2000);
    expect(r.body).not.toStrictEqual(PRESET_ESTIMATES.small9);
    expect(estimator.counters.runsStarted - before.runsStarted).toBe(1);
    expect(estimator.counters.runsFinished - before.runsFinished).toBe(1);
    expect(estimator.counters.presetHits - before.presetHits).toBe(0);
  });

  it("S3: the kept figures are the server's Estimator's today: every preset played again gives them to the last digit", async () => {
    const fresh = new Estimator({ warmOnListen: false, presetFigures: false });
    try {
      for (const p of SETUP_PRESETS) {
        const played = await fresh.estimate(`check:${p.id}`, p.setup, new AbortController().signal);
        expect(
          played,
          `the kept estimate of the preset ${p.id} is stale (the rules, the bots or the preset changed): ` +
            `run ${REGENERATE} and commit packages/protocol/src/preset-estimates.ts`,
        ).toStrictEqual(PRESET_ESTIMATES[p.id]);
      }
      expect(fresh.counters.runsFinished).toBe(SETUP_PRESETS.length);
      expect(fresh.counters.presetHits).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
