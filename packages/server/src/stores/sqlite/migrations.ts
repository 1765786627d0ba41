/** Schema versions, applied in order on start; each runs once, in a transaction (SqliteStore.migrate). */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     nick TEXT NOT NULL,
     nick_key TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     time_zone TEXT NOT NULL,
     lang TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE games (
     id TEXT PRIMARY KEY,
     position INTEGER NOT NULL
   );
   CREATE TABLE game_entries (
     game_id TEXT NOT NULL REFERENCES games(id),
     seq INTEGER NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (game_id, seq)
   ) WITHOUT ROWID;`,
  // v2: the log in insertion order (a rowid table without a secondary index), so a commit that touches
  // twenty games appends to one page instead of twenty. Each game's next sequence number is kept in memory
  // (today read once from its row in games: nextSeq), so a commit writes nothing else.
  `CREATE TABLE game_log (
     id INTEGER PRIMARY KEY,
     game_id TEXT NOT NULL REFERENCES games(id),
     seq INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   INSERT INTO game_log (game_id, seq, body) SELECT game_id, seq, body FROM game_entries ORDER BY game_id, seq;
   DROP TABLE game_entries;
   ALTER TABLE game_log RENAME TO game_entries;`,
  // v3 (issue 11): each user's nick skeleton, so look-alike nicks cannot both register. Existing users get
  // theirs from nick_skeleton(), nickSkeleton registered on the connection. Not unique: an old database may
  // already hold two look-alike nicks, and both keep working.
  `ALTER TABLE users ADD COLUMN nick_skeleton TEXT NOT NULL DEFAULT '';
   UPDATE users SET nick_skeleton = nick_skeleton(nick);
   CREATE INDEX users_nick_skeleton ON users (nick_skeleton);`,
  // v4 (issue 15): each user's reminder and e-mail settings, read marks, and the mail outbox.
  `CREATE TABLE user_settings (
     user_id TEXT PRIMARY KEY REFERENCES users(id),
     email TEXT,
     email_confirmed INTEGER NOT NULL,
     email_reminders INTEGER NOT NULL,
     before TEXT NOT NULL,
     quiet_from TEXT,
     quiet_to TEXT,
     browser_notifications INTEGER NOT NULL,
     confirm_token_hash TEXT UNIQUE,
     confirm_expires_at INTEGER,
     unsubscribe_token TEXT NOT NULL UNIQUE
   );
   CREATE TABLE read_marks (
     user_id TEXT NOT NULL REFERENCES users(id),
     game_id TEXT NOT NULL,
     place TEXT NOT NULL,
     up_to INTEGER NOT NULL,
     PRIMARY KEY (user_id, game_id, place)
   ) WITHOUT ROWID;
   CREATE TABLE mail_outbox (
     position INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     key TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL REFERENCES users(id),
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     body TEXT NOT NULL,
     headers TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     failed INTEGER NOT NULL
   );
   CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed = 0;
   CREATE INDEX mail_outbox_user ON mail_outbox (user_id);`,
  // v5 (issue 17): each user's saved setups, one per name ignoring case (name_key); `position` orders them
  // by when they were last saved (a replaced setup takes a new one).
  `CREATE TABLE saved_setups (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     name TEXT NOT NULL,
     name_key TEXT NOT NULL,
     setup TEXT NOT NULL,
     saved_at INTEGER NOT NULL,
     position INTEGER NOT NULL,
     UNIQUE (user_id, name_key)
   );
   CREATE INDEX saved_setups_user ON saved_setups (user_id, position);`,
  // v6 (issue 18): the off-site games' notebooks, one row each; `version` guards every write.
  `CREATE TABLE notebooks (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL REFERENCES users(id),
     title TEXT NOT NULL,
     doc TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     published INTEGER NOT NULL
   );
   CREATE INDEX notebooks_owner ON notebooks (owner_id, updated_at);`,
  // v7 (issue 20): each game's entry count (`seq`, kept by the append), its change number (`changed`, what
  // changedSince reads; existing games get theirs in creation order) and the meta text Games keeps with
  // it; and an index of the log by game, so one game's log is read without scanning every game's (an
  // instance now builds a game's room when it first needs it, not every room on start).
  `CREATE INDEX game_entries_game ON game_entries (game_id, seq);
   ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN meta TEXT;
   UPDATE games SET seq = (SELECT COALESCE(MAX(seq) + 1, 0) FROM game_entries WHERE game_id = games.id),
     changed = position + 1;
   CREATE INDEX games_changed ON games (changed);`,
  // v8 (issue 28): every user's nick skeleton worked out again, since nickSkeleton now reads letters drawn
  // with several characters too ("ш" as "LLI", "ю" as "IO"); and the outbox by address, for the limits on
  // confirmation mails (settings.ts: CONFIRM_QUOTA).
  `UPDATE users SET nick_skeleton = nick_skeleton(nick);
   CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient), created_at);`,
];
