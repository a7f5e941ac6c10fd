import type { Logger } from "../log";

export interface BatchWriterOptions<T> {
  /** Writes a batch in one transaction (the caller's `db.tx`). */
  write: (items: T[]) => Promise<void>;
  /** Flush at least this often (ms). */
  intervalMs?: number;
  /** Flush early once this many items wait. */
  maxItems?: number;
  log?: Logger;
}

/**
 * Queues rows in memory and writes them in one transaction per tick instead of one write each: SQLite does
 * thousands of rows per transaction in the time one fsync'd single write takes, and PostgreSQL one round trip.
 * One flush runs at a time; `stop()` writes what is left.
 */
export class BatchWriter<T> {
  private queue: T[] = [];
  /** Armed while rows wait (not a standing interval: an idle server should not wake every second for nothing). */
  private timer: Timer | undefined;
  private started = false;
  private failures = 0;
  /** Callers waiting for what is queued now to be committed (see `committed`). */
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private soon: ReturnType<typeof setImmediate> | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: BatchWriterOptions<T>) {}

  get pending(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    if (this.queue.length >= (this.options.maxItems ?? 5000)) void this.flush();
    else this.arm();
  }

  start(): void {
    this.started = true;
    if (this.queue.length > 0) this.arm();
  }

  /** A flush within the interval; rows a failed write kept are tried again one interval later. */
  private arm(): void {
    if (!this.started || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().then(() => this.queue.length > 0 && this.arm());
    }, this.options.intervalMs ?? 1000);
  }

  /**
   * Resolves once everything queued so far is committed: for a caller that must not acknowledge before its rows are
   * durable (an agent's report: a 2xx means "stored"). The write happens on the next turn of the event loop, so the
   * reports that arrive together still share one transaction (group commit), for a wait of a millisecond, not a tick.
   */
  committed(): Promise<void> {
    if (this.queue.length === 0 && !this.running) return Promise.resolve();
    if (this.queue.length === 0) return this.running!.then(() => {});
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.soon ??= setImmediate(() => {
      this.soon = undefined;
      void this.flush();
    });
    return done;
  }

  /** Writes everything queued; resolves when done (a failed write is logged and kept for the next flush). */
  flush(): Promise<void> {
    this.running ??= this.drain().finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      const waiters = this.waiters;
      this.queue = [];
      this.waiters = [];
      try {
        await this.options.write(batch);
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
        return;
      }
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.soon) clearImmediate(this.soon);
    this.soon = undefined;
    await this.running;
    await this.flush();
  }
}
