import type { DueReminder, Lang, MyGames } from "@forum-mafia/protocol";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { api, onGameWrite } from "./api.ts";
import { useLang, useT, type Dict } from "./i18n/index.tsx";
import { Link, navigate, useRoute } from "./router.tsx";
import { useSession } from "./session.tsx";
import { formatMoment } from "./time.ts";
import "./reminders.css";

/**
 * Issue 15: the reminders in the app, and the «Мои игры» data they come from. One poller serves every
 * screen that shows it (this banner on every page, the «Мои игры» page): `GET /api/me/games` every minute
 * and whenever the tab becomes visible again. Each due reminder is a banner at the top of the page until
 * it is dismissed (remembered per reminder key in localStorage) and, where the user turned browser
 * notifications on and the browser allows them, one notification per key. The data holds no role and no
 * secret: a reminder names the game, the phase and what the user still owes.
 */

const REFRESH_MS = 60_000;
const DISMISSED = "fm.reminders.dismissed";
const NOTIFIED = "fm.reminders.notified";
/** How many reminder keys each localStorage list keeps (the newest). */
const KEEP_KEYS = 200;

interface Snapshot {
  readonly data: MyGames | null;
  readonly error: unknown;
  /** When the last answer came (the browser's clock), 0 before. */
  readonly at: number;
}

let snapshot: Snapshot = { data: null, error: null, at: 0 };
const listeners = new Set<() => void>();
let running: Promise<void> | null = null;
let queued: Promise<void> | null = null;
/** Bumped when the last screen stops listening (a logout): an answer for the user before is dropped. */
let generation = 0;
let stopPolling: (() => void) | null = null;
/** The language «Мои игры» is asked in (its role names): the app's, as the screens that read it render. */
let askedLang: Lang = "ru";

function publish(next: Snapshot): void {
  snapshot = next;
  listeners.forEach((l) => l());
  if (next.data) lookAgainAtNextDeadline(next.data);
}

/**
 * Issue 32: the server's clock now, as the last answer gives it (its `now`, plus the time since it came),
 * so a reminder is dropped when its phase is over even if this device's clock is off.
 */
export function serverNow(s: Snapshot): number {
  return s.data === null ? Date.now() : s.data.now + (Date.now() - s.at);
}

/** The timer that asks again when the soonest deadline of the user's games has passed. */
let deadlineTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Issue 32: what is owed changes when a phase ends, and a reminder falls due at its time, not on the
 * minute's poll: in a 1-minute demo the banner still said «вы ещё не сделали ночной ход» into day 2. Ask
 * again a second after the soonest deadline or next reminder of a running game the user plays or hosts (the
 * server's clock), and at most every 5 s.
 */
function lookAgainAtNextDeadline(data: MyGames): void {
  if (deadlineTimer !== null) clearTimeout(deadlineTimer);
  deadlineTimer = null;
  if (stopPolling === null) return; // nobody is listening
  const deadlines = [...data.active, ...data.hosting]
    .flatMap((g) => [g.deadline, g.nextReminder])
    .filter((d): d is number => d !== null && d > data.now);
  if (deadlines.length === 0) return;
  const wait = Math.max(5_000, Math.min(...deadlines) - data.now + 1_000);
  if (wait > REFRESH_MS) return; // the minute's poll comes first
  deadlineTimer = setTimeout(() => {
    deadlineTimer = null;
    void refreshMyGames();
  }, wait);
}

async function fetchOnce(): Promise<void> {
  const gen = generation;
  try {
    const data = await api.myGames(askedLang);
    if (gen === generation) publish({ data, error: null, at: Date.now() });
  } catch (error) {
    if (gen === generation) publish({ data: snapshot.data, error, at: snapshot.at });
  }
}

/**
 * Fetch «Мои игры» now. A call while a fetch is under way fetches once more after it (what changed in
 * between is then seen); `ifIdle` skips the call instead when a fetch is under way.
 */
export function refreshMyGames(opts: { ifIdle?: boolean } = {}): Promise<void> {
  if (!running) {
    running = fetchOnce().finally(() => {
      running = null;
    });
    return running;
  }
  if (opts.ifIdle) return running;
  queued ??= running.then(() => {
    queued = null;
    return refreshMyGames();
  });
  return queued;
}

function start(): void {
  void refreshMyGames();
  const timer = setInterval(() => void refreshMyGames(), REFRESH_MS);
  const onVisible = () => {
    if (document.visibilityState === "visible") void refreshMyGames({ ifIdle: true });
  };
  document.addEventListener("visibilitychange", onVisible);
  // Issue 32: the user's own move, vote or post may settle a reminder: look again at once.
  const offWrite = onGameWrite(() => void refreshMyGames());
  stopPolling = () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onVisible);
    offWrite();
    if (deadlineTimer !== null) clearTimeout(deadlineTimer);
    deadlineTimer = null;
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) start();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    stopPolling?.();
    stopPolling = null;
    generation++;
    snapshot = { data: null, error: null, at: 0 };
  };
}

/** «Мои игры» as last fetched (null before the first answer), and the last fetch's failure, if it failed. */
export function useMyGames(): Snapshot {
  const { lang } = useLang();
  askedLang = lang;
  // A change of language asks again, so the role names follow it.
  useEffect(() => {
    if (snapshot.data !== null) void refreshMyGames();
  }, [lang]);
  return useSyncExternalStore(subscribe, () => snapshot);
}

/** A clock for the words "через 15 минут", ticking every `ms`. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

// ---- Browser notifications: whether the user turned them on (the settings say; the settings page tells
// this module when it saves), asked only where the browser already allows them.

let notificationsOn: boolean | null = null;
const notificationListeners = new Set<() => void>();

/** The settings page calls this after saving, so an open tab follows the new choice at once. */
export function setBrowserNotifications(on: boolean): void {
  notificationsOn = on;
  notificationListeners.forEach((l) => l());
}

export const notificationsSupported = (): boolean => typeof Notification !== "undefined";
const allowed = (): boolean => notificationsSupported() && Notification.permission === "granted";

function useNotificationsOn(): boolean {
  const on = useSyncExternalStore(
    (l) => {
      notificationListeners.add(l);
      return () => void notificationListeners.delete(l);
    },
    () => notificationsOn,
  );
  useEffect(() => {
    if (notificationsOn !== null || !allowed()) return;
    api.settings().then(
      (s) => {
        if (notificationsOn === null) setBrowserNotifications(s.browserNotifications);
      },
      () => undefined,
    );
  }, []);
  return on === true && allowed();
}

// ---- The keys already dismissed or notified, kept in localStorage (shared by the user's tabs).

function readKeys(name: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(name) ?? "[]");
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}

function addKey(name: string, key: string): string[] {
  const keys = [...readKeys(name).filter((k) => k !== key), key].slice(-KEEP_KEYS);
  try {
    localStorage.setItem(name, JSON.stringify(keys));
  } catch {
    // Storage full or off: the banner is dismissed for this page's life only.
  }
  return keys;
}

// ---- The words.

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const HOUR_MS = 3_600_000;

/** The banner's sentence: "Через 15 минут заканчивается день 2 в игре «…»: вы ещё не проголосовали." */
export function reminderText(
  r: DueReminder,
  now: number,
  t: Dict,
  where: { timeZone: string; lang: string },
): string {
  const left = r.deadline === null ? null : r.deadline - now;
  // A clock far off from the server's (or a deadline passed a moment ago) gets the moment, not a span.
  const inMinutes =
    left === null || left <= 0 || left > 48 * HOUR_MS ? null : left < 60_000 ? 0 : Math.round(left / 60_000);
  const at = r.deadline === null ? null : formatMoment(r.deadline, where.timeZone, where.lang);
  return t.me.reminders.text({
    inMinutes,
    at,
    phase: r.phase,
    title: r.title,
    owed: r.owes === "dayClosing" ? null : lowerFirst(t.me.myGames.owes[r.owes]),
  });
}

function notify(r: DueReminder, body: string, appName: string): void {
  try {
    const n = new Notification(appName, { body, tag: r.key });
    n.onclick = () => {
      window.focus();
      navigate(`/games/${encodeURIComponent(r.gameId)}`);
      n.close();
    };
  } catch {
    // Some browsers (Chrome on Android) show notifications only from a service worker: the banner stays.
  }
}

/** The banners of the due reminders, at the top of every page of a signed-in user. */
export default function Reminders() {
  const t = useT();
  const { lang } = useLang();
  const { timeZone } = useSession();
  const snap = useMyGames();
  const { data, at } = snap;
  const [dismissed, setDismissed] = useState<readonly string[]>(() => readKeys(DISMISSED));
  // "Через 5 минут" as of the latest answer or tick, whichever is later.
  const now = Math.max(useNow(30_000), at);
  const notifyOn = useNotificationsOn();
  const route = useRoute();
  // Issue 32: a reminder whose phase is over (its deadline passed, by the server's clock) is stale.
  const due = (data?.reminders ?? []).filter(
    (r) => !dismissed.includes(r.key) && (r.deadline === null || r.deadline > serverNow(snap)),
  );
  const where = { timeZone, lang };

  // A browser notification once per reminder key, across the user's tabs.
  useEffect(() => {
    // Quiet hours (the server reads them in the user's time zone): the banners show, the notification waits.
    if (!notifyOn || !data || data.quiet) return;
    for (const r of data.reminders) {
      if (readKeys(NOTIFIED).includes(r.key) || readKeys(DISMISSED).includes(r.key)) continue;
      addKey(NOTIFIED, r.key);
      notify(r, reminderText(r, Date.now(), t, { timeZone, lang }), t.appName);
    }
  }, [data, notifyOn, t, timeZone, lang]);

  // While a reminder shows, each change of page looks again: the vote just cast may have settled it.
  const showing = due.length > 0;
  const path = route.page === "game" ? `${route.id}/${route.tab ?? ""}` : route.page;
  useEffect(() => {
    if (showing) void refreshMyGames({ ifIdle: true });
  }, [path, showing]);

  const dismiss = useCallback((key: string) => {
    setDismissed(addKey(DISMISSED, key));
    // The focused button goes with its banner: focus moves to the page's content, not to nowhere.
    document.getElementById("main")?.focus();
  }, []);

  return (
    <div aria-live="polite" className="reminders-live">
      {showing && (
        <section className="reminders" aria-label={t.me.reminders.label}>
          {due.map((r) => (
            <Banner key={r.key} reminder={r} text={reminderText(r, now, t, where)} onDismiss={dismiss} />
          ))}
        </section>
      )}
    </div>
  );
}

function Banner(props: { reminder: DueReminder; text: string; onDismiss: (key: string) => void }) {
  const t = useT();
  const r = props.reminder;
  const w = t.me.reminders;
  return (
    <div className="reminder notice">
      <p className="reminder-text">{props.text}</p>
      <div className="row reminder-actions">
        <Link href={`/games/${encodeURIComponent(r.gameId)}`} className="btn small">
          {w.open}
          <span className="sr-only">{w.openOf(r.title)}</span>
        </Link>
        <button type="button" className="small" onClick={() => props.onDismiss(r.key)}>
          {w.dismiss}
          <span className="sr-only">{w.dismissOf(r.title)}</span>
        </button>
      </div>
    </div>
  );
}
