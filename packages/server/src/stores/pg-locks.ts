/**
 * Every PostgreSQL advisory lock the server takes, named once (issue 29). All take the two-key form,
 * `pg_advisory_lock(key, hashtext(on))`: the first key is the lock's number here, the second the hash of
 * what it is taken on. pg_locks shows such a lock with `classid` = the number, `objid` = the hash and
 * `objsubid` = 2, which is how the tests find the leader.
 *
 * The numbers are those the locks had before this table; instances of different versions share a database
 * during a rolling restart, so a lock that a running instance takes must keep its number and form. The
 * migration's and the rate limits' tables' locks (taken only while an instance starts) were single-key
 * (7315, 7321) and are now (7315, namespace) and (7321, namespace): see `migration` and `limitsTables`.
 */
export const PG_LOCKS = {
  /** Registrations with look-alike nicks take turns (PgAccounts.createUser), on the nick's skeleton. */
  nick: 11,
  /** A user's saved setups are written one at a time (PgLibrary.saveSetup), so the cap of 50 holds; on the user id. */
  setups: 17,
  /** A user's new notebooks are created one at a time (PgLibrary.createNotebook), so MAX_NOTEBOOKS holds; on the user id. */
  notebooks: 18,
  /** Issue 28: confirmation mails are queued one at a time per user (PgOutbox.enqueueConfirmation), on the user id… */
  confirmUser: 28,
  /** …and per address, on the address in lower case (taken after `confirmUser`, always in that order). */
  confirmAddress: 29,
  /**
   * The schema's migrations run one at a time (pg/migrations.ts: migrate, SCHEMA_MIGRATIONS), on the namespace (the database and
   * schema, cluster.ts: namespaceOf), so test schemas in one database migrate side by side. It was the
   * single key 7315 before: only an instance that starts takes it, so an old instance that is running
   * holds neither form.
   */
  migration: 7315,
  /** The one leader of the instances on a database and schema (PgCluster), on the namespace; session-level. */
  leader: 7320,
  /**
   * Instances that start together create the rate limits' tables one at a time (SharedLimits.open, through
   * the same runner as `migration`: pg/migrations.ts, migrate), on the namespace. It was the single key 7321
   * before, taken only on start, like `migration`; and a session-level lock until issue 29 (a transaction's
   * lock of the same keys now, which an old instance's session-level one still excludes).
   */
  limitsTables: 7321,
} as const;
