import type { Phase } from "@forum-mafia/protocol";
import type { Dict } from "./i18n/index.tsx";

/** "2 ч 05 мин" / "4 мин 09 с": a countdown that stays short on a phone. */
export function formatLeft(ms: number, t: Dict): string {
  if (ms <= 0) return t.countdown.over;
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const u = t.units;
  if (d > 0) return `${d} ${u.d} ${h} ${u.h}`;
  if (h > 0) return `${h} ${u.h} ${String(m).padStart(2, "0")} ${u.m}`;
  return `${m} ${u.m} ${String(sec).padStart(2, "0")} ${u.s}`;
}

/**
 * A moment in the viewer's time zone, e.g. "30 нояб., 21:00". A thread formats one for every post that
 * scrolls into view, so one formatter per zone and language is kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
export function formatMoment(at: number, timeZone: string, lang: string): string {
  const key = `${timeZone}|${lang}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang === "ru" ? "ru-RU" : "en-GB", {
      timeZone,
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
    });
    formatters.set(key, f);
  }
  return f.format(at);
}

export function phaseName(phase: Phase, t: Dict): string {
  return phase.kind === "night" ? t.phase.night(phase.number) : t.phase.day(phase.number);
}
