/**
 * The stores the server benchmarks run on, and what they find in them afterwards: fresh PostgreSQL
 * databases (made for a run, dropped at its end) and the durability check, which reads every game's log
 * from the SQLite file or the PostgreSQL tables once the servers have stopped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { cleanUp, ROOT } from "./harness.ts";
import type { AckedAct, AckedVote } from "./plan.ts";

const STORE_SOURCE = join(ROOT, "packages/server/src/stores/sqlite-store.ts");

// ——— PostgreSQL ———

/** The databases this run made, to drop at the end. */
const made: { admin: string; name: string }[] = [];

async function adminQuery(admin: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

let madeCount = 0;

/**
 * A fresh database on 127.0.0.1:5432 (PG_ADMIN_URL, by default trust auth as user postgres, else root):
 * its URL and name. Dropped by dropDatabases.
 */
export async function createDatabase(): Promise<{ url: string; name: string }> {
  const candidates = process.env.PG_ADMIN_URL
    ? [process.env.PG_ADMIN_URL]
    : ["postgres://postgres@127.0.0.1:5432/postgres", "postgres://root@127.0.0.1:5432/postgres"];
  const name = `fm_bench_${process.pid}_${Date.now().toString(36)}_${madeCount++}`;
  const errors: string[] = [];
  for (const admin of candidates) {
    try {
      await adminQuery(admin, `CREATE DATABASE ${name}`);
    } catch (error) {
      errors.push(`${admin}: ${String(error)}`);
      continue;
    }
    made.push({ admin, name });
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return { url: url.toString(), name };
  }
  throw new Error(`--pg: could not create a database:\n${errors.join("\n")}`);
}

/** Drop every database this run made (servers still connected are cut off: WITH (FORCE)). */
export async function dropDatabases(): Promise<void> {
  const errors: string[] = [];
  for (const { admin, name } of made.splice(0)) {
    try {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (error) {
      errors.push(`${name}: ${String(error)}`);
    }
  }
  if (errors.length > 0) throw new Error(`could not drop databases:\n${errors.join("\n")}`);
}

/** Every acknowledged write of a run, to find in its store. */
export interface Acked {
  votes: AckedVote[];
  posts: string[];
  acts: AckedAct[];
}

// ——— durability ———

export interface Durability {
  readonly ok: boolean;
  readonly lines: string[];
}

/** A stored log entry, as the durability check reads it. */
type Entry =
  | { kind: "vote"; seat: number; vote: { color: string; target: number } }
  | { kind: "post"; id: string; vote: unknown }
  | { kind: "act"; seat: number }
  | { kind: "other" };

/** Every game's log entries, from the SQLite file or the PostgreSQL database, and a line on the store. */
async function readEntries(
  where: { sqlite: string } | { pg: string },
): Promise<{ rows: { game: string; entry: Entry }[]; about: string }> {
  if ("sqlite" in where) {
    const db = new Database(where.sqlite, { readonly: true, fileMustExist: true });
    try {
      const journal = String(db.pragma("journal_mode", { simple: true }));
      const rows = db.prepare(`SELECT game_id, body FROM game_entries`).all() as {
        game_id: string;
        body: string;
      }[];
      const sync = /pragma\("synchronous\s*=\s*(\w+)"\)/.exec(readFileSync(STORE_SOURCE, "utf8"))?.[1] ?? "?";
      return {
        rows: rows.map((r) => ({ game: r.game_id, entry: JSON.parse(r.body) as Entry })),
        about: `journal_mode: ${journal} (read from the file); synchronous: ${sync} (per connection: set by the server on open, src/sqlite-store.ts)`,
      };
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: where.pg });
  await c.connect();
  try {
    const r = await c.query<{ game_id: string; body: Entry }>(`SELECT game_id, body FROM game_entries`);
    const commit = await c.query<{ synchronous_commit: string }>(`SHOW synchronous_commit`);
    return {
      rows: r.rows.map((row) => ({ game: row.game_id, entry: row.body })),
      about: `PostgreSQL game_entries read after the server stopped; synchronous_commit: ${commit.rows[0]?.synchronous_commit ?? "?"}`,
    };
  } finally {
    await c.end();
  }
}

/**
 * Every acknowledged write must be stored. Votes carry no id, so they are compared as a multiset of
 * (game, seat, colour, target): each must be stored at least as often as it was acknowledged. Night
 * actions are compared as a multiset of (game, seat). Posts are compared by id. A request cut off by the
 * end of a run may be stored without having been answered, so the store may hold up to one unanswered
 * write per connection and run more than was acknowledged.
 */
export async function checkDurability(
  where: { sqlite: string } | { pg: string },
  acked: Acked,
  slack: number,
): Promise<Durability> {
  const { rows, about } = await readEntries(where);
  const storedVotes = new Map<string, number>();
  const storedActs = new Map<string, number>();
  const storedPosts = new Set<string>();
  let voteEntries = 0;
  let postEntries = 0;
  let actEntries = 0;
  let postsWithVote = 0;
  const bump = (m: Map<string, number>, key: string): void => {
    m.set(key, (m.get(key) ?? 0) + 1);
  };
  for (const { game, entry: e } of rows) {
    if (e.kind === "vote") {
      voteEntries++;
      bump(storedVotes, `${game}|${e.seat}|${e.vote.color}|${e.vote.target}`);
    } else if (e.kind === "post") {
      postEntries++;
      storedPosts.add(e.id);
      if (e.vote !== null) postsWithVote++;
    } else if (e.kind === "act") {
      actEntries++;
      bump(storedActs, `${game}|${e.seat}`);
    }
  }
  const missing = (keys: readonly string[], stored: Map<string, number>): number => {
    const want = new Map<string, number>();
    for (const k of keys) bump(want, k);
    let n = 0;
    for (const [key, count] of want) n += Math.max(0, count - (stored.get(key) ?? 0));
    return n;
  };
  const missingVotes = missing(
    acked.votes.map(([game, seat, color, target]) => `${game}|${seat}|${color}|${target}`),
    storedVotes,
  );
  const missingActs = missing(
    acked.acts.map(([game, seat]) => `${game}|${seat}`),
    storedActs,
  );
  const missingPosts = acked.posts.filter((id) => !storedPosts.has(id)).length;
  const extraVotes = voteEntries - (acked.votes.length - missingVotes);
  const extraPosts = postEntries - (acked.posts.length - missingPosts);
  const ok =
    missingVotes === 0 &&
    missingPosts === 0 &&
    missingActs === 0 &&
    postsWithVote === 0 &&
    extraVotes <= slack &&
    extraPosts <= slack;
  return {
    ok,
    lines: [
      `votes: ${acked.votes.length} acknowledged, ${voteEntries} stored, ${missingVotes} acknowledged but missing` +
        `, ${extraVotes} stored but unanswered (cut off at the end of a run)`,
      `posts: ${acked.posts.length} acknowledged, ${postEntries} stored, ${missingPosts} acknowledged but missing` +
        `, ${extraPosts} stored but unanswered; ${postsWithVote} posts cast a vote (expected 0)`,
      `night actions: ${acked.acts.length} acknowledged, ${actEntries} stored (set-up's included), ${missingActs} acknowledged but missing`,
      about,
      `every acknowledged write is stored: ${ok ? "yes" : "NO"}`,
    ],
  };
}

/** On Ctrl-C or a kill, and at exit: the children stopped, the temporary files and databases removed. */
export function cleanUpOnExit(): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    process.on(signal, () => {
      cleanUp();
      void dropDatabases()
        .catch(() => {})
        .finally(() => process.exit(code));
    });
  process.on("exit", cleanUp);
}
