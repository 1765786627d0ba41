import { PG_LOCKS } from "../pg-locks.ts";
import { notebookValues, toNotebook, toSetup } from "../rows.ts";
import type { NotebookRow, SetupRow } from "../rows.ts";
import { setupNameKey } from "../store.ts";
import type { LibraryStore, NotebookChange, NotebookRecord, SetupRecord } from "../store.ts";
import { bool, type PgDb } from "./db.ts";

/** Issue 29: saved setups and notebooks in PostgreSQL; each write is committed when answered. */
export class PgLibrary implements LibraryStore {
  constructor(private readonly db: PgDb) {}

  async listSetups(userId: string): Promise<SetupRecord[]> {
    const r = await this.db.read<SetupRow>(
      `SELECT id, name, setup, saved_at FROM saved_setups WHERE user_id = $1 ORDER BY position DESC`,
      [userId],
    );
    return r.rows.map(toSetup);
  }

  /**
   * One transaction under the user's advisory lock: two saves of the same user, on this server or another,
   * take turns, so the name's row and the count each sees are current and the cap holds.
   */
  saveSetup(userId: string, s: SetupRecord, max: number): Promise<SetupRecord | "full"> {
    return this.db.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.setups, userId]);
      const key = setupNameKey(s.name);
      const setup = JSON.stringify(s.setup);
      const same = await c.query<{ id: string }>(
        `UPDATE saved_setups SET name = $3, setup = $4, saved_at = $5, position = nextval('saved_setups_position')
         WHERE user_id = $1 AND name_key = $2 RETURNING id`,
        [userId, key, s.name, setup, s.at],
      );
      if (same.rows[0]) return { ...s, id: same.rows[0].id };
      const count = await c.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM saved_setups WHERE user_id = $1`,
        [userId],
      );
      if (Number(count.rows[0]!.n) >= max) return "full";
      await c.query(
        `INSERT INTO saved_setups (id, user_id, name, name_key, setup, saved_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [s.id, userId, s.name, key, setup, s.at],
      );
      return s;
    });
  }

  async deleteSetup(userId: string, id: string): Promise<boolean> {
    const r = await this.db.write(`DELETE FROM saved_setups WHERE user_id = $1 AND id = $2`, [userId, id]);
    return r.rowCount === 1;
  }

  /** One transaction under the owner's advisory lock: two creations take turns, so the cap holds. */
  createNotebook(n: NotebookRecord, max: number): Promise<"created" | "full"> {
    return this.db.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.notebooks, n.ownerId]);
      const count = await c.query<{ n: string }>(`SELECT COUNT(*) AS n FROM notebooks WHERE owner_id = $1`, [
        n.ownerId,
      ]);
      if (Number(count.rows[0]!.n) >= max) return "full";
      await c.query(
        `INSERT INTO notebooks (id, owner_id, title, doc, version, created_at, updated_at, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        notebookValues(n, bool),
      );
      return "created";
    });
  }

  async notebook(id: string): Promise<NotebookRecord | null> {
    const r = await this.db.read<NotebookRow>(`SELECT * FROM notebooks WHERE id = $1`, [id]);
    return r.rows[0] ? toNotebook(r.rows[0]) : null;
  }

  async listNotebooks(ownerId: string): Promise<NotebookRecord[]> {
    const r = await this.db.read<NotebookRow>(
      `SELECT * FROM notebooks WHERE owner_id = $1 ORDER BY updated_at DESC, created_at DESC, id`,
      [ownerId],
    );
    return r.rows.map(toNotebook);
  }

  async updateNotebook(ownerId: string, id: string, version: number, c: NotebookChange): Promise<boolean> {
    const r = await this.db.write(
      `UPDATE notebooks SET title = $1, doc = $2, updated_at = $3, published = $4, version = version + 1
       WHERE id = $5 AND owner_id = $6 AND version = $7`,
      [c.title, c.doc, c.updatedAt, c.published, id, ownerId, version],
    );
    return r.rowCount === 1;
  }

  async deleteNotebook(ownerId: string, id: string): Promise<boolean> {
    const r = await this.db.write(`DELETE FROM notebooks WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
    return r.rowCount === 1;
  }
}
