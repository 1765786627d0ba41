import type { Clock } from "../clock.ts";
import type { Games } from "../log/games.ts";
import type { Room } from "../log/room.ts";

/**
 * Advances phases at their deadlines. A deadline lives in the game's log (worked out from the entries), so
 * after a restart `armAll` finds it again, and a deadline that passed while the server was down fires at once.
 *
 * Issue 20: of the instances on one database only the leader (Cluster.onLeader) keeps timers. When it dies,
 * the next leader arms every game from the log as it stands, so what fell due meanwhile fires at once; and
 * `Games.deadlinePassed` decides against the log, so a deadline two instances both fire (while leadership
 * changes hands) closes the phase once.
 */
export class Scheduler {
  private readonly timers = new Map<string, { at: number; cancel: () => void }>();
  private stopped = false;
  private leading = true;

  /** Issue 20: this instance leads (arm every game) or no longer does (drop every timer). */
  async lead(leader: boolean, games: Games): Promise<void> {
    this.leading = leader;
    if (!leader) {
      for (const t of this.timers.values()) t.cancel();
      this.timers.clear();
      return;
    }
    await games.freshAll();
    if (this.leading) this.armAll(games);
  }

  constructor(
    private readonly clock: Clock,
    private readonly fire: (gameId: string) => Promise<void>,
  ) {}

  armAll(games: Games): void {
    for (const room of games.rooms.values()) this.arm(room);
  }

  arm(room: Room): void {
    // A room set aside is replaced by one rebuilt from its log, which is armed when it is back (the timers
    // are by game id, so the old room's timer, if any, fires for the new one).
    if (this.stopped || !this.leading || room.retired) return;
    const at = room.status === "running" && !room.paused ? room.deadline : null;
    const current = this.timers.get(room.id);
    if (current && current.at === at) return;
    current?.cancel();
    this.timers.delete(room.id);
    if (at === null) return;
    const cancel = this.clock.at(at, () => {
      this.timers.delete(room.id);
      this.fire(room.id)
        .catch((error: unknown) => {
          console.error(`game ${room.id}: the deadline could not be applied: ${String(error)}`);
        })
        // Armed again from the room as it now stands (a timer that fired early waits for the rest).
        .finally(() => this.arm(room));
    });
    this.timers.set(room.id, { at, cancel });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }
}
