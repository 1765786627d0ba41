import type { NotebookView } from "@forum-mafia/protocol";
import { FOUND_LISTED } from "@forum-mafia/protocol";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildCount } from "../src/notebooks/notebook.ts";
import { readDoc } from "../src/notebooks/notebook-doc.ts";
import type { Server } from "../src/server.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import { Client } from "./client.ts";
import { FakeClock, serverOn } from "./harness.ts";
import { bigPaste, NAMES, PASTE_VOTES, ROLES } from "./notebook-big-paste.ts";
import { expectOk } from "./play.ts";

/**
 * Issue 28, item 1: one free account froze the server through a notebook. A day that held one 5 MB paste
 * kept about 17,700 votes; every GET replayed them all on the event loop and answered 3.4 MB. Now a paste
 * keeps each seat's last vote (V1), the answer is bounded, and a read of an unchanged notebook rebuilds
 * nothing (the speed itself is measured by `npm run bench:notebook`, not here).
 */

describe("issue 28: a notebook holding a 5 MB paste", () => {
  const dir = mkdtempSync(join(tmpdir(), "fm-notebook-load-"));
  const store = new SqliteStore(join(dir, "forum-mafia.sqlite"));
  let server: Server;
  let gm: Client;
  let id: string;
  let pasted: { status: number; body: NotebookView; raw: string };
  beforeAll(async () => {
    server = await serverOn(store, new FakeClock(), { rateLimit: 0 });
    gm = new Client(() => server.app, "Ведущий");
    expectOk(await gm.register());
    const created = await gm.post<NotebookView>("/api/notebooks", {
      title: "Большая тема",
      players: NAMES,
      roles: ROLES,
      deal: { kind: "hand", roles: ROLES },
    });
    expect(created.status, created.raw).toBe(201);
    id = created.body.id;
    let v = created.body;
    // Night 1: every move passed (one seat at a time: one pass covers the mafia's action, M4).
    for (let f = v.night!.forms.find((x) => x.owes); f; f = v.night!.forms.find((x) => x.owes))
      v = (
        await gm.post<NotebookView>(`/api/notebooks/${id}/actions`, { seat: f.seat, action: { act: "pass" } })
      ).body;
    v = (await gm.post<NotebookView>(`/api/notebooks/${id}/close`, {})).body;
    expect(v.phase).toEqual({ kind: "day", number: 1 });
    const text = bigPaste(NAMES);
    expect(Buffer.byteLength(JSON.stringify({ text }))).toBeGreaterThan(4_900_000);
    expect(Buffer.byteLength(JSON.stringify({ text }))).toBeLessThan(5 * 1024 * 1024);
    pasted = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, { text });
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("V1: the stored document keeps one vote a seat, each seat's last, and says how many were replaced", async () => {
    expect(pasted.status, pasted.raw.slice(0, 300)).toBe(200);
    const rec = await store.library.notebook(id);
    const doc = readDoc(rec!.doc);
    const votes = doc.current.inputs.flatMap((i) => (i.kind === "vote" ? [i] : []));
    // Everyone alive voted: 17 seats, one vote each, at the post of its last vote (the paste's last 17 posts).
    expect(votes.map((v) => v.seat).sort((a, b) => a - b)).toEqual(NAMES.map((_, seat) => seat));
    expect(votes.map((v) => (v.source.kind === "thread" ? v.source.post : -1))).toEqual(
      NAMES.map((_, k) => PASTE_VOTES - NAMES.length + k),
    );
    const found = pasted.body.day!.found!;
    expect(found.posts).toBe(PASTE_VOTES);
    expect(found.replaced).toBe(PASTE_VOTES - NAMES.length);
    expect(found.ignoredCount).toBe(0);
    expect(pasted.body.inputs).toHaveLength(NAMES.length);
  });

  it("the answer is bounded whatever the paste (it was 3.4 MB): under 64 KiB for 17 players", async () => {
    expect(Buffer.byteLength(pasted.raw)).toBeLessThan(64 * 1024);
    const read = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    expect(Buffer.byteLength(read.raw)).toBeLessThan(64 * 1024);
    expect(FOUND_LISTED).toBeLessThanOrEqual(200);
  });

  it("a read rebuilds nothing the write or an earlier read built, and sends the same bytes", async () => {
    const before = rebuildCount();
    const first = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    const second = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    const en = await gm.get<NotebookView>(`/api/notebooks/${id}?lang=en`);
    const enAgain = await gm.get<NotebookView>(`/api/notebooks/${id}?lang=en`);
    expect([first.status, second.status, en.status]).toEqual([200, 200, 200]);
    expect(rebuildCount()).toBe(before);
    expect(second.raw).toBe(first.raw);
    expect(enAgain.raw).toBe(en.raw);
    expect(en.raw).not.toBe(first.raw); // each language its own answer
    expect(first.body).toEqual(pasted.body);
    // A change makes a new version: the write builds it once, and the next read takes it.
    const changed = await gm.post<NotebookView>(`/api/notebooks/${id}/aliases`, {
      seat: 0,
      aliases: ["Анна"],
    });
    expect(changed.status, changed.raw).toBe(200);
    const afterWrite = rebuildCount();
    const read = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    expect(rebuildCount()).toBe(afterWrite);
    expect(read.raw).toBe(changed.raw);
    expect(read.body.seats[0]!.aliases).toEqual(["Анна"]);
  });

  it("the compressed answer is made once too, and says it is (Content-Encoding, Vary)", async () => {
    const get = (encoding: string) =>
      server.app.inject({
        method: "GET",
        url: `/api/notebooks/${id}`,
        headers: { cookie: gm.cookie!, "accept-encoding": encoding },
      });
    const plain = await gm.get<NotebookView>(`/api/notebooks/${id}`);
    const before = rebuildCount();
    const [br1, br2, gz] = [await get("gzip, deflate, br"), await get("br"), await get("br;q=0, gzip")];
    expect(rebuildCount()).toBe(before);
    expect(br1.headers["content-encoding"]).toBe("br");
    expect(br1.headers.vary).toContain("accept-encoding");
    expect(br2.rawPayload.equals(br1.rawPayload)).toBe(true);
    expect(brotliDecompressSync(br1.rawPayload).toString("utf8")).toBe(plain.raw);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString("utf8")).toBe(plain.raw);
  });

  it("privacy: what the owner's reads keep is never sent to another user, nor as the published notebook", async () => {
    expectOk(await gm.get(`/api/notebooks/${id}`));
    const other = new Client(() => server.app, "Чужой");
    expectOk(await other.register());
    const theirs = await other.get<{ error: { code: string } }>(`/api/notebooks/${id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.raw).not.toContain(NAMES[5]);
    const published = await other.get<{ error: { code: string } }>(`/api/notebooks/${id}/published`);
    expect(published.status).toBe(404);
    const own = await gm.get<{ error: { code: string } }>(`/api/notebooks/${id}/published`);
    expect(own.status).toBe(404);
  });
});
