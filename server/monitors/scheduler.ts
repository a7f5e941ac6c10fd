// The check scheduler: one timer over a min-heap of due times, a fixed cadence per monitor, bounded concurrency.
import { silentLogger, type Logger } from "../log";
import { BucketHistogram, LATENESS_BUCKETS } from "../metrics/histogram";

/** Time and timers, replaceable in tests. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A small, stable 32-bit hash of a monitor id: spreads monitors over their interval the same way on every start. */
export function spread(id: number): number {
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Slots fall on multiples of this: the monitors due in one tick share one wake-up of the process instead of one each.
 * A wake-up costs about what the request does (the runtime's floor, docs/benchmarks.md), and 600 phases a minute still spread
 * 100 000 monitors evenly.
 */
export const TICK_MS = 100;

/**
 * A monitor's offset in its interval: its spread, on the tick grid. Intervals are whole seconds, so with a phase on
 * the grid every slot is on it too (20 s and 1 s monitors share the wake-ups of the 1-minute ones).
 */
export function phaseOf(id: number, intervalMs: number): number {
  return (spread(id) % Math.max(1, Math.floor(intervalMs / TICK_MS))) * TICK_MS;
}

/** The first time at or after `t` on the tick grid. */
const onTick = (t: number) => Math.ceil(t / TICK_MS) * TICK_MS;

/** The first slot at or after `t` of the grid every `intervalMs` offset by `phase`. */
function gridSlot(t: number, phase: number, intervalMs: number): number {
  const slot = Math.floor((t - phase) / intervalMs) * intervalMs + phase;
  return slot < t ? slot + intervalMs : slot;
}

/** The first slot at or after `t` of a monitor's grid: every `intervalMs`, offset by its phase. */
export function slotAtOrAfter(t: number, id: number, intervalMs: number): number {
  return gridSlot(t, phaseOf(id, intervalMs), intervalMs);
}

// ── Lateness histogram ──────────────────────────────────────────────────────────────────────────────────────────

/** Bucket lower bounds: 1 ms steps below 1 s, 10 ms below 10 s, 1 s below 10 min, then one overflow bucket. */
function bucketOf(ms: number): number {
  const v = Math.max(0, Math.floor(ms));
  if (v < 1000) return v;
  if (v < 10_000) return v - (v % 10);
  if (v < 600_000) return v - (v % 1000);
  return 600_000;
}

/** Counts per bucket; percentiles report a bucket's lower bound. Mergeable and subtractable (for windows). */
export class LatencyHistogram {
  readonly counts = new Map<number, number>();
  total = 0;
  max = 0;

  record(ms: number) {
    const b = bucketOf(ms);
    this.counts.set(b, (this.counts.get(b) ?? 0) + 1);
    this.total++;
    if (ms > this.max) this.max = ms;
  }

  percentile(p: number): number | null {
    if (this.total === 0) return null;
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (const b of [...this.counts.keys()].sort((a, c) => a - c)) {
      seen += this.counts.get(b)!;
      if (seen >= rank) return b;
    }
    return this.max;
  }

  /** Sparse form: [bucket ms, count] pairs in ascending order. */
  toJSON(): [number, number][] {
    return [...this.counts.entries()].sort((a, b) => a[0] - b[0]);
  }

  static from(pairs: [number, number][]): LatencyHistogram {
    const h = new LatencyHistogram();
    for (const [b, n] of pairs) {
      h.counts.set(b, n);
      h.total += n;
      if (n > 0 && b > h.max) h.max = b;
    }
    return h;
  }

  /** This minus an earlier snapshot of the same histogram. */
  minus(earlier: LatencyHistogram): LatencyHistogram {
    const h = new LatencyHistogram();
    for (const [b, n] of this.counts) {
      const d = n - (earlier.counts.get(b) ?? 0);
      if (d > 0) {
        h.counts.set(b, d);
        h.total += d;
        if (b > h.max) h.max = b;
      }
    }
    return h;
  }
}

// ── Scheduler ───────────────────────────────────────────────────────────────────────────────────────────────────

export interface SchedulerOptions {
  /** Runs one check of a monitor; `signal` aborts when the scheduler stops. Should not throw. */
  run: (id: number, signal: AbortSignal) => Promise<unknown>;
  clock?: Clock;
  /** Checks running at once; more wait in a FIFO queue. */
  concurrency?: number;
  /** A check whose regular slot comes within this long after an immediate ("kick") run skips that slot. */
  kickGapMs?: number;
  /** How long a minute of the intervals is: 60 000, shorter only in real-clock tests of the wired server. */
  minuteMs?: number;
  log?: Logger;
}

interface Job {
  id: number;
  intervalMs: number;
  /** Where on its interval the job's slots fall: the id's phase, or (retrying) one interval after the failure. */
  phase: number;
  /** On the retry grid (schedule's `retry`). */
  retry: boolean;
  /** Bumped on every reschedule: heap and queue entries of an older generation are dropped when reached. */
  gen: number;
  busy: boolean;
  /** When this node last started a check of it (0: not since it was scheduled here). */
  startedAt: number;
}

interface Entry {
  due: number;
  id: number;
  gen: number;
  /** A one-off immediate run (create, resume, edit): it does not schedule a next slot. */
  kick: boolean;
}

export interface SchedulerStats {
  monitors: number;
  running: number;
  queued: number;
  heap: number;
  /** Checks started: scheduled (slots) and immediate (create/edit/resume). */
  started: number;
  kicks: number;
  completed: number;
  /** Slots skipped because the previous check of that monitor was still running or queued. */
  skippedBusy: number;
  /** Slots skipped because the scheduler fell more than an interval behind (no bursts). */
  skippedLate: number;
  /** Start time minus scheduled time of scheduled checks, ms. */
  lateness: { count: number; p50: number | null; p99: number | null; max: number; histogram: [number, number][] };
}

/**
 * Each monitor runs on its own fixed grid: slot k is `phase + k·interval`, the phase a hash of its id (so restarts
 * spread the first runs over the interval and then resume the same grid). The next slot is the previous slot plus
 * the interval, however long the check took; if the scheduler falls more than an interval behind it skips ahead
 * instead of bursting. One timer serves the whole heap.
 */
export function createScheduler(options: SchedulerOptions) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const kickGap = options.kickGapMs ?? 5000;
  const minuteMs = options.minuteMs ?? 60_000;
  let concurrency = Math.max(1, options.concurrency ?? 200);

  const jobs = new Map<number, Job>();
  const heap: Entry[] = [];
  /** Checks waiting for a free slot, with the job they were queued for (a deleted job's entries are dropped). */
  const ready: { job: Job; entry: Entry }[] = [];
  let readyHead = 0;
  let running = 0;
  let timer: unknown = null;
  let timerDue = Infinity;
  let started = false;
  let abort = new AbortController();
  let idle: (() => void) | null = null;
  let generations = 0;
  /** The check of each monitor running now (a node giving a monitor up waits for it before another takes it). */
  const inFlight = new Map<number, Promise<unknown>>();
  const counters = { started: 0, kicks: 0, completed: 0, skippedBusy: 0, skippedLate: 0 };
  const lateness = new LatencyHistogram();
  // The same lateness in fixed Prometheus buckets, seconds (GET /metrics).
  const latenessSeconds = new BucketHistogram(LATENESS_BUCKETS);

  // Binary min-heap on `due`.
  function push(e: Entry) {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p].due <= e.due) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = e;
    if (started && e.due < timerDue) arm();
  }

  function pop(): Entry {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && heap[r].due < heap[l].due ? r : l;
        if (heap[c].due >= last.due) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  function arm() {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    timerDue = Infinity;
    if (!started || heap.length === 0) return;
    timerDue = heap[0].due;
    timer = clock.setTimeout(fire, Math.max(0, timerDue - clock.now()));
  }

  function fire() {
    timer = null;
    timerDue = Infinity;
    const now = clock.now();
    while (heap.length > 0 && heap[0].due <= now) {
      const e = pop();
      const job = jobs.get(e.id);
      if (!job || job.gen !== e.gen) continue;
      if (!e.kick) {
        let next = e.due + job.intervalMs;
        if (next <= now) {
          // More than an interval behind: skip the missed slots, back onto the grid.
          next = gridSlot(now + 1, job.phase, job.intervalMs);
          counters.skippedLate += Math.round((next - e.due) / job.intervalMs) - 1;
        }
        push({ due: next, id: job.id, gen: job.gen, kick: false });
      }
      if (job.busy) {
        if (!e.kick) counters.skippedBusy++;
        continue;
      }
      job.busy = true;
      ready.push({ job, entry: e });
    }
    pump();
    arm();
  }

  function pump() {
    while (started && running < concurrency && readyHead < ready.length) {
      const { job, entry } = ready[readyHead++];
      // Paused or deleted while queued. (Edited is fine: the check reads the current configuration.)
      if (jobs.get(job.id) !== job) continue;
      launch(job, entry);
    }
    if (readyHead > 1024 && readyHead * 2 > ready.length) {
      ready.splice(0, readyHead);
      readyHead = 0;
    }
  }

  function launch(job: Job, e: Entry) {
    running++;
    job.startedAt = clock.now();
    counters.started++;
    if (e.kick) counters.kicks++;
    else {
      const late = clock.now() - e.due;
      lateness.record(late);
      latenessSeconds.observe(late / 1000);
    }
    const signal = abort.signal;
    const done = Promise.resolve()
      .then(() => options.run(job.id, signal))
      .catch((err) => log.error("check failed unexpectedly", { monitorId: job.id, error: String((err as Error)?.stack ?? err) }))
      .finally(() => {
        running--;
        counters.completed++;
        job.busy = false;
        if (inFlight.get(job.id) === done) inFlight.delete(job.id);
        if (running === 0 && idle) idle();
        pump();
      });
    inFlight.set(job.id, done);
  }

  /**
   * Puts a job on its grid, every `intervalSeconds` (a minute being `minuteMs`). `kick` also runs it once now (its
   * regular slot then comes at least kickGap, or one interval if shorter, later). `waitSeconds`: no regular slot
   * sooner than that. `retry`: the grid starts one interval from now instead of at the id's phase (a failing check is
   * retried one retry interval after it, as Uptime Kuma does).
   */
  function schedule(id: number, intervalSeconds: number, { kick = false, waitSeconds = 0, retry = false } = {}) {
    const ms = (seconds: number) => Math.round((seconds * minuteMs) / 60);
    const intervalMs = Math.max(1, ms(intervalSeconds));
    const existing = jobs.get(id);
    const job: Job = existing ?? { id, intervalMs, phase: 0, retry, gen: 0, busy: false, startedAt: 0 };
    job.intervalMs = intervalMs;
    job.retry = retry;
    // From one counter for all jobs: entries an unscheduled job left in the heap never match its next life's.
    job.gen = ++generations;
    if (!existing) jobs.set(id, job);
    const now = clock.now();
    if (retry) {
      const first = onTick(now + intervalMs);
      job.phase = first % intervalMs;
      push({ due: first, id, gen: job.gen, kick: false });
      return;
    }
    job.phase = phaseOf(id, intervalMs);
    if (kick) push({ due: now, id, gen: job.gen, kick: true });
    const earliest = now + Math.max(ms(waitSeconds), kick ? Math.min(kickGap, intervalMs) : 0);
    push({ due: gridSlot(earliest, job.phase, intervalMs), id, gen: job.gen, kick: false });
  }

  return {
    schedule,

    /** Stops scheduling a monitor (paused or deleted). A check already running finishes. */
    unschedule(id: number) {
      jobs.delete(id);
    },

    /** When a monitor's next regular check is due (tests, diagnostics). */
    nextDue(id: number): number | undefined {
      const job = jobs.get(id);
      if (!job) return undefined;
      let best: number | undefined;
      for (const e of heap) if (e.id === id && e.gen === job.gen && !e.kick && (best === undefined || e.due < best)) best = e.due;
      return best;
    },

    has: (id: number) => jobs.has(id),

    /** Whether a monitor is on its retry grid (schedule's `retry`). */
    retrying: (id: number) => jobs.get(id)?.retry ?? false,

    /** Whether a check of this monitor runs now. */
    running: (id: number) => inFlight.has(id),

    /** When this node last started a check of a scheduled monitor (0: none since it was scheduled here). */
    lastStarted: (id: number) => jobs.get(id)?.startedAt ?? 0,

    /** Resolves once no check of these monitors runs (those running now have finished). */
    async settled(ids: Iterable<number>): Promise<void> {
      const running: Promise<unknown>[] = [];
      for (const id of ids) {
        const p = inFlight.get(id);
        if (p) running.push(p);
      }
      await Promise.all(running);
    },

    /** Lateness of scheduled checks in fixed buckets (read-only: /metrics exposes it as a histogram). */
    latenessHistogram: (): Readonly<BucketHistogram> => latenessSeconds,

    setConcurrency(n: number) {
      concurrency = Math.max(1, n);
      pump();
    },

    start() {
      if (started) return;
      started = true;
      abort = new AbortController();
      arm();
      pump();
    },

    /**
     * Stops firing; waits up to `graceMs` for running checks to finish, then aborts them (their results are not
     * recorded by the caller). Queued checks are dropped; the schedule stays, so start() resumes it.
     */
    async stop(graceMs = 3000) {
      started = false;
      arm();
      for (let i = readyHead; i < ready.length; i++) ready[i].job.busy = false;
      ready.length = 0;
      readyHead = 0;
      if (running > 0) {
        const drained = new Promise<void>((resolve) => (idle = resolve));
        const timeout = new Promise<void>((resolve) => {
          const t = setTimeout(resolve, graceMs);
          drained.then(() => clearTimeout(t));
        });
        await Promise.race([drained, timeout]);
        abort.abort();
        if (running > 0) await Promise.race([drained, new Promise((r) => setTimeout(r, 1000))]);
        idle = null;
      }
    },

    stats(): SchedulerStats {
      return {
        monitors: jobs.size,
        running,
        queued: ready.length - readyHead,
        heap: heap.length,
        ...counters,
        lateness: {
          count: lateness.total,
          p50: lateness.percentile(50),
          p99: lateness.percentile(99),
          max: lateness.max,
          histogram: lateness.toJSON(),
        },
      };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
