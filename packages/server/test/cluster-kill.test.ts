import { createHash } from "node:crypto";
import type { GameDetail } from "@forum-mafia/protocol";
import { SETUP_PRESETS } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { HttpUser, Instances, type HttpReply, type Instance } from "./instances.ts";
import { pgAvailable } from "./pg.ts";
import { DAY_MS, NICKS, NIGHT_MS, pick, randomAction, rng } from "./play.ts";

/**
 * Issue 20: kill -9 mid-phase. Three instances on one PostgreSQL; the scheduler's leader (the holder of the
 * advisory lock, found in pg_locks by the application_name instance.ts gives each instance) is killed while
 * votes are in flight, then an instance that had just written the game while night actions are in flight.
 * Every acknowledged write is in the log afterwards; each phase ends exactly once; the others carry on, and
 * a new leader takes over within 10 s and fires the deadline that fell due while there was none. Time is
 * each instance's manual clock (instance.ts), moved by the test, so a deadline falls due exactly when the
 * test says: with a sped-up clock it would race the kill on a busy machine.
 */

const START = Date.UTC(2026, 10, 30, 9, 0);
const SEED_HEX = createHash("sha256").update("issue 20: cluster-kill.test.ts").digest("hex");
const RUN_SEED = Number(process.env.CLUSTER_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Issue 20: a dead leader is replaced within 10 seconds. */
const TAKEOVER_MS = 10_000;

type LogEntry = { seq: number; body: { kind: string } & Record<string, unknown> };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => console.error(e));
});

/** A request that may meet a dead instance: its reply, or null when the connection failed. */
async function attempt(
  u: HttpUser,
  inst: Instance,
  method: "GET" | "POST",
  url: string,
  body?: unknown,
): Promise<HttpReply | null> {
  try {
    return await u.req(inst.base, method, url, body);
  } catch {
    return null;
  }
}

/** Wait until `ready` holds, polling; returns how long it took, or throws after `guardMs`. */
async function waitFor(what: string, ready: () => Promise<boolean>, guardMs: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await ready()) return Date.now() - t0;
    if (Date.now() - t0 > guardMs) throw new Error(`${what}: not within ${guardMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = (log: LogEntry[], kind: string) => log.filter((e) => e.body.kind === kind).length;

describe.skipIf(!pgAvailable)("kill -9 an instance mid-phase (issue 20)", () => {
  it(
    "loses no acknowledged write, ends each phase once, and the others carry on",
    { timeout: 90_000 },
    async () => {
      const cluster = await Instances.start(3, { clock: `manual:${START}`, seed: SEED_HEX });
      cleanups.push(() => cluster.close());
      const notes: string[] = [];
      let gameId = "";
      try {
        await scenario(cluster, notes, (id) => (gameId = id));
      } catch (error) {
        const tail = gameId ? (await cluster.log(gameId)).slice(-8) : [];
        const entries = tail.map((e) => `${e.seq} ${JSON.stringify(e.body).slice(0, 160)}`).join("\n");
        console.error(
          `CLUSTER_SEED=${RUN_SEED}\n${notes.join("\n")}\nthe log's tail:\n${entries}\n${cluster.tails()}`,
        );
        throw error;
      }
    },
  );
});

/** The test's steps; `notes` says which instance did what, for a failure's message. */
async function scenario(cluster: Instances, notes: string[], madeGame: (id: string) => void): Promise<void> {
  const r = rng(RUN_SEED);
  const t0 = Date.now();
  const mark = (what: string): void => void notes.push(`${Date.now() - t0} ms: ${what}`);
  const someInstance = (what = ""): Instance => {
    const i = pick(r, cluster.running);
    if (what) mark(`${what} on ${i.name}`);
    return i;
  };
  const ok = (res: HttpReply | null, what: string): HttpReply => {
    if (!res || res.status >= 300)
      throw new Error(`${what}: ${res ? `${res.status} ${res.raw}` : "no answer"}`);
    return res;
  };

  const gm = new HttpUser();
  ok(
    await gm.req(someInstance().base, "POST", "/api/register", {
      nick: "Ведущий",
      password: "correct horse battery",
    }),
    "register the GM",
  );
  const setup = SETUP_PRESETS[1]!.setup;
  const created = ok(
    await gm.req(someInstance("create").base, "POST", "/api/games", {
      title: "Партия с падением",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
      roles: setup.roles,
      options: setup.options,
    }),
    "create",
  );
  const id = (created.body as { id: string }).id;
  madeGame(id);
  const players: HttpUser[] = [];
  for (const nick of NICKS.slice(0, setup.roles.length)) {
    const p = new HttpUser();
    ok(
      await p.req(someInstance().base, "POST", "/api/register", { nick, password: "correct horse battery" }),
      nick,
    );
    ok(await p.req(someInstance().base, "POST", `/api/games/${id}/signup`), `${nick} signs up`);
    players.push(p);
  }
  ok(await gm.req(someInstance("start").base, "POST", `/api/games/${id}/start`, { deal: "random" }), "start");
  const detail = async (u: HttpUser, inst = someInstance()): Promise<GameDetail> =>
    ok(await u.req(inst.base, "GET", `/api/games/${id}`), "detail").body as GameDetail;
  const log = (): Promise<LogEntry[]> => cluster.log(id);

  mark("the game started");
  // Night 1 with everyone passing; its deadline is published once, by the leader.
  const leader0 = await cluster.leader();
  expect(leader0, "an instance holds the leader's lock").not.toBeNull();
  // (The leader arms the new deadline when the start's notification reaches it: waited for, not assumed.)
  await cluster.advance(NIGHT_MS);
  await waitFor("night 1 is published", async () => count(await log(), "publishNight") >= 1, TAKEOVER_MS);
  await Promise.all(cluster.running.map((i) => i.idle()));
  expect(count(await log(), "publishNight"), "night 1 is published once").toBe(1);

  let now = START + NIGHT_MS;

  // Day 1: every living player votes at once, spread over the three instances; the leader is killed after
  // half of the votes are sent.
  const living: { u: HttpUser; seat: number; targets: number[] }[] = [];
  for (const p of players) {
    const d = await detail(p);
    const me = d.me.seat === null ? null : d.view!.seats[d.me.seat]!;
    if (!me?.alive || me.cannotVote) continue;
    living.push({
      u: p,
      seat: me.seat,
      targets: d.view!.seats.filter((s) => s.alive && s.seat !== me.seat).map((s) => s.seat),
    });
  }
  const before = (await log()).length;
  const votes: { seat: number; res: HttpReply | null }[] = [];
  const sent: Promise<void>[] = [];
  let killedAt = 0;
  for (const [i, l] of living.entries()) {
    const inst = cluster.get(i % 3);
    const vote = { color: "red", target: pick(r, l.targets) };
    sent.push(
      attempt(l.u, inst, "POST", `/api/games/${id}/votes`, vote).then(
        (res) => void votes.push({ seat: l.seat, res }),
      ),
    );
    if (i === Math.floor(living.length / 2)) {
      await cluster.kill(leader0!);
      killedAt = Date.now();
      mark(`killed the leader ${cluster.get(leader0!).name} with votes in flight`);
    }
  }
  await Promise.all(sent);
  for (const v of votes) if (v.res) expect(v.res.status, `a vote answered ${v.res.raw}`).toBeLessThan(500);
  const acked = votes.filter((v) => v.res?.status === 200);
  expect(acked.length, "the votes sent to the living instances are acknowledged").toBeGreaterThan(0);
  const afterVotes = (await log()).slice(before);
  for (const v of acked)
    expect(
      afterVotes.some((e) => e.body.kind === "vote" && e.body.seat === v.seat),
      `seat ${v.seat}'s acknowledged vote is in the log`,
    ).toBe(true);

  // A survivor takes the leader's lock (it is released when the killed process's connection drops).
  let leader1: number | null = null;
  const takeover = await waitFor(
    "a new leader",
    async () => (leader1 = await cluster.leader()) !== null,
    TAKEOVER_MS,
  );
  expect(leader1).not.toBe(leader0);
  const takeoverMs = Date.now() - killedAt;
  mark(
    `${cluster.get(leader1!).name} leads, ${takeoverMs} ms after the kill (${takeover} ms after the votes)`,
  );

  // The day's deadline falls due on the instance that does not lead: it does not end the day. Then the
  // leader is killed too (idle this time): the last instance takes over and ends the day at once, once.
  const follower = cluster.running.find((x) => x.index !== leader1)!;
  await follower.advance(DAY_MS);
  await follower.idle();
  expect(count(await log(), "endDay"), "an instance that does not lead fires no deadline").toBe(0);
  await cluster.kill(leader1!);
  mark(`killed the new leader ${cluster.get(leader1!).name}; ${follower.name} is alone, past the deadline`);
  const fired = await waitFor(
    "the last instance ends the day",
    async () => count(await log(), "endDay") >= 1,
    TAKEOVER_MS,
  );
  now += DAY_MS;
  expect(await cluster.leader(), "the last instance leads").toBe(follower.index);
  await follower.idle();
  const afterDay = await log();
  expect(count(afterDay, "endDay"), "the day ends once").toBe(1);
  expect(count(afterDay, "publishNight"), "no night published twice").toBe(1);
  expect(afterDay.map((e) => e.seq)).toEqual(afterDay.map((_, i) => i));
  console.log(
    `issue 20: ${acked.length} of ${votes.length} votes in flight acknowledged, ` +
      `${votes.filter((v) => v.res === null).length} unanswered (the killed instance's); ` +
      `a new leader ${takeoverMs} ms after the leader was killed; the deadline that fell due ` +
      `with no leader fired ${fired} ms after the second kill`,
  );

  mark("the day ended");
  // The killed instances come back, with the game's time; the restarted leader no longer leads.
  await Promise.all([cluster.restart(leader0!, `manual:${now}`), cluster.restart(leader1!, `manual:${now}`)]);
  expect(cluster.running.length).toBe(3);
  expect(await cluster.leader()).toBe(follower.index);

  mark("restarted");
  // Night 2: the GM writes on one instance, then actions go at once to it and to another; the instance
  // that wrote last is killed while they are in flight.
  expect((await detail(gm)).view!.phase.kind, "the night after the day").toBe("night");
  const writer = cluster.get(leader0!);
  const other = cluster.get(leader1!);
  const forms: { u: HttpUser; d: GameDetail }[] = [];
  for (const p of players) {
    const d = await detail(p);
    if (d.form) forms.push({ u: p, d });
  }
  // Read-your-writes across instances: an action acknowledged on a restarted instance is in the GM's
  // detail read at once on another.
  const [first, ...rest] = forms;
  ok(await first!.u.req(other.base, "POST", `/api/games/${id}/actions`, { act: "pass" }), "a pass");
  const seen = await detail(gm, follower);
  expect(seen.view!.submissions, "the action is seen at once on another instance").toContainEqual(
    expect.objectContaining({ seat: first!.d.me.seat }),
  );
  ok(
    await gm.req(writer.base, "POST", `/api/games/${id}/gm/extend`, { minutes: 1 }),
    "the GM extends the night",
  );
  const beforeNight = (await log()).length;
  const acts: { seat: number; res: HttpReply | null }[] = [];
  const inFlight = rest.map(({ u, d }, i) => {
    const action = randomAction(r, d.form!) ?? { act: "pass" };
    return attempt(u, i % 2 === 0 ? writer : other, "POST", `/api/games/${id}/actions`, action).then(
      (res) => void acts.push({ seat: d.me.seat!, res }),
    );
  });
  await Promise.race(inFlight);
  await cluster.kill(writer.index);
  mark(`killed ${writer.name}, the last to write the game, with actions in flight`);
  await Promise.all(inFlight);
  for (const a of acts) if (a.res) expect(a.res.status, `an action answered ${a.res.raw}`).toBeLessThan(500);
  const afterActs = (await log()).slice(beforeNight);
  for (const a of acts.filter((x) => x.res?.status === 200))
    expect(
      afterActs.some((e) => e.body.kind === "act" && e.body.seat === a.seat),
      `seat ${a.seat}'s acknowledged action is in the log`,
    ).toBe(true);

  // The others carry on: the night ends once at its (extended) deadline.
  await cluster.advance(NIGHT_MS + 60_000);
  await waitFor("night 2 is published", async () => count(await log(), "publishNight") >= 2, TAKEOVER_MS);
  await Promise.all(cluster.running.map((i) => i.idle()));
  const end = await log();
  expect(count(end, "publishNight"), "night 2 is published once").toBe(2);
  expect(count(end, "endDay")).toBe(1);
  expect(end.map((e) => e.seq)).toEqual(end.map((_, i) => i));

  mark("night 2 published");
  // Nothing exited but the instance killed last.
  expect(cluster.running.map((i) => i.name)).toEqual(
    cluster.list.filter((i) => i !== writer).map((i) => i.name),
  );
  mark("done");
  console.log(notes.join("\n"));
}
