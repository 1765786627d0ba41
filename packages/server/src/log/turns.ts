import { StoreUnavailable } from "../stores/store.ts";

/** A command's turn in its game: `ready` once the game's command before it has ended; `leave` when done. */
export interface Turn {
  readonly ready: Promise<void>;
  readonly leave: () => void;
}

/**
 * Issue 20: one command at a time per game, on a store other instances write too (games.ts, `commit`): the
 * last command queued for each game, which the next one waits for.
 */
export class Turns {
  private readonly last = new Map<string, Promise<void>>();

  /** Every command queued (`Games.idle`). */
  pending(): Promise<void>[] {
    return [...this.last.values()];
  }

  /**
   * A turn in game `id`, taken now (queued behind the game's last command). Issue 28: the turn is waited for
   * within the store's time limit `limitMs`: behind a command stuck on the store, a queue of commands is
   * answered 503 (nothing of them written) instead of one limit after another.
   */
  enter(id: string, limitMs: number | undefined): Turn {
    const previous = this.last.get(id) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const turn = previous.then(() => mine);
    this.last.set(id, turn);
    const leave = (): void => {
      done();
      if (this.last.get(id) === turn) this.last.delete(id);
    };
    return { ready: within(previous, limitMs), leave };
  }
}

/** Issue 28: `previous` (the game's last command here), or 503 once the store's time limit has passed. */
function within(previous: Promise<void>, limit: number | undefined): Promise<void> {
  if (limit === undefined) return previous;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StoreUnavailable(`the game's previous command did not end within ${limit} ms`, false)),
      limit,
    );
    void previous.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
