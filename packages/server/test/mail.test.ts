import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail, MySettings } from "@forum-mafia/protocol";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/server.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { Store } from "../src/stores/store.ts";
import { Client, type Reply } from "./client.ts";
import { FakeClock } from "./harness.ts";
import { detail, expectOk, NICKS } from "./play.ts";

/** Links in mail point here (the server's local origin; no PUBLIC_URL). */
const SITE = "http://localhost:3000";
const MIN = 60_000;
const NIGHT = 60 * MIN;
const DAY = 120 * MIN;
// The hand deal of RULES.md §1's table: Аня boss, Борис troll, Вика elf, Гоша lawyer, Даша thug, Егор maniac,
// Ёлка sheriff, Женя sergeant, Зоя doctor, Игорь girl, Катя prosecutor, Лёва shahid, Маша … Рома citizens.
const HAND = { hand: [...DEFAULT_ROLES] };
const seatOf = (nick: string): number => NICKS.indexOf(nick);
const GM = "Ведущий";
const addressOf = (nick: string): string => (nick === GM ? "gm@example.org" : `p${seatOf(nick)}@example.org`);
const nickOf = (address: string): string =>
  address === "gm@example.org" ? GM : NICKS[Number(/^p(\d+)@/.exec(address)![1])]!;

interface Received {
  readonly to: string;
  readonly mail: ParsedMail;
}

/** What a browser (or a mail client opening a link) sends: the answer is a page, not JSON. */
const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
/** A real SMTP server in-process: keeps what it accepts; refuses the next `refuse` messages with a 451. */
class Inbox {
  readonly received: Received[] = [];
  refuse = 0;
  refused = 0;
  port = 0;
  private waiters: (() => void)[] = [];
  private readonly server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (this.refuse > 0) {
          this.refuse--;
          this.refused++;
          done(Object.assign(new Error("try again later"), { responseCode: 451 }));
          return;
        }
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            this.received.push({ to, mail });
            for (const w of this.waiters.splice(0)) w();
            done();
          },
          (error: Error) => done(error),
        );
      });
    },
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    const a = this.server.server.address();
    if (a === null || typeof a === "string") throw new Error("the SMTP server has no port");
    this.port = a.port;
  }

  /** Wait until `n` messages have arrived (a guard turns a hang into an error). */
  async count(n: number, guardMs = 10_000): Promise<void> {
    const end = Date.now() + guardMs;
    while (this.received.length < n) {
      if (Date.now() > end) throw new Error(`expected ${n} messages, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The reminders received (not the confirmations), as "nick" in order of arrival. */
  reminders(): string[] {
    return this.received.filter((r) => !isConfirmation(r)).map((r) => nickOf(r.to));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const isConfirmation = (r: Received): boolean => /Подтвердите|Confirm/.test(r.mail.subject ?? "");
const header = (r: Received, name: string): string | undefined =>
  r.mail.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.replace(/\r?\n[ \t]+/g, " ")
    .replace(/^[^:]+:\s*/, "");
const pathOf = (url: string): string => url.slice(SITE.length);

/** A server on a SQLite file in `dir`, sending through the inbox, whose fake clock waits for the mail. */
async function start(
  inbox: Inbox,
  dir: string,
  clock: FakeClock,
  wrap = (s: Store): Store => s,
): Promise<Server> {
  const server = await createServer({
    store: wrap(new SqliteStore(join(dir, "db.sqlite"))),
    clock,
    rateLimit: 0,
    smtpUrl: `smtp://127.0.0.1:${inbox.port}`,
    mailFrom: "Мафия <mafia@example.org>",
    localUrl: SITE,
  });
  clock.afterFire = async () => {
    await server.games.idle();
    await server.reminders!.idle();
    await server.mailer!.idle();
    await server.games.idle();
  };
  return server;
}

interface Rig {
  readonly inbox: Inbox;
  readonly clock: FakeClock;
  readonly dir: string;
  server: Server;
  client(nick: string): Client;
  restart(wrap?: (s: Store) => Store): Promise<void>;
  /** Everything set off so far is done: the reminders worked out, the outbox sent. */
  quiet(): Promise<void>;
}

let rig: Rig;
beforeEach(async () => {
  const inbox = new Inbox();
  await inbox.listen();
  const clock = new FakeClock();
  const dir = mkdtempSync(join(tmpdir(), "fm-mail-"));
  const r: Rig = {
    inbox,
    clock,
    dir,
    server: await start(inbox, dir, clock),
    client: (nick) => new Client(() => r.server.app, nick),
    async restart(wrap) {
      await r.server.close();
      r.server = await start(inbox, dir, clock, wrap);
    },
    async quiet() {
      await r.server.reminders!.idle();
      await r.server.mailer!.idle();
    },
  };
  rig = r;
});
afterEach(async () => {
  await rig.server.close();
  await rig.inbox.close();
  rmSync(rig.dir, { recursive: true, force: true });
});

const putSettings = async (c: Client, body: unknown): Promise<Reply<MySettings>> => {
  const res = await rig.server.app.inject({
    method: "PUT",
    url: "/api/me/settings",
    headers: { ...(c.cookie ? { cookie: c.cookie } : {}), "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json<MySettings>(), raw: res.body };
};

/** Set an address and options, then open the confirmation link as a mail client would (no session). */
async function confirmEmail(c: Client, reminders: Record<string, unknown> = {}): Promise<void> {
  const to = addressOf(c.nick);
  const before = rig.inbox.received.length;
  const r = await putSettings(c, { email: to, reminders: { before: ["2h", "15m"], ...reminders } });
  expectOk(r);
  expect(r.body).toMatchObject({ email: to, emailConfirmed: false, emailAvailable: true });
  await rig.inbox.count(before + 1);
  const mail = rig.inbox.received.at(-1)!;
  expect(mail.to).toBe(to);
  const link = new RegExp(`${SITE}(/api/me/email/confirm\\?token=[\\w-]+)`).exec(mail.mail.text ?? "");
  expect(link, mail.mail.text).not.toBeNull();
  // Opened from a mail client, as a browser asks for it: a page.
  const page = await rig.server.app.inject({ method: "GET", url: link![1]!, headers: BROWSER });
  expect(page.statusCode, page.body).toBe(200);
  expect(page.headers["content-type"]).toMatch(/text\/html/);
  expect((await c.get<MySettings>("/api/me/settings")).body.emailConfirmed).toBe(true);
}

interface Game {
  readonly id: string;
  readonly gm: Client;
  readonly by: (nick: string) => Client;
}

/**
 * A GM and 17 players with confirmed addresses (each with the reminder options given), a game of 60-minute
 * nights and 120-minute days dealt by hand, started now (the clock stands at 09:00 UTC, 12:00 in Moscow).
 */
async function newGame(options: Record<string, Record<string, unknown>> = {}): Promise<Game> {
  const gm = rig.client(GM);
  expectOk(await gm.register());
  const players = NICKS.map((nick) => rig.client(nick));
  for (const p of players) expectOk(await p.register());
  for (const c of [gm, ...players]) await confirmEmail(c, options[c.nick] ?? {});
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Почтовая партия",
    night: { amount: 60, unit: "minutes" },
    day: { amount: 120, unit: "minutes" },
    mode: "automatic",
  });
  expectOk(created);
  const id = created.body.id;
  for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
  expectOk(await gm.post(`/api/games/${id}/start`, { deal: HAND }));
  return { id, gm, by: (nick) => players[seatOf(nick)]! };
}

const pass = async (g: Game, nick: string): Promise<void> =>
  expectOk(await g.by(nick).post(`/api/games/${g.id}/actions`, { act: "pass" }));
const vote = async (g: Game, nick: string, target: string): Promise<void> =>
  expectOk(await g.by(nick).post(`/api/games/${g.id}/votes`, { color: "red", target: seatOf(target) }));

/**
 * Everyone in the night who has a form moves: the first mafioso offered the mafia's act kills the first of
 * `victims` it may take; everyone else offered a pass passes.
 */
async function everyoneMoves(
  g: Game,
  victims: readonly string[],
  except: readonly string[] = [],
): Promise<void> {
  let killed = false;
  for (const nick of NICKS) {
    if (except.includes(nick)) continue;
    const d: GameDetail = await detail(g.by(nick), g.id);
    if (d.form === null) continue;
    const mafia = d.form.acts.find((a) => a.act === "mafia");
    const victim = victims.find((v) => mafia?.targets.includes(seatOf(v)));
    if (!killed && mafia && victim !== undefined) {
      expectOk(await g.by(nick).post(`/api/games/${g.id}/actions`, { act: "mafia", kill: [seatOf(victim)] }));
      killed = true;
    } else if (d.form.acts.some((a) => a.act === "pass")) await pass(g, nick);
  }
}

/** Every living player votes red against `target` (who votes against `other`). */
async function everyoneVotes(
  g: Game,
  target: string,
  other: string,
  except: readonly string[] = [],
): Promise<void> {
  for (const nick of NICKS) {
    if (except.includes(nick)) continue;
    const d = await detail(g.by(nick), g.id);
    if (!d.view!.seats[seatOf(nick)]!.alive) continue;
    await vote(g, nick, nick === target ? other : target);
  }
}

const alive = async (g: Game, nick: string): Promise<boolean> =>
  (await detail(g.gm, g.id)).view!.seats[seatOf(nick)]!.alive;

describe("e-mail confirmation and settings", () => {
  it("a new address is confirmed by its link, opened without a session; the link works once and expires in 48 h", async () => {
    const c = rig.client("Аня");
    expect((await c.get("/api/me/settings")).status).toBe(401);
    expectOk(await c.register());
    expect((await c.get<MySettings>("/api/me/settings")).body).toEqual({
      email: null,
      emailConfirmed: false,
      emailReminders: true,
      reminders: { before: ["2h", "15m"], quietHours: null },
      browserNotifications: false,
      emailAvailable: true,
      confirmAgainAt: null,
    });
    await confirmEmail(c, { before: ["90m"] });
    const confirmation = rig.inbox.received[0]!;
    expect(confirmation.mail.subject).toBe("Подтвердите адрес для напоминаний «Форумной мафии»");
    expect(confirmation.mail.from?.text).toContain("mafia@example.org");
    // RFC 8058 in every mail, the confirmation too.
    expect(header(confirmation, "List-Unsubscribe")).toMatch(
      /^<http:\/\/localhost:3000\/api\/mail\/unsubscribe\?token=[\w-]+>$/,
    );
    expect(header(confirmation, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const used = /(\/api\/me\/email\/confirm\?token=[\w-]+)/.exec(confirmation.mail.text!)![1]!;
    expect((await rig.server.app.inject({ method: "GET", url: used })).statusCode).toBe(400);
    // The same address again keeps its state; a new one needs its own confirmation.
    expect(
      (await putSettings(c, { email: addressOf("Аня"), reminders: { before: ["90m"] } })).body.emailConfirmed,
    ).toBe(true);
    const changed = await putSettings(c, { email: "new@example.org", reminders: { before: ["90m"] } });
    expect(changed.body).toMatchObject({ email: "new@example.org", emailConfirmed: false });
    await rig.inbox.count(2);
    const link = /(\/api\/me\/email\/confirm\?token=[\w-]+)/.exec(rig.inbox.received[1]!.mail.text!)![1]!;
    await rig.clock.advance(48 * 3_600_000 + 1);
    const late = await rig.server.app.inject({ method: "GET", url: link, headers: BROWSER });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain("Ссылка недействительна");
    const lateJson = await rig.server.app.inject({ method: "GET", url: link });
    expect(lateJson.statusCode).toBe(400);
    expect(lateJson.json()).toMatchObject({ error: { code: "token/invalid" } });
    expect((await c.get<MySettings>("/api/me/settings")).body.emailConfirmed).toBe(false);
  });

  it("bad settings are refused with the field named, and change nothing", async () => {
    const c = rig.client("Борис");
    expect((await putSettings(c, { reminders: { before: [] } })).status).toBe(401);
    expectOk(await c.register());
    const cases: [unknown, RegExp][] = [
      [{ reminders: { before: ["3d"] } }, /^reminders\.before\.0: /],
      [{ reminders: { before: ["49h"] } }, /^reminders\.before\.0: .*up to 48 hours/],
      [{ reminders: { before: ["2881m"] } }, /^reminders\.before\.0: .*up to 48 hours/],
      [{ reminders: { before: ["0m"] } }, /^reminders\.before\.0: /],
      [{ reminders: { before: ["1h", "2h", "3h", "4h", "5h"] } }, /^reminders\.before: /],
      [
        { reminders: { before: [], quietHours: { from: "25:00", to: "08:00" } } },
        /^reminders\.quietHours\.from: /,
      ],
      [{ reminders: { before: [], quietHours: { from: "08:00", to: "08:00" } } }, /^reminders\.quietHours: /],
      [{ email: "не адрес", reminders: { before: [] } }, /^email: /],
      [{ reminders: { before: [] }, colour: "red" }, /unknown field "colour"/],
    ];
    for (const [body, message] of cases) {
      const r = await putSettings(c, body);
      expect(r.status, r.raw).toBe(400);
      expect((r.body as unknown as { error: { message: string } }).error.message).toMatch(message);
    }
    expect((await c.get<MySettings>("/api/me/settings")).body.reminders.before).toEqual(["2h", "15m"]);
    await rig.quiet();
    expect(rig.inbox.received).toEqual([]);
  });

  it("without SMTP_URL e-mail is off: the settings say so and nothing is queued", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fm-nomail-"));
    const store = new SqliteStore(join(dir, "db.sqlite"));
    const server = await createServer({ store, clock: new FakeClock(), rateLimit: 0 });
    try {
      expect(server.mailer).toBeNull();
      const c = new Client(() => server.app, "Вика");
      expectOk(await c.register());
      const res = await server.app.inject({
        method: "PUT",
        url: "/api/me/settings",
        headers: { cookie: c.cookie!, "content-type": "application/json" },
        payload: JSON.stringify({ email: "v@example.org", reminders: { before: ["2h"] } }),
      });
      expect(res.json()).toMatchObject({
        email: "v@example.org",
        emailConfirmed: false,
        emailAvailable: false,
      });
      const me = (await c.get<{ user: { id: string } }>("/api/me")).body.user.id;
      expect(await store.outbox.mailFor(me)).toEqual([]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("confirmation mails are limited (issue 28)", () => {
  const VICTIM = "victim@example.org";
  const OWN = "own@example.org";
  const HOUR = 60 * MIN;
  /** The confirmations the inbox received, by address. */
  const confirmationsTo = (address: string): number =>
    rig.inbox.received.filter((r) => isConfirmation(r) && r.to === address).length;

  it("20 saves alternating two addresses send each address one confirmation; the settings say when another may be sent; the limit holds across a restart", async () => {
    const c = rig.client("Аня");
    expectOk(await c.register());
    const answers: Reply<MySettings>[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await putSettings(c, { email: i % 2 === 0 ? VICTIM : OWN, reminders: { before: ["2h"] } });
      expectOk(r);
      answers.push(r);
      // Every save is kept, and each mail the worker sends goes out before the next save.
      await rig.quiet();
      await rig.clock.advance(MIN);
    }
    expect(answers.map((a) => a.body.email)).toEqual(answers.map((_, i) => (i % 2 === 0 ? VICTIM : OWN)));
    expect(confirmationsTo(VICTIM)).toBe(1);
    expect(confirmationsTo(OWN)).toBe(1);
    // The first save of each address sent its link; from the third save on, the settings say when the next
    // may go: an hour after that address's first link (saves a minute apart, so at 0 + 1 h and 1 min + 1 h).
    const start = rig.clock.now() - 20 * MIN;
    expect(answers[0]!.body.confirmAgainAt).toBe(start + HOUR);
    expect(answers[2]!.body.confirmAgainAt).toBe(start + HOUR);
    expect(answers[3]!.body.confirmAgainAt).toBe(start + MIN + HOUR);
    expect((await c.get<MySettings>("/api/me/settings")).body.confirmAgainAt).toBe(start + MIN + HOUR);

    // Across a restart (the outbox is the record): the victim's address again, still within the hour.
    await rig.restart();
    expectOk(await putSettings(c, { email: VICTIM, reminders: { before: ["2h"] } }));
    await rig.quiet();
    expect(confirmationsTo(VICTIM)).toBe(1);

    // Another account cannot send the victim more within the hour either.
    const other = rig.client("Борис");
    expectOk(await other.register());
    const theirs = await putSettings(other, { email: VICTIM, reminders: { before: ["2h"] } });
    expect(theirs.body.confirmAgainAt).toBe(start + HOUR);
    await rig.quiet();
    expect(confirmationsTo(VICTIM)).toBe(1);

    // Once the hour is over, a save sends a new link: the address is not blocked for good.
    await rig.clock.advance(start + HOUR - rig.clock.now());
    const later = await putSettings(c, { email: VICTIM, reminders: { before: ["2h"] } });
    expect(later.body.confirmAgainAt).toBe(start + 2 * HOUR);
    await rig.quiet();
    expect(confirmationsTo(VICTIM)).toBe(2);
  });

  it("one user gets at most five confirmations a day, whatever the addresses", async () => {
    const c = rig.client("Вика");
    expectOk(await c.register());
    for (let i = 0; i < 8; i++) {
      expectOk(await putSettings(c, { email: `v${i}@example.org`, reminders: { before: ["2h"] } }));
      await rig.quiet();
      await rig.clock.advance(MIN);
    }
    expect(rig.inbox.received.filter(isConfirmation).map((r) => r.to)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `v${i}@example.org`),
    );
    const blocked = await c.get<MySettings>("/api/me/settings");
    expect(blocked.body).toMatchObject({ email: "v7@example.org", emailConfirmed: false });
    expect(blocked.body.confirmAgainAt).toBe(rig.clock.now() - 8 * MIN + 24 * HOUR);
  });

  it("bidi controls never reach a subject or a body, even from a mail queued with them", async () => {
    const c = rig.client("Гоша");
    expectOk(await c.register());
    const me = (await c.get<{ user: { id: string } }>("/api/me")).body.user.id;
    await confirmEmail(c);
    const before = rig.inbox.received.length;
    await rig.server.mailer!.queue({
      key: "remind:test:bidi",
      userId: me,
      to: addressOf("Гоша"),
      lang: "ru",
      subject: "«\u202eакчоп\u202c»: день 1\u200f, \u2066дедлайн\u2069\u061c",
      text: "Игра «\u202eакчоп»\u200e.",
      unsubscribeToken: "t",
    });
    await rig.quiet();
    await rig.inbox.count(before + 1);
    const got = rig.inbox.received.at(-1)!;
    expect(got.mail.subject).toBe("«акчоп»: день 1, дедлайн");
    expect(got.mail.text).toContain("Игра «акчоп».");
    expect(got.mail.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u);
  });
});

describe("deadline reminders", () => {
  it("a whole game: exactly the players who owe a move at a reminder time get one e-mail per deadline, and the GM one before each day closes", async () => {
    const g = await newGame({
      // 12:00–12:40 in Moscow: the night's first reminder (12:30) is quiet, the second (12:45) is not.
      Лёва: { quietHours: { from: "12:00", to: "12:40" } },
      // 11:00–14:00 in Moscow: both of the first night's reminders (12:30, 12:45) are quiet.
      Егор: { quietHours: { from: "11:00", to: "14:00" } },
      // Only 15 minutes before: votes before then, so is never reminded.
      Ника: { before: ["15m"] },
    });
    expectOk(await g.by("Рома").req("PATCH", "/api/me", { lang: "en", timeZone: "Asia/Vladivostok" }));
    await rig.quiet();
    const confirmations = rig.inbox.received.length;
    expect(confirmations).toBe(18);

    // Night 1, 09:00–10:00 UTC. Reminders (2h and 15m, each cut to half the night): 09:30 and 09:45.
    expectOk(await g.by("Аня").post(`/api/games/${g.id}/actions`, { act: "mafia", kill: [seatOf("Маша")] }));
    for (const nick of ["Гоша", "Даша", "Ёлка", "Зоя"]) await pass(g, nick);
    // Still owed (P2): Егор (maniac), Игорь (girl), Катя (prosecutor), Лёва (shahid); the pair's pass covers
    // Женя; the troll, the elf and the citizens owe nothing.
    await rig.clock.advance(30 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders().sort()).toEqual(["Игорь", "Катя"]);
    await pass(g, "Игорь");
    await rig.clock.advance(15 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders().sort()).toEqual(["Игорь", "Катя", "Лёва"]);
    const night = rig.inbox.received.find((r) => nickOf(r.to) === "Катя" && !isConfirmation(r))!;
    expect(night.mail.subject).toBe("«Почтовая партия»: ночь 1, дедлайн 30 ноября в 13:00 GMT+3");
    expect(night.mail.text).toContain("ночной ход");
    expect(night.mail.text).toContain(`${SITE}/games/${g.id}`);
    expect(night.mail.text).not.toMatch(/Прокурор|prosecutor|роль/i);
    expect(header(night, "List-Unsubscribe")).toMatch(
      /^<http:\/\/localhost:3000\/api\/mail\/unsubscribe\?token=/,
    );
    expect(header(night, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(night.mail.text).toContain(`${SITE}/api/mail/unsubscribe?token=`);
    await rig.clock.advance(15 * MIN);
    expect(await alive(g, "Маша")).toBe(false);

    // Day 1, 10:00–12:00 UTC. Reminders: 11:00 (2h cut to half the day) and 11:45.
    await everyoneVotes(g, "Аня", "Катя", ["Рома", "Олег", "Ника"]);
    await rig.clock.advance(60 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders().slice(3).sort()).toEqual(["Олег", "Рома", GM].sort());
    const english = rig.inbox.received.find((r) => nickOf(r.to) === "Рома" && !isConfirmation(r))!;
    // 12:00 UTC in Vladivostok (UTC+10).
    expect(english.mail.subject).toMatch(/^«Почтовая партия»: day 1, deadline 30 November.* 22:00 GMT\+10$/);
    expect(english.mail.text).toContain("your vote");
    const closing = rig.inbox.received.find((r) => r.to === "gm@example.org" && !isConfirmation(r))!;
    expect(closing.mail.text).toContain("день закрывается");
    expect(closing.mail.subject).toContain("15:00 GMT+3");
    await rig.clock.advance(10 * MIN);
    await vote(g, "Рома", "Аня");
    await rig.clock.advance(20 * MIN);
    await vote(g, "Ника", "Аня");
    await rig.clock.advance(30 * MIN);
    expect(await alive(g, "Аня")).toBe(false);
    expect(rig.inbox.reminders()).toHaveLength(6);

    // Nights 2–6 and days 2–6: everyone moves and votes; only the GM is reminded, before each day closes.
    const victims = ["Ника", "Олег", "Петя", "Рома", "Женя"];
    for (const target of ["Борис", "Вика", "Гоша", "Даша", "Егор"]) {
      await everyoneMoves(g, victims);
      await rig.clock.advance(NIGHT);
      await everyoneVotes(g, target, "Катя");
      await rig.clock.advance(DAY);
      expect(await alive(g, target)).toBe(false);
    }
    const end = await detail(g.gm, g.id);
    expect(end.summary.status).toBe("ended");
    await rig.clock.advance(3 * DAY);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual([...rig.inbox.reminders().slice(0, 6), GM, GM, GM, GM, GM]);
    // One e-mail per deadline: nobody got two for the same phase.
    expect(rig.inbox.received).toHaveLength(confirmations + 11);
  });

  it("the GM gets one e-mail when a night's results wait for review, held until the quiet hours end", async () => {
    const gm = rig.client(GM);
    expectOk(await gm.register());
    // 12:30–13:30 in Moscow: the night ends at 13:00, inside them.
    await confirmEmail(gm, { quietHours: { from: "12:30", to: "13:30" } });
    const players = NICKS.map((nick) => rig.client(nick));
    for (const p of players) expectOk(await p.register());
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Разбор",
      night: { amount: 60, unit: "minutes" },
      day: { amount: 120, unit: "minutes" },
      mode: "review",
    });
    const id = created.body.id;
    for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: HAND }));
    await rig.clock.advance(NIGHT);
    await rig.quiet();
    expect((await detail(gm, id)).clock.resultsPending).toBe(true);
    expect(rig.inbox.reminders()).toEqual([]);
    await rig.clock.advance(29 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual([]);
    await rig.clock.advance(MIN);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual([GM]);
    expect(rig.inbox.received.at(-1)!.mail.text).toContain("итоги ночи ждут вашей проверки");
    await rig.restart();
    await rig.clock.advance(NIGHT);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual([GM]);
  });

  it("unsubscribing by the link (GET) or by one click (RFC 8058 POST) stops the reminders", async () => {
    const g = await newGame();
    await everyoneMoves(g, ["Маша"], ["Катя", "Игорь", "Лёва"]);
    await rig.clock.advance(30 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders().sort()).toEqual(["Игорь", "Катя", "Лёва"]);
    const linkOf = (nick: string): string => {
      const r = rig.inbox.received.find((x) => nickOf(x.to) === nick && !isConfirmation(x))!;
      return /^<(.+)>$/.exec(header(r, "List-Unsubscribe")!)![1]!;
    };
    const page = await rig.server.app.inject({
      method: "GET",
      url: pathOf(linkOf("Катя")),
      headers: BROWSER,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Вы отписались");
    // As a mail client posts it: form-encoded, no Origin, no session.
    const oneClick = await rig.server.app.inject({
      method: "POST",
      url: pathOf(linkOf("Игорь")),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    // Form bodies are taken on that route alone.
    const form = await rig.server.app.inject({
      method: "POST",
      url: `/api/games/${g.id}/votes`,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: g.by("Катя").cookie! },
      payload: "color=red&target=1",
    });
    expect(form.statusCode).toBe(415);
    const unknown = await rig.server.app.inject({ method: "GET", url: "/api/mail/unsubscribe?token=nope" });
    expect(unknown.statusCode).toBe(404);
    // Asked by an API client (no text/html), the refusal is the API's JSON error.
    expect(unknown.json()).toMatchObject({ error: { code: "not-found" } });
    const unknownPage = await rig.server.app.inject({
      method: "GET",
      url: "/api/mail/unsubscribe?token=nope",
      headers: BROWSER,
    });
    expect(unknownPage.statusCode).toBe(404);
    expect(unknownPage.body).toContain("Ссылка недействительна");
    for (const nick of ["Катя", "Игорь"])
      expect((await g.by(nick).get<MySettings>("/api/me/settings")).body.emailReminders).toBe(false);
    // Day 1: none of the three votes; only Лёва, still subscribed, is reminded (and the GM).
    await rig.clock.advance(30 * MIN);
    await everyoneVotes(g, "Аня", "Петя", ["Катя", "Игорь", "Лёва"]);
    await rig.clock.advance(DAY);
    await rig.quiet();
    expect(rig.inbox.reminders().slice(3).sort()).toEqual(["Лёва", GM].sort());
  });

  it("a paused game reminds nobody; once resumed, a reminder time that passed meanwhile fires at once", async () => {
    const g = await newGame();
    await everyoneMoves(g, ["Маша"], ["Катя"]);
    await rig.clock.advance(10 * MIN);
    expectOk(await g.gm.post(`/api/games/${g.id}/gm/pause`));
    await rig.clock.advance(3 * 60 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual([]);
    // 50 minutes were left: the deadline is now 13:00 UTC, less than the 2 hours before it that Катя asked for.
    expectOk(await g.gm.post(`/api/games/${g.id}/gm/resume`));
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual(["Катя"]);
    await rig.clock.advance(50 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual(["Катя"]);
  });

  it("no duplicate after a restart; a reminder time missed while down fires once on start", async () => {
    const g = await newGame({ Игорь: { before: ["15m"] } });
    await everyoneMoves(g, ["Маша"], ["Катя", "Игорь"]);
    await rig.clock.advance(30 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders()).toEqual(["Катя"]);
    await rig.server.close();
    // Down from 09:30 to 09:50: Игорь's 09:45 and Катя's second time pass meanwhile.
    await rig.clock.advance(20 * MIN);
    await rig.restart();
    await rig.quiet();
    expect(rig.inbox.reminders().sort()).toEqual(["Игорь", "Катя"]);
    await rig.restart();
    await rig.clock.advance(10 * MIN);
    await rig.quiet();
    expect(rig.inbox.reminders().sort()).toEqual(["Игорь", "Катя"]);
  });
});

describe("the outbox", () => {
  it("a refused send is retried after 1 minute, then 2, across a restart, and delivered once", async () => {
    const c = rig.client("Аня");
    expectOk(await c.register());
    rig.inbox.refuse = 2;
    expectOk(await putSettings(c, { email: addressOf("Аня"), reminders: { before: [] } }));
    await rig.quiet();
    expect(rig.inbox.refused).toBe(1);
    await rig.restart();
    await rig.clock.advance(MIN - 1);
    await rig.quiet();
    expect(rig.inbox.refused).toBe(1);
    await rig.clock.advance(1);
    await rig.quiet();
    expect(rig.inbox.refused).toBe(2);
    await rig.clock.advance(2 * MIN - 1);
    await rig.quiet();
    expect(rig.inbox.received).toHaveLength(0);
    await rig.clock.advance(1);
    await rig.inbox.count(1);
    await rig.clock.advance(3_600_000);
    await rig.quiet();
    expect(rig.inbox.received).toHaveLength(1);
    const id = (await c.get<{ user: { id: string } }>("/api/me")).body.user.id;
    const store = new SqliteStore(join(rig.dir, "db.sqlite"));
    try {
      const [m] = await store.outbox.mailFor(id);
      expect(m).toMatchObject({ attempts: 2, failed: false, lastError: expect.stringContaining("451") });
      expect(m!.sentAt).toBe(rig.clock.now() - 3_600_000);
    } finally {
      await store.close();
    }
  });

  it("gives up after 10 attempts, 1 minute doubling to an hour apart", async () => {
    const c = rig.client("Аня");
    expectOk(await c.register());
    rig.inbox.refuse = 1_000;
    expectOk(await putSettings(c, { email: addressOf("Аня"), reminders: { before: [] } }));
    await rig.quiet();
    const waits = [1, 2, 4, 8, 16, 32, 60, 60, 60];
    for (const [i, wait] of waits.entries()) {
      await rig.clock.advance(wait * MIN - 1);
      await rig.quiet();
      expect(rig.inbox.refused).toBe(i + 1);
      await rig.clock.advance(1);
      await rig.quiet();
      expect(rig.inbox.refused).toBe(i + 2);
    }
    await rig.clock.advance(10 * 3_600_000);
    await rig.quiet();
    expect(rig.inbox.refused).toBe(10);
    const id = (await c.get<{ user: { id: string } }>("/api/me")).body.user.id;
    const store = new SqliteStore(join(rig.dir, "db.sqlite"));
    try {
      expect(await store.outbox.mailFor(id)).toMatchObject([{ attempts: 10, failed: true, sentAt: null }]);
    } finally {
      await store.close();
    }
  });

  it("a crash between the send and its mark sends the same message (the same Message-ID) again, never another", async () => {
    const c = rig.client("Аня");
    expectOk(await c.register());
    // The store fails to record the send, as if the server died right after the SMTP server accepted it.
    await rig.restart((s) => {
      const outbox = new Proxy(s.outbox, {
        get: (target, prop) =>
          prop === "mailSent"
            ? () => Promise.reject(new Error("disk gone"))
            : (Reflect.get(target, prop, target) as unknown),
      });
      return new Proxy(s, {
        get: (target, prop) => (prop === "outbox" ? outbox : (Reflect.get(target, prop, target) as unknown)),
      });
    });
    expectOk(await putSettings(c, { email: addressOf("Аня"), reminders: { before: [] } }));
    await rig.inbox.count(1);
    await rig.quiet();
    await rig.restart();
    await rig.inbox.count(2);
    await rig.quiet();
    await rig.clock.advance(3_600_000);
    await rig.quiet();
    const [first, second] = rig.inbox.received;
    expect(rig.inbox.received).toHaveLength(2);
    expect(second!.mail.messageId).toBe(first!.mail.messageId);
    expect(second!.mail.text).toBe(first!.mail.text);
  });
});
