import { TZDate } from "@date-fns/tz";
import type { Phase } from "@forum-mafia/engine";
import type { Duration, GameSettings } from "@forum-mafia/protocol";

export const durationMs = (d: Duration): number => d.amount * (d.unit === "hours" ? 3_600_000 : 60_000);

/**
 * When a phase that starts at `start` ends. A night lasts its length. A day lasts its length, and when the
 * GM has set a daily deadline time ("22:00" in the game's time zone) it ends at the occurrence of that time
 * nearest to the end of its length, but never before half its length has passed: a day whose start slipped
 * because the night's results came out late still ends at the usual hour.
 */
export function phaseDeadline(
  settings: Pick<GameSettings, "night" | "day" | "dayDeadline" | "timeZone">,
  phase: Phase,
  start: number,
): number {
  const length = durationMs(phase.kind === "night" ? settings.night : settings.day);
  const plain = start + length;
  if (phase.kind === "night" || settings.dayDeadline === null) return plain;
  const [hh, mm] = settings.dayDeadline.split(":").map(Number) as [number, number];
  const local = new TZDate(plain, settings.timeZone);
  let best: number | null = null;
  for (const shift of [-1, 0, 1]) {
    const at = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + shift,
      hh,
      mm,
      0,
      settings.timeZone,
    ).getTime();
    if (at < start + length / 2) continue;
    if (best === null || Math.abs(at - plain) < Math.abs(best - plain)) best = at;
  }
  return best ?? plain;
}

/** Whether a time zone name is one the runtime knows (IANA, e.g. "Europe/Moscow"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
