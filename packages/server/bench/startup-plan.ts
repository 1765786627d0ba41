/** What one measured start (startup-child.ts) reports to the start-up bench (startup.bench.ts). */
export interface StartupSample {
  /** Opening the store (SQLite file, or PostgreSQL connection and schema check). */
  readonly openMs: number;
  /** createServer: the games, the scheduler, the HTTP app. */
  readonly createMs: number;
  /** From createServer's end until GET /api/health answered 200 (listen and the first request). */
  readonly listenMs: number;
  /** From before the store was opened until /api/health answered. */
  readonly totalMs: number;
  /** process.memoryUsage() right after the answer. */
  readonly rssMb: number;
  readonly heapMb: number;
  /** heapUsed after a full collection (null without --expose-gc). */
  readonly heapAfterGcMb: number | null;
  /** Rooms built in memory at that moment (Games.rooms). */
  readonly rooms: number;
}
