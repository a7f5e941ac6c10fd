import type { Logger } from "../log";

export interface BatchWriterOptions<T> {
  /** Writes a batch; called inside one transaction by the caller-supplied `transaction`. */
  write: (items: T[]) => void;
  /** Runs `fn` in one database transaction. */
  transaction: (fn: () => void) => void;
  /** Flush at least this often (ms). */
  intervalMs?: number;
  /** Flush early once this many items wait. */
  maxItems?: number;
  log?: Logger;
}

/**
 * Queues rows in memory and writes them in one transaction per tick instead of one write each: SQLite does
 * thousands of rows per transaction in the time one fsync'd single write takes. `stop()` writes what is left.
 */
export class BatchWriter<T> {
  private queue: T[] = [];
  private timer: Timer | undefined;
  private failures = 0;
  /** Callers waiting for what is queued now to be committed (see `committed`). */
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private soon: ReturnType<typeof setImmediate> | undefined;

  constructor(private readonly options: BatchWriterOptions<T>) {}

  get pending(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= (this.options.maxItems ?? 5000)) this.flush();
  }

  start(): void {
    this.timer ??= setInterval(() => this.flush(), this.options.intervalMs ?? 1000);
  }

  /**
   * Resolves once everything queued so far is committed: for a caller that must not acknowledge before its rows are
   * durable (an agent's report: a 2xx means "stored"). The write happens on the next turn of the event loop, so the
   * reports that arrive together still share one transaction (group commit), for a wait of a millisecond, not a tick.
   */
  committed(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.soon ??= setImmediate(() => {
      this.soon = undefined;
      this.flush();
    });
    return done;
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    const waiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    try {
      this.options.transaction(() => this.options.write(batch));
      this.failures = 0;
      for (const w of waiters) w.resolve();
    } catch (e) {
      // A waiter is told at once (its caller answers "try again") rather than kept for a retry it cannot see.
      for (const w of waiters) w.reject(e);
      // Keep the rows for the next tick rather than lose them (a busy disk, say) — but a batch that keeps failing
      // is a bug, and must not grow the queue for ever.
      if (++this.failures < 5) this.queue = batch.concat(this.queue);
      this.options.log?.error(this.failures < 5 ? "batch write failed; will retry" : "batch write failed 5 times; dropped", {
        error: String(e),
        rows: batch.length,
      });
      if (this.failures >= 5) this.failures = 0;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.soon) clearImmediate(this.soon);
    this.soon = undefined;
    this.flush();
  }
}
