/**
 * One run of a read at a time, shared by everyone who asks while it runs, except that a caller who arrives
 * during a run waits for the next one: the run under way may have started before what the caller knows of
 * (a write acknowledged by another instance) was committed.
 */
export class Coalesced {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  get idle(): boolean {
    return this.running === null && this.queued === null;
  }

  run(work: () => Promise<void>): Promise<void> {
    if (!this.running) {
      const current = work().finally(() => {
        if (this.running === current) this.running = null;
      });
      this.running = current;
      return current;
    }
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.run(work);
      });
    return this.queued;
  }
}
