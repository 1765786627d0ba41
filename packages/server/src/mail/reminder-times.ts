import { offsetMs } from "@forum-mafia/protocol";

/**
 * Issue 15: when a phase's reminders fall, one per offset ("2h", "15m"), as times (epoch ms), earliest
 * first. An offset longer than half the phase is cut to half of it, so a phase shorter than the offsets
 * still gets one reminder at its midpoint (a 2-minute demo day with the defaults: one, at 1 minute
 * before the deadline), and offsets that come to the same time are one reminder.
 */
export function reminderTimes(phaseStart: number, deadline: number, offsets: readonly string[]): number[] {
  const length = deadline - phaseStart;
  if (length <= 0) return [];
  const times = new Set<number>();
  for (const o of offsets) times.add(deadline - Math.min(offsetMs(o), Math.floor(length / 2)));
  return [...times].sort((a, b) => a - b);
}
