import { TZDate } from "@date-fns/tz";
import type { Phase } from "@forum-mafia/engine";
import type { Clock } from "../clock.ts";
import type { Games } from "../log/games.ts";
import { reminderMail, type Mailer, type ReminderAsk } from "./mailer.ts";
import { owedBy } from "../game/owes.ts";
import { reminderTimes } from "./reminder-times.ts";
import type { Room } from "../log/room.ts";
import type { SettingsRecord, Store } from "../stores/store.ts";

type QuietHours = SettingsRecord["quietHours"];

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  return h * 60 + m;
};

/** Whether `at` falls in the quiet hours, read in the user's time zone; they may cross midnight. */
export function isQuiet(at: number, quiet: QuietHours, timeZone: string): boolean {
  if (quiet === null) return false;
  const local = new TZDate(at, timeZone);
  const m = local.getHours() * 60 + local.getMinutes();
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return false;
  return from < to ? m >= from && m < to : m >= from || m < to;
}

/** The end of the quiet hours that hold `at`: the next `to` in the user's time zone. */
export function quietEnd(at: number, quiet: NonNullable<QuietHours>, timeZone: string): number {
  const local = new TZDate(at, timeZone);
  const [h, m] = quiet.to.split(":").map(Number) as [number, number];
  const on = (shift: number): number =>
    new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + shift, h, m, 0, timeZone).getTime();
  const today = on(0);
  return today > at ? today : on(1);
}

const phaseKey = (p: Phase): string => `${p.kind}${p.number}`;

/** Whether a user's settings ask for reminders by e-mail at all. */
const wants = (s: SettingsRecord | null): s is SettingsRecord & { email: string } =>
  s !== null && s.email !== null && s.emailConfirmed && s.emailReminders;

interface RoomState {
  /** The phase these marks are for; a new phase starts afresh. */
  readonly phase: string;
  /** Reminder times up to this one have been worked out (-Infinity on start: the catch-up). */
  lastCheck: number;
  timer: { readonly at: number; readonly cancel: () => void } | null;
  /** A check is under way; it arms the room again when it is done. */
  firing: boolean;
  /** The GM's review mail: not yet sent, sent (or queued), or held until the quiet hours end. */
  review: "todo" | "done" | number;
}

/** A reminder worked out at a reminder time, to be queued once the user's record is read. */
interface Due {
  readonly userId: string;
  readonly key: string;
  readonly asks: readonly ReminderAsk[];
  readonly deadline: number | null;
  readonly review: boolean;
}

/**
 * Issue 15: deadline reminders by e-mail. Each running game has one timer, at its next reminder time: the
 * earliest of `reminderTimes(phaseStart, deadline, offsets)` over its players and GM who want e-mail. At
 * that time each of them whose time it is and who still owes something (owedBy, read then) gets one
 * e-mail, unless it is within the user's quiet hours; the outbox key (`remind:<game>:<phase>:<user>`)
 * makes it one e-mail per phase's deadline, however often the deadline moves or the server restarts. The
 * GM gets a reminder before a day closes, before a night closes while a council question waits, and one
 * e-mail when a night's results wait for review (held until the quiet hours end). Paused games, and
 * games in review (no deadline), remind no players.
 */
export class Reminders {
  /** The settings of users who want e-mail reminders (confirmed, not unsubscribed): what the timers use. */
  private readonly wanted = new Map<string, SettingsRecord>();
  private readonly rooms = new Map<string, RoomState>();
  private readonly work = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly games: Games,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
  ) {}

  /** Read who wants reminders and arm every running game; a reminder time missed while down fires now. */
  async start(): Promise<void> {
    for (const s of await this.store.accounts.allSettings()) this.remember(s);
    for (const room of this.games.rooms.values()) this.arm(room);
  }

  /** A user's settings changed (saved, confirmed, unsubscribed): the games the user is in are armed again. */
  settingsChanged(s: SettingsRecord): void {
    this.remember(s);
    for (const room of this.games.rooms.values())
      if (room.gmId === s.userId || room.seatUsers.includes(s.userId)) this.arm(room);
  }

  private remember(s: SettingsRecord): void {
    if (wants(s)) this.wanted.set(s.userId, s);
    else this.wanted.delete(s.userId);
  }

  /** After every commit that may change the deadline (Games' onDeadlineChange), and on start. */
  arm(room: Room): void {
    if (this.stopped || room.retired) return;
    const phase = room.status === "running" ? room.phase : null;
    let st = this.rooms.get(room.id);
    if (phase === null) {
      st?.timer?.cancel();
      this.rooms.delete(room.id);
      return;
    }
    if (st === undefined || st.phase !== phaseKey(phase)) {
      st?.timer?.cancel();
      st = { phase: phaseKey(phase), lastCheck: -Infinity, timer: null, firing: false, review: "todo" };
      this.rooms.set(room.id, st);
    }
    if (st.firing) return;
    const now = this.clock.now();
    const at = this.nextAt(room, st, now);
    // Nothing was due up to now for anyone who wants e-mail: a user who turns reminders on later is not
    // reminded of a time already past.
    if (at === null || at > now) st.lastCheck = Math.max(st.lastCheck, now);
    if (st.timer !== null && st.timer.at === at) return;
    st.timer?.cancel();
    st.timer = null;
    if (at === null) return;
    if (at <= now) {
      this.fire(room.id);
      return;
    }
    const state = st;
    const cancel = this.clock.at(at, () => {
      state.timer = null;
      this.fire(room.id);
    });
    st.timer = { at, cancel };
  }

  private participants(room: Room): string[] {
    return [...new Set([room.gmId, ...room.seatUsers])];
  }

  /** The room's next reminder time after its last check, or null when none is ahead. */
  private nextAt(room: Room, st: RoomState, now: number): number | null {
    if (room.paused) return null;
    let best: number | null = null;
    const consider = (t: number): void => {
      if (best === null || t < best) best = t;
    };
    const deadline = room.deadline;
    if (deadline !== null && deadline > now)
      for (const userId of this.participants(room)) {
        const s = this.wanted.get(userId);
        if (s === undefined) continue;
        for (const t of reminderTimes(room.phaseStart, deadline, s.before)) if (t > st.lastCheck) consider(t);
      }
    if (room.resultsPending && this.wanted.has(room.gmId) && st.review !== "done")
      consider(st.review === "todo" ? now : st.review);
    return best;
  }

  private fire(gameId: string): void {
    const room = this.games.rooms.get(gameId);
    const st = this.rooms.get(gameId);
    if (this.stopped || room === undefined || st === undefined || st.firing) return;
    st.firing = true;
    const job = this.check(room, st)
      .catch((error: unknown) => {
        // The store failed: the next reminder time, or a restart, works it out again (keys keep it once).
        console.error(`game ${gameId}: reminders could not be queued: ${String(error)}`);
      })
      .finally(() => {
        st.firing = false;
        this.work.delete(job);
        const now = this.games.rooms.get(gameId);
        if (now !== undefined) this.arm(now);
      });
    this.work.add(job);
  }

  /** What the user is asked for now: the player's debts; the GM's council by night, the closing day by day. */
  private asksOf(room: Room, userId: string): ReminderAsk[] {
    const owed = owedBy(room, userId);
    if (userId !== room.gmId) return owed;
    if (room.phase?.kind === "day") return ["dayClosing"];
    return owed.filter((o) => o === "council");
  }

  /** Work out, at this moment, who is due a reminder (owedBy is read now), then queue the e-mails. */
  private async check(room: Room, st: RoomState): Promise<void> {
    const now = this.clock.now();
    const from = st.lastCheck;
    st.lastCheck = now;
    const phase = room.phase;
    if (room.status !== "running" || phase === null || room.paused) return;
    const due: Due[] = [];
    const deadline = room.deadline;
    if (deadline !== null && now < deadline)
      for (const userId of this.participants(room)) {
        const s = this.wanted.get(userId);
        if (s === undefined) continue;
        const times = reminderTimes(room.phaseStart, deadline, s.before);
        if (!times.some((t) => t > from && t <= now)) continue;
        const asks = this.asksOf(room, userId);
        if (asks.length > 0)
          due.push({ userId, key: `remind:${room.id}:${st.phase}:${userId}`, asks, deadline, review: false });
      }
    const reviewDue = st.review === "todo" || (typeof st.review === "number" && st.review <= now);
    if (room.resultsPending && reviewDue && owedBy(room, room.gmId).includes("review")) {
      st.review = "done";
      due.push({
        userId: room.gmId,
        key: `review:${room.id}:${st.phase}:${room.gmId}`,
        asks: ["review"],
        deadline: null,
        review: true,
      });
    }
    const facts = { id: room.id, title: room.title, phase };
    for (const d of due) {
      const held = await this.queue(facts, d, now);
      if (held !== null && d.review) st.review = held;
    }
  }

  /**
   * Queue one reminder, from the user's settings as stored now. Returns the end of the quiet hours when
   * they hold it back (a review waits for it; a reminder is dropped: a later offset may still come).
   */
  private async queue(
    game: { readonly id: string; readonly title: string; readonly phase: Phase },
    d: Due,
    now: number,
  ): Promise<number | null> {
    const [s, user] = await Promise.all([
      this.store.accounts.settings(d.userId),
      this.store.accounts.userById(d.userId),
    ]);
    if (s !== null) this.remember(s);
    if (!wants(s) || user === null) return null;
    if (isQuiet(now, s.quietHours, user.timeZone)) return quietEnd(now, s.quietHours!, user.timeZone);
    const mail = reminderMail({
      lang: user.lang,
      nick: user.nick,
      title: game.title,
      gameUrl: this.mailer.link(`/games/${game.id}`),
      phase: game.phase,
      deadline: d.deadline,
      timeZone: user.timeZone,
      asks: d.asks,
    });
    await this.mailer.queue({
      key: d.key,
      userId: d.userId,
      to: s.email,
      lang: user.lang,
      subject: mail.subject,
      text: mail.text,
      unsubscribeToken: s.unsubscribeToken,
    });
    return null;
  }

  /** Resolves when no check is under way (tests). */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.all([...this.work]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const st of this.rooms.values()) st.timer?.cancel();
    this.rooms.clear();
    await this.idle();
  }
}
