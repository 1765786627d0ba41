import { notebookValues, toNotebook, toSetup } from "../rows.ts";
import type { NotebookRow, SetupRow } from "../rows.ts";
import { setupNameKey } from "../store.ts";
import type { LibraryStore, NotebookChange, NotebookRecord, SetupRecord } from "../store.ts";
import { bit, type SqliteDb } from "./db.ts";

/** Issue 29: saved setups and notebooks in SQLite; each write is answered after an fsync. */
export class SqliteLibrary implements LibraryStore {
  constructor(private readonly d: SqliteDb) {}

  async listSetups(userId: string): Promise<SetupRecord[]> {
    const rows = this.d
      .sql(`SELECT id, name, setup, saved_at FROM saved_setups WHERE user_id = ? ORDER BY position DESC`)
      .all(userId) as SetupRow[];
    return rows.map(toSetup);
  }

  /** The name's row, the count and the write run in one synchronous transaction: nothing comes between them. */
  async saveSetup(userId: string, r: SetupRecord, max: number): Promise<SetupRecord | "full"> {
    const key = setupNameKey(r.name);
    const saved = this.d.db
      .transaction((): SetupRecord | "full" => {
        const position = (
          this.d.sql(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM saved_setups`).get() as { p: number }
        ).p;
        const same = this.d
          .sql(`SELECT id FROM saved_setups WHERE user_id = ? AND name_key = ?`)
          .get(userId, key) as { id: string } | undefined;
        const setup = JSON.stringify(r.setup);
        if (same) {
          this.d
            .sql(`UPDATE saved_setups SET name = ?, setup = ?, saved_at = ?, position = ? WHERE id = ?`)
            .run(r.name, setup, r.at, position, same.id);
          return { ...r, id: same.id };
        }
        const count = (
          this.d.sql(`SELECT COUNT(*) AS n FROM saved_setups WHERE user_id = ?`).get(userId) as { n: number }
        ).n;
        if (count >= max) return "full";
        this.d
          .sql(
            `INSERT INTO saved_setups (id, user_id, name, name_key, setup, saved_at, position)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(r.id, userId, r.name, key, setup, r.at, position);
        return r;
      })
      .immediate();
    // "full" waits too: it tells of setups that must be on disk first.
    await this.d.durable();
    return saved;
  }

  async deleteSetup(userId: string, id: string): Promise<boolean> {
    const r = this.d.sql(`DELETE FROM saved_setups WHERE user_id = ? AND id = ?`).run(userId, id);
    await this.d.durable();
    return r.changes === 1;
  }

  /** The count and the insert run in one synchronous transaction: nothing comes between them. */
  async createNotebook(n: NotebookRecord, max: number): Promise<"created" | "full"> {
    const done = this.d.db
      .transaction((): "created" | "full" => {
        const count = (
          this.d.sql(`SELECT COUNT(*) AS n FROM notebooks WHERE owner_id = ?`).get(n.ownerId) as { n: number }
        ).n;
        if (count >= max) return "full";
        this.d
          .sql(
            `INSERT INTO notebooks (id, owner_id, title, doc, version, created_at, updated_at, published)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(...notebookValues(n, bit));
        return "created";
      })
      .immediate();
    await this.d.durable();
    return done;
  }

  async notebook(id: string): Promise<NotebookRecord | null> {
    const row = this.d.sql(`SELECT * FROM notebooks WHERE id = ?`).get(id) as NotebookRow | undefined;
    return row ? toNotebook(row) : null;
  }

  async listNotebooks(ownerId: string): Promise<NotebookRecord[]> {
    const rows = this.d
      .sql(`SELECT * FROM notebooks WHERE owner_id = ? ORDER BY updated_at DESC, created_at DESC, id`)
      .all(ownerId) as NotebookRow[];
    return rows.map(toNotebook);
  }

  async updateNotebook(ownerId: string, id: string, version: number, c: NotebookChange): Promise<boolean> {
    const r = this.d
      .sql(
        `UPDATE notebooks SET title = ?, doc = ?, updated_at = ?, published = ?, version = version + 1
         WHERE id = ? AND owner_id = ? AND version = ?`,
      )
      .run(c.title, c.doc, c.updatedAt, bit(c.published), id, ownerId, version);
    await this.d.durable();
    return r.changes === 1;
  }

  async deleteNotebook(ownerId: string, id: string): Promise<boolean> {
    const r = this.d.sql(`DELETE FROM notebooks WHERE owner_id = ? AND id = ?`).run(ownerId, id);
    await this.d.durable();
    return r.changes === 1;
  }
}
