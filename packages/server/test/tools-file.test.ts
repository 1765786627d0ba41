import {
  PASTE_FILE_LIMIT,
  type NotebookView,
  type PasteFound,
  type RoleId,
  type VoteCountResult,
} from "@forum-mafia/protocol";
import iconv from "iconv-lite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

/**
 * Issue 30, "Encodings": a saved page or .txt chosen as a file on /tools or in a notebook's day is sent as its
 * bytes (`file`, base64) and decoded in the tools' worker by its BOM, meta or a detector, so a page saved from
 * a windows-1251 or KOI8-R forum reads as its UTF-8 twin. The twins are the forum package's
 * (test/fixtures/pages/encodings/, made by encoding-twins.ts).
 */
const PAGES = join(import.meta.dirname, "../../forum/test/fixtures/pages");
const TWINS = join(PAGES, "encodings");

interface Expected {
  readonly players: string;
  readonly gm: string;
  readonly day: number;
  readonly posts: number;
  readonly authors: readonly string[];
  readonly first: string;
  readonly last: string;
  readonly count: string;
}
const expectedOf = (page: string): Expected =>
  JSON.parse(readFileSync(join(PAGES, `${page}.expected.json`), "utf8")) as Expected;
const base64Of = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
const twinFile = (name: string): string => base64Of(readFileSync(join(TWINS, name)));

interface ErrorBody {
  error: { code: string; message: string };
}

let t: TestServer;
let anyone: Client;
beforeAll(async () => {
  t = await testServer();
  anyone = new Client(() => t.server.app);
}, 60_000);
afterAll(() => t.close());

describe("the tools read a saved page sent as a file (issue 30)", () => {
  it.each([
    ["vbulletin4", "vbulletin4.windows-1251.nometa.html"],
    ["vbulletin5", "vbulletin5.koi8-r.nometa.html"],
    ["invision", "invision.koi8-r.html"],
  ])("V1: %s saved as %s: found and counted as its UTF-8 twin pasted", async (page, twin) => {
    const want = expectedOf(page);
    const html = readFileSync(join(PAGES, `${page}.html`), "utf8");
    const asPaste = await anyone.post<PasteFound>("/api/tools/thread", {
      players: want.players,
      paste: { html },
    });
    const asFile = await anyone.post<PasteFound>("/api/tools/thread", {
      players: want.players,
      paste: { file: twinFile(twin) },
    });
    expect(asFile.status, asFile.raw).toBe(200);
    expect(asFile.body.posts).toBe(want.posts);
    expect(asFile.body.authors.map((a) => a.name)).toEqual(want.authors);
    expect(asFile.body.first).toBe(want.first);
    expect(asFile.body.last).toBe(want.last);
    expect(asFile.body).toEqual(asPaste.body);

    const counted = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: want.players,
      gm: want.gm,
      day: want.day,
      paste: { file: twinFile(twin) },
    });
    expect(counted.status, counted.raw).toBe(200);
    expect(counted.body.count).toBe(want.count);
  });

  it("V2: a .txt of BBCode posts in windows-1251 is read as text, not as mojibake", async () => {
    const bbcode = [
      '[quote="Вася" post_id=11 time=1709391600 user_id=3]Голосую: [color=red]Петя[/color][/quote]',
      '[quote="Маша" post_id=12 time=1709391660 user_id=4]Я тоже: [color=red]Петя[/color][/quote]',
    ].join("\n");
    const r = await anyone.post<VoteCountResult>("/api/tools/votecount", {
      players: "Вася\nПетя\nМаша",
      day: 1,
      paste: { file: base64Of(iconv.encode(bbcode, "windows-1251")) },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.found?.kind).toBe("bbcode");
    expect(r.body.found?.authors.map((a) => a.name)).toEqual(["Вася", "Маша"]);
    expect(r.body.count).toBe(
      "[b]Голосование, день 1[/b]\nПротив:\nПетя (2): Вася, Маша\nНе проголосовали: Петя",
    );
  });

  it("refuses a file that is not base64, too large, empty, or beside html or text, naming paste.file", async () => {
    const post = (paste: unknown) => anyone.post<ErrorBody>("/api/tools/thread", { paste });
    const notBase64 = await post({ file: "<html>Вася</html>" });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.error.message).toBe(
      "paste.file: not base64: the file's bytes as base64 (RFC 4648)",
    );
    const large = await post({ file: "A".repeat(4 * (PASTE_FILE_LIMIT / 3) + 4) });
    expect(large.status).toBe(400);
    expect(large.body.error.message).toBe(
      `paste.file: larger than ${3 * 1024 * 1024} bytes: save one day's page, or paste the posts`,
    );
    const empty = await post({ file: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("paste.file: empty: choose the saved page of the thread");
    const both = await post({ file: twinFile("smf.koi8-r.nometa.html"), html: "<p>Вася</p>" });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe(
      "paste.file: give the thread either as a file (file) or as copied from the forum (html, text), not both",
    );
  });
});

describe("a notebook's day read from a saved page sent as a file (issue 30)", () => {
  it("V2, V4: the phpbb page saved in KOI8-R with no meta gives the count written by hand", async () => {
    const gm = new Client(() => t.server.app, "Ведущий");
    expectOk(await gm.register());
    const want = expectedOf("phpbb");
    const lines = want.players.split("\n").map((l) => l.split("|").map((p) => p.trim()));
    const players = lines.map((l) => l[0]!);
    // S3: a mafia member, a town role with a move, citizens; dealt by hand in seat order.
    const roles: RoleId[] = ["boss", "sheriff", ...players.slice(2).map((): RoleId => "citizen")];
    const created = await gm.post<NotebookView>("/api/notebooks", {
      title: "День с форума в KOI8-R",
      players,
      roles,
      deal: { kind: "hand", roles },
    });
    expect(created.status, created.raw).toBe(201);
    const id = created.body.id;
    for (const [seat, l] of lines.entries())
      if (l.length > 1)
        expectOk(await gm.post(`/api/notebooks/${id}/aliases`, { seat, aliases: l.slice(1) }));
    // Night 1 passes quietly: nobody dies, nobody owes a move.
    for (const seat of [0, 1])
      expectOk(await gm.post(`/api/notebooks/${id}/actions`, { seat, action: { act: "pass" } }));
    expectOk(await gm.post(`/api/notebooks/${id}/close`, {}));

    const both = await gm.post<ErrorBody>(`/api/notebooks/${id}/thread`, {
      file: twinFile("phpbb.koi8-r.nometa.html"),
      text: "Вася",
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/^file: give the thread either as a file/);
    const bad = await gm.post<ErrorBody>(`/api/notebooks/${id}/thread`, { file: "not base64!" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^file: not base64/);

    const r = await gm.post<NotebookView>(`/api/notebooks/${id}/thread`, {
      file: twinFile("phpbb.koi8-r.nometa.html"),
    });
    expect(r.status, r.raw).toBe(200);
    const day = r.body.day!;
    expect(day.found).toMatchObject({ kind: "html", posts: want.posts, first: want.first, last: want.last });
    const dayTitle = (n: number): string => `Голосование, день ${n}`;
    expect(day.count).toBe(want.count.replace(dayTitle(want.day), dayTitle(1)));
  });
});
