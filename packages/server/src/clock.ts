/** The server's only source of time: the system clock in production, a fake one in tests. */
export interface Clock {
  now(): number;
  /** Call `fn` once at (or soon after) `at`; returns a cancel function. */
  at(at: number, fn: () => void): () => void;
}

/** setTimeout holds at most about 24.8 days; longer waits are re-armed. */
const MAX_WAIT = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  at(at, fn) {
    let timer: NodeJS.Timeout;
    const arm = (): void => {
      const wait = at - Date.now();
      timer = setTimeout(wait > MAX_WAIT ? arm : fn, Math.max(0, Math.min(wait, MAX_WAIT)));
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
};
