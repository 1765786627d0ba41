/**
 * The load generator, run as its own process by server.bench.ts:
 *   node --import tsx packages/server/bench/load.ts <plan.json> <bare|vote|post|mixed> [seconds]
 * It drives one scenario with autocannon for the plan's duration (or the seconds given) and prints one LoadResult as JSON on stdout.
 * Each request of the vote and post scenarios comes from the next player in turn (their session cookie),
 * and every acknowledged write is recorded so the driver can find it on disk afterwards. With several
 * instances (Plan.urls, issue 20) it runs one autocannon per instance, the connections split evenly, all
 * taking their requests from one counter; their figures are added up and their latencies pooled.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import {
  mixedAt,
  percentile,
  postAt,
  voteAt,
  type AckedAct,
  type AckedVote,
  type LoadResult,
  type Plan,
  type Scenario,
} from "./plan.ts";

const [planFile, scenarioArg, secondsArg] = process.argv.slice(2);
const seconds = secondsArg === undefined ? null : Number(secondsArg);
if (
  !planFile ||
  (scenarioArg !== "bare" && scenarioArg !== "vote" && scenarioArg !== "post" && scenarioArg !== "mixed") ||
  (seconds !== null && !(seconds > 0))
) {
  console.error("usage: load.ts <plan.json> <bare|vote|post|mixed> [seconds]");
  process.exit(2);
}
const scenario: Scenario = scenarioArg;
const plan = JSON.parse(readFileSync(planFile, "utf8")) as Plan;

let next = plan.offset ?? 0;
const votes: AckedVote[] = [];
const posts: string[] = [];
const acts: AckedAct[] = [];
const refusals: string[] = [];
const refused = (status: number, body: string): void => {
  if (status >= 300 && refusals.length < 5) refusals.push(`${status} ${body.slice(0, 300)}`);
};
const indexOf = (context: autocannon.Context): number => {
  const k = context.k;
  if (typeof k !== "number") throw new Error("a response without its request's index");
  return k;
};
const json = (cookie: string): Record<string, string> => ({
  "content-type": "application/json",
  cookie,
});

const mixed: autocannon.RequestSpec = {
  method: "POST",
  setupRequest: (req, context) => {
    const k = next++;
    context.k = k;
    const w = mixedAt(plan, k);
    const [path, cookie, body] =
      w.kind === "vote"
        ? [`/api/games/${w.voter.game}/votes`, w.voter.cookie, { color: w.color, target: w.target }]
        : w.kind === "post"
          ? [`/api/games/${w.poster.game}/posts`, w.poster.cookie, { text: w.text }]
          : [`/api/games/${w.actor.game}/actions`, w.actor.cookie, w.action];
    return { ...req, path, headers: json(cookie), body: JSON.stringify(body) };
  },
  onResponse: (status, body, context) => {
    refused(status, body);
    if (status < 200 || status >= 300) return;
    const w = mixedAt(plan, indexOf(context));
    if (w.kind === "vote") votes.push([w.voter.game, w.voter.seat, w.color, w.target]);
    else if (w.kind === "post") posts.push((JSON.parse(body) as { id: string }).id);
    else acts.push([w.actor.game, w.actor.seat]);
  },
};

const requests: autocannon.RequestSpec[] =
  scenario === "mixed"
    ? [mixed]
    : scenario === "bare"
      ? [{ method: "GET", path: "/api/health", onResponse: refused }]
      : scenario === "vote"
        ? [
            {
              method: "POST",
              setupRequest: (req, context) => {
                const k = next++;
                context.k = k;
                const { voter, color, target } = voteAt(plan, k);
                return {
                  ...req,
                  path: `/api/games/${voter.game}/votes`,
                  headers: json(voter.cookie),
                  body: JSON.stringify({ color, target }),
                };
              },
              onResponse: (status, body, context) => {
                refused(status, body);
                if (status < 200 || status >= 300) return;
                const { voter, color, target } = voteAt(plan, indexOf(context));
                votes.push([voter.game, voter.seat, color, target]);
              },
            },
          ]
        : [
            {
              method: "POST",
              setupRequest: (req, context) => {
                const k = next++;
                context.k = k;
                const { poster, text } = postAt(plan, k);
                return {
                  ...req,
                  path: `/api/games/${poster.game}/posts`,
                  headers: json(poster.cookie),
                  body: JSON.stringify({ text }),
                };
              },
              onResponse: (status, body) => {
                refused(status, body);
                if (status < 200 || status >= 300) return;
                posts.push((JSON.parse(body) as { id: string }).id);
              },
            },
          ];

// One autocannon per instance, the connections and the rate split evenly: the players' requests, taken in
// turn from one counter, go to whichever connection is free next, as behind a round-robin proxy.
const urls = plan.urls && plan.urls.length > 0 ? plan.urls : [plan.url];
const latencies: number[] = [];
const runs = urls.map((url) => {
  const run = autocannon({
    url,
    connections: Math.max(1, Math.round(plan.connections / urls.length)),
    pipelining: 1,
    duration: seconds ?? plan.seconds,
    requests,
    ...(plan.rate !== undefined ? { overallRate: plan.rate / urls.length } : {}),
  });
  run.on("response", (_client, _status, _bytes, ms) => {
    latencies.push(ms);
  });
  return run;
});
const results = await Promise.all(runs);

const statusCodes: Record<string, number> = {};
for (const r of results)
  for (const [code, s] of Object.entries(r.statusCodeStats))
    statusCodes[code] = (statusCodes[code] ?? 0) + s.count;
const sum = (f: (r: (typeof results)[number]) => number): number => results.reduce((n, r) => n + f(r), 0);
const sorted = Float64Array.from(latencies).sort();
const result: LoadResult = {
  scenario,
  sent: next,
  requestsPerSecond: sum((r) => r.requests.average),
  p50: percentile(sorted, 50),
  p99: percentile(sorted, 99),
  responses: sorted.length,
  ok: sum((r) => r["2xx"]),
  non2xx: sum((r) => r.non2xx),
  errors: sum((r) => r.errors),
  timeouts: sum((r) => r.timeouts),
  seconds: Math.max(...results.map((r) => r.duration)),
  statusCodes,
  refusals,
  votes,
  posts,
  acts,
};
process.stdout.write(JSON.stringify(result));
