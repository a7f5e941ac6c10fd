import { repeatMerging, type Logger, type RepeatLog } from "../log";

export interface BatchWriterOptions<T> {
  /** Writes a batch in one transaction (the caller's `db.tx`). */
  write: (items: T[]) => Promise<void>;
  /** Flush at least this often (ms). */
  intervalMs?: number;
  /** Flush early once this many items wait. */
  maxItems?: number;
  /**
   * How long a write someone waits for (`committed()`) holds for more rows: 0 (the default) writes on the next turn of
   * the event loop. A few milliseconds let callers arriving apart share one commit (see the agents' writer).
   */
  commitWindowMs?: number;
  log?: Logger;
}

/** Failed writes in a row after which a batch's rows are no longer retried (so an outage cannot grow the queue for ever). */
const MAX_TRIES = 5;

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
  /** Failed writes in a row of the rows now queued: after MAX_TRIES they are no longer retried. */
  private failures = 0;
  /** Queued rows pushed since the last `committed()`: nobody waits for them, so nobody would send them again. */
  private unwaited = 0;
  /** Since the writes last succeeded: failed writes, rows no longer retried, and of those, rows nobody resends. */
  private outage = { failures: 0, notRetried: 0, lost: 0 };
  /** A database outage fails every write alike: one line and a count, not one line a second. */
  private readonly errors: RepeatLog | undefined;
  /** Callers waiting for what is queued now to be committed (see `committed`). */
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  /** The waiters of the batch being written now (undefined between writes). */
  private inFlight: { resolve: () => void; reject: (e: unknown) => void }[] | undefined;
  /** The write that waiters wait for, armed (the next event-loop turn, or the end of the commit window). */
  private soon: { cancel: () => void } | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: BatchWriterOptions<T>) {
    this.errors = options.log && repeatMerging(options.log, "error");
  }

  get pending(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    this.unwaited++;
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
   * durable (an agent's report: a 2xx means "stored"). The write happens on the next turn of the event loop (or at the
   * end of the commit window), so the reports that arrive together share one transaction (group commit), for a wait of
   * a millisecond (or the window), not a tick.
   */
  committed(): Promise<void> {
    // Rows already on their way (a full queue starts its write at once) are in the batch in flight: its outcome is
    // this caller's too, failure included — never "stored" for rows a failed write holds.
    const inFlight = this.inFlight && new Promise<void>((resolve, reject) => this.inFlight!.push({ resolve, reject }));
    if (this.queue.length === 0) return inFlight ?? Promise.resolve();
    this.unwaited = 0;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.soon ??= this.armCommit();
    return inFlight ? Promise.all([inFlight, done]).then(() => {}) : done;
  }

  private armCommit(): { cancel: () => void } {
    const write = () => {
      this.soon = undefined;
      void this.flush();
    };
    const window = this.options.commitWindowMs ?? 0;
    if (window > 0) {
      const timer = setTimeout(write, window);
      return { cancel: () => clearTimeout(timer) };
    }
    const immediate = setImmediate(write);
    return { cancel: () => clearImmediate(immediate) };
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
      const unwaited = Math.min(this.unwaited, batch.length);
      this.queue = [];
      this.waiters = [];
      this.inFlight = waiters;
      this.unwaited = 0;
      try {
        await this.options.write(batch);
        this.inFlight = undefined;
        this.failures = 0;
        for (const w of waiters) w.resolve();
        if (this.outage.failures > 0) this.errors?.end("batch writes succeed again", { ...this.outage });
        this.outage = { failures: 0, notRetried: 0, lost: 0 };
      } catch (e) {
        this.inFlight = undefined;
        // A waiter is told at once (its caller answers "try again", and an agent sends its samples again) rather
        // than kept for a retry it cannot see.
        for (const w of waiters) w.reject(e);
        this.failed(e, batch, unwaited);
        return;
      }
    }
  }

  /**
   * Keeps a failed batch's rows for the next tick rather than lose them (a busy disk, a database restarting) — but
   * not for ever: after MAX_TRIES failures in a row they are no longer retried here. Every sender that waited was
   * told each time, so only rows nobody waited for are lost, and the log says which happened.
   */
  private failed(e: unknown, batch: T[], unwaited: number) {
    this.outage.failures++;
    const error = String(e);
    if (++this.failures < MAX_TRIES) {
      this.queue = batch.concat(this.queue);
      this.unwaited += unwaited;
      this.errors?.report("batch write failed; its rows are kept and tried again", { error, rows: batch.length, ...this.outage }, error);
      return;
    }
    this.failures = 0;
    this.outage.notRetried += batch.length;
    this.outage.lost += unwaited;
    if (unwaited > 0) {
      // A loss is never folded into a count.
      this.options.log?.error(`batch write failed ${MAX_TRIES} times in a row; dropped rows nobody will send again`, { error, rows: batch.length, lost: unwaited });
    } else {
      this.errors?.report(
        `batch write failed ${MAX_TRIES} times in a row; its rows are no longer retried here (nothing lost: their senders were told, and send them again)`,
        { error, rows: batch.length, ...this.outage },
        error,
      );
    }
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.soon?.cancel();
    this.soon = undefined;
    await this.running;
    await this.flush();
  }
}
