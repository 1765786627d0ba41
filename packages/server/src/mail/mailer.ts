import { createHash } from "node:crypto";
import type { Phase } from "@forum-mafia/engine";
import type { Owed } from "@forum-mafia/protocol";
import { nanoid } from "nanoid";
import nodemailer, { type Transporter } from "nodemailer";
import type { Clock } from "../clock.ts";
import type { ConfirmQuota, MailRecord, SettingsRecord, Store } from "../stores/store.ts";

/**
 * Issue 15: e-mail. Requests only queue mail (durably, in the store's outbox); one worker per server sends
 * it through SMTP_URL, in the order it was queued, and marks each sent as soon as the SMTP server has
 * accepted it. A failed send is tried again after 1 minute, then 2, 4… up to an hour, and given up after
 * 10 attempts. Every message's Message-ID is worked out from its outbox key, so even a crash between the
 * send and the mark sends the same message again (which mail systems drop as a duplicate), never a second
 * one. All timing goes through the server's Clock.
 */

export const MAIL_RETRY = {
  /** The pause after the first failure; it doubles after each next one. */
  firstMs: 60_000,
  /** The longest pause between two attempts. */
  maxMs: 3_600_000,
  /** Given up (marked failed) after this many failed attempts. */
  attempts: 10,
} as const;

/** How many queued mails the worker reads at a time. */
const BATCH = 20;

/** The pause after the n-th failed attempt (1, 2, …): 1 min doubling to 1 h. */
export const retryDelay = (attempts: number): number =>
  Math.min(MAIL_RETRY.firstMs * 2 ** Math.max(0, attempts - 1), MAIL_RETRY.maxMs);

/**
 * SMTP_URL (`smtp://user:pass@host:587`, or `smtps://…:465`), or a one-line reason why it is not one. Unset
 * or empty: no e-mail.
 */
export function parseSmtpUrl(value: string | undefined): { url: string | null } | { error: string } {
  if (value === undefined || value === "") return { url: null };
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return {
      error: `SMTP_URL: ${JSON.stringify(value)} is not a URL (expected e.g. smtp://user:pass@host:587)`,
    };
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:")
    return { error: `SMTP_URL: expected an smtp:// or smtps:// URL, got ${JSON.stringify(u.protocol)}` };
  if (u.hostname === "") return { error: "SMTP_URL: no host (expected e.g. smtp://user:pass@host:587)" };
  if (u.port !== "" && !(Number(u.port) > 0 && Number(u.port) < 65536))
    return { error: `SMTP_URL: bad port ${JSON.stringify(u.port)}` };
  return { url: value };
}

/** The mail a server sends: its outbox key's kind says which it is. */
export type MailKind = "confirm" | "remind" | "review";

export const mailKind = (key: string): MailKind =>
  key.startsWith("confirm:") ? "confirm" : key.startsWith("review:") ? "review" : "remind";

/**
 * Whether a queued mail is still wanted when its turn comes: the address is still the user's, and a
 * reminder's user is still confirmed and has not unsubscribed since it was queued.
 */
export function stillWanted(mail: MailRecord, s: SettingsRecord | null): boolean {
  if (s === null || s.email !== mail.to) return false;
  return mailKind(mail.key) === "confirm" || (s.emailConfirmed && s.emailReminders);
}

/** What the code queuing a mail gives: the rest (the unsubscribe footer and headers) the mailer adds. */
export interface OutgoingMail {
  readonly key: string;
  readonly userId: string;
  readonly to: string;
  readonly lang: "ru" | "en";
  readonly subject: string;
  readonly text: string;
  readonly unsubscribeToken: string;
}

export interface MailerOptions {
  readonly store: Store;
  readonly clock: Clock;
  /** SMTP_URL, checked by parseSmtpUrl. */
  readonly smtpUrl: string;
  /** MAIL_FROM; by default `forum-mafia <noreply@the site's host>`. */
  readonly from?: string | null;
  /** The origin links point to: PUBLIC_URL, or the origin the server is reached at locally. */
  readonly siteUrl: string;
}

/** How often the leader looks at the outbox on a shared database (issue 20). */
const MAIL_POLL_MS = 10_000;

export class Mailer {
  readonly siteUrl: string;
  readonly from: string;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly transport: Transporter;
  private readonly domain: string;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: { at: number; cancel: () => void } | null = null;
  /** Issue 20: only the leader of the instances on one database sends, so no mail goes out twice. */
  private sending = true;
  private poll: NodeJS.Timeout | null = null;

  constructor(opts: MailerOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.siteUrl = new URL(opts.siteUrl).origin;
    this.domain = new URL(opts.siteUrl).hostname;
    this.from = opts.from || `forum-mafia <noreply@${this.domain}>`;
    // Network timeouts only: the retries' pauses are the Clock's.
    this.transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
  }

  /** A page of the site, e.g. `/games/abc`. */
  link(path: string): string {
    return `${this.siteUrl}${path}`;
  }

  unsubscribeLink(token: string): string {
    return this.link(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`);
  }

  /** A deterministic Message-ID: the same key always makes the same message. */
  messageId(key: string): string {
    return `<${createHash("sha256").update(key).digest("hex").slice(0, 40)}@${this.domain}>`;
  }

  /**
   * Queue a mail, with the one-click unsubscribe (RFC 8058) in its headers and its footer. Resolves once
   * the mail is durable in the outbox ("duplicate": one with this key was queued before, nothing written);
   * the sending happens later, never in the caller's time.
   */
  async queue(m: OutgoingMail): Promise<"queued" | "duplicate"> {
    const out = await this.store.outbox.enqueueMail(this.record(m));
    if (out === "queued") this.kick();
    return out;
  }

  /**
   * Issue 28: queue a confirmation mail only while the quota allows it (Store.enqueueConfirmation); else
   * nothing is queued and the answer says when one may be.
   */
  async queueConfirmation(
    m: OutgoingMail,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }> {
    const out = await this.store.outbox.enqueueConfirmation(this.record(m), quota);
    if (out === "queued") this.kick();
    return out;
  }

  /** The outbox's record of a mail: its footer and headers added, due now. */
  private record(m: OutgoingMail): MailRecord {
    const unsubscribe = this.unsubscribeLink(m.unsubscribeToken);
    const now = this.clock.now();
    return {
      id: nanoid(16),
      key: m.key,
      userId: m.userId,
      to: m.to,
      subject: plainSubject(m.subject),
      text: `${withoutBidi(m.text)}\n\n${footer(m.lang, this.link("/settings"), unsubscribe)}`,
      headers: {
        "List-Unsubscribe": `<${unsubscribe}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
      createdAt: now,
      attempts: 0,
      nextAttemptAt: now,
      sentAt: null,
      lastError: null,
      failed: false,
    };
  }

  /**
   * Start sending (what was left queued by a restart goes out now or at its next attempt) when this
   * instance leads the ones sharing its database (issue 20), stop when it no longer does (only queue). Another instance's mail is queued without a word to the leader, so on a shared database the
   * leader looks at the outbox every MAIL_POLL_MS as well.
   */
  lead(leader: boolean, shared: boolean): void {
    this.sending = leader;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    if (!leader) {
      this.timer?.cancel();
      this.timer = null;
      return;
    }
    if (shared) {
      this.poll = setInterval(() => this.kick(), MAIL_POLL_MS);
      this.poll.unref();
    }
    this.kick();
  }

  /** Run the worker now, or once more after the run under way. */
  kick(): void {
    if (this.stopped || !this.sending) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .catch((error: unknown) => {
        // The store failed: the mail stays queued; the next kick (a new mail, or a restart) tries again.
        console.error(`mail: the outbox failed (the mail stays queued): ${String(error)}`);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when the worker has nothing under way (tests). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    this.timer?.cancel();
    this.timer = null;
    await this.idle();
    this.transport.close();
  }

  private async work(): Promise<void> {
    for (;;) {
      if (this.stopped || !this.sending) return;
      const due = await this.store.outbox.dueMail(this.clock.now(), BATCH);
      if (due.length === 0) break;
      for (const m of due) {
        if (this.stopped) return;
        await this.sendOne(m);
      }
    }
    const next = await this.store.outbox.nextMailAt();
    this.arm(next);
  }

  /** One timer, at the next attempt any queued mail waits for. */
  private arm(at: number | null): void {
    if (this.timer !== null && this.timer.at === at) return;
    this.timer?.cancel();
    this.timer = null;
    if (at === null || this.stopped) return;
    const cancel = this.clock.at(at, () => {
      this.timer = null;
      this.kick();
    });
    this.timer = { at, cancel };
  }

  private async sendOne(m: MailRecord): Promise<void> {
    if (!stillWanted(m, await this.store.accounts.settings(m.userId))) {
      await this.store.outbox.mailFailed(m.id, {
        attempts: m.attempts,
        nextAttemptAt: m.nextAttemptAt,
        lastError: "not sent: the address changed or its reminders were turned off after it was queued",
        failed: true,
      });
      return;
    }
    try {
      await this.transport.sendMail({
        from: this.from,
        to: m.to,
        // Issue 28: a mail queued before the edge refused bidi controls is cleaned as it is sent.
        subject: plainSubject(m.subject),
        text: withoutBidi(m.text),
        headers: { ...m.headers },
        messageId: this.messageId(m.key),
      });
    } catch (error) {
      const attempts = m.attempts + 1;
      const failed = attempts >= MAIL_RETRY.attempts;
      const message = error instanceof Error ? error.message : String(error);
      console.error(
        `mail ${m.key}: attempt ${attempts} failed${failed ? ", given up" : ""}: ${message.slice(0, 300)}`,
      );
      await this.store.outbox.mailFailed(m.id, {
        attempts,
        nextAttemptAt: this.clock.now() + retryDelay(attempts),
        lastError: message.slice(0, 1000),
        failed,
      });
      return;
    }
    // Marked at once: a crash before this line sends the same message (the same Message-ID) again.
    await this.store.outbox.mailSent(m.id, this.clock.now());
  }
}

/**
 * Issue 28: bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) that would
 * reorder what a mail client shows. The edge refuses them in titles and names already; this is the defence
 * in depth for subjects, which quote a game's title.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;

/** A text without bidi controls. */
export const withoutBidi = (text: string): string => text.replace(BIDI_CONTROLS, "");

/** A subject as sent: one line, with no bidi controls and no line breaks (a header cannot hold them). */
export const plainSubject = (subject: string): string => withoutBidi(subject).replace(/[\r\n]+/gu, " ");

// ——— the texts (Russian, and English for users whose language is "en") ———

const footer = (lang: "ru" | "en", settings: string, unsubscribe: string): string =>
  lang === "en"
    ? `—\nReminder settings: ${settings}\nUnsubscribe from reminders (one click): ${unsubscribe}`
    : `—\nНастройки напоминаний: ${settings}\nОтписаться от напоминаний (одним нажатием): ${unsubscribe}`;

/** The confirmation of a new address: the only mail an unconfirmed address receives. */
export function confirmationMail(
  lang: "ru" | "en",
  nick: string,
  site: string,
  link: string,
): { subject: string; text: string } {
  if (lang === "en")
    return {
      subject: "Confirm your address for Forum Mafia reminders",
      text:
        `Hello, ${nick}!\n\nThis address was given for deadline reminders of the games on ${site}. ` +
        `To receive them, confirm it by opening this link (valid for 48 hours):\n${link}\n\n` +
        "If you did not give this address, just delete this mail: nothing is sent to an unconfirmed address.",
    };
  return {
    subject: "Подтвердите адрес для напоминаний «Форумной мафии»",
    text:
      `Здравствуйте, ${nick}!\n\nЭтот адрес указан для напоминаний о дедлайнах в играх на ${site}. ` +
      `Чтобы получать их, подтвердите адрес по ссылке (она действует 48 часов):\n${link}\n\n` +
      "Если вы не указывали этот адрес, просто удалите письмо: на неподтверждённый адрес напоминания не приходят.",
  };
}

/** What a reminder asks for: what owedBy names, or, for the GM, a day about to close. */
export type ReminderAsk = Owed | "dayClosing";

/** What each reminder asks for, in each language. */
const ASKS: { readonly [L in "ru" | "en"]: Readonly<Record<ReminderAsk, string>> } = {
  ru: {
    vote: "голос в дневном голосовании",
    action: "ночной ход (действие или явный пропуск)",
    gmAnswer: "ответ ведущему в вашем канале",
    review: "итоги ночи ждут вашей проверки и публикации",
    council: "вопрос совета ждёт вашего ответа",
    dayClosing: "день закрывается: проверьте голосование",
  },
  en: {
    vote: "your vote in today's vote",
    action: "your night move (an action or an explicit pass)",
    gmAnswer: "an answer to the GM in your channel",
    review: "the night's results await your review",
    council: "the council's question awaits your answer",
    dayClosing: "the day is about to close: check the vote",
  },
};

const phaseName = (lang: "ru" | "en", phase: Phase): string =>
  lang === "en"
    ? `${phase.kind} ${phase.number}`
    : `${phase.kind === "day" ? "день" : "ночь"} ${phase.number}`;

/** A time as the user reads it: in the user's time zone, with the zone named. */
export function localTime(lang: "ru" | "en", at: number, timeZone: string): string {
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "ru-RU", {
    timeZone,
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(at);
}

export interface ReminderFacts {
  readonly lang: "ru" | "en";
  readonly nick: string;
  readonly title: string;
  readonly gameUrl: string;
  readonly phase: Phase;
  /** Null: no deadline (results awaiting the GM's review). */
  readonly deadline: number | null;
  readonly timeZone: string;
  readonly asks: readonly ReminderAsk[];
}

/** A reminder: which game, what is asked, when the deadline is (in the user's time zone), and the link. */
export function reminderMail(f: ReminderFacts): { subject: string; text: string } {
  const en = f.lang === "en";
  const phase = phaseName(f.lang, f.phase);
  const when = f.deadline === null ? null : localTime(f.lang, f.deadline, f.timeZone);
  const subject =
    when === null
      ? `«${f.title}»: ${phase}, ${en ? "the results await you" : "итоги ждут вас"}`
      : `«${f.title}»: ${phase}, ${en ? "deadline" : "дедлайн"} ${when}`;
  const asks = f.asks.map((a) => `— ${ASKS[f.lang][a]}`).join("\n");
  const text = en
    ? `Hello, ${f.nick}!\n\nGame «${f.title}», ${phase}.` +
      (when === null ? "" : ` The deadline is ${when}.`) +
      `\nWaiting for you:\n${asks}\n\nOpen the game: ${f.gameUrl}`
    : `Здравствуйте, ${f.nick}!\n\nИгра «${f.title}», ${phase}.` +
      (when === null ? "" : ` Дедлайн — ${when}.`) +
      `\nОт вас ждут:\n${asks}\n\nОткрыть игру: ${f.gameUrl}`;
  return { subject, text };
}
