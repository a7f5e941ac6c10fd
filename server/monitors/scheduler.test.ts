import { describe, expect, test } from "bun:test";
import { fakeClock } from "../test-support";
import { createScheduler, LatencyHistogram, phaseOf, slotAtOrAfter, TICK_MS } from "./scheduler";

const MIN = 60_000;

/** A scheduler over a fake clock whose checks record (id, start time) and take `takes(id)` ms of fake time. */
function setup({ concurrency = 200, takes = (_id: number): number => 0 }: { concurrency?: number; takes?: (id: number) => number } = {}) {
  const clock = fakeClock();
  const runs: { id: number; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const scheduler = createScheduler({
    clock,
    concurrency,
    run: (id) => {
      runs.push({ id, at: clock.now() });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const ms = takes(id);
      const done = () => inFlight--;
      if (ms === 0) return Promise.resolve().then(done);
      return new Promise<void>((resolve) => clock.setTimeout(() => (done(), resolve()), ms));
    },
  });
  const timesOf = (id: number) => runs.filter((r) => r.id === id).map((r) => r.at);
  return { clock, scheduler, runs, timesOf, maxInFlight: () => maxInFlight };
}

describe("grid", () => {
  test("slots are spread by id, stable, and every interval apart", () => {
    const t = Date.UTC(2026, 0, 1);
    for (const id of [1, 2, 3, 999, 123456]) {
      const s = slotAtOrAfter(t, id, MIN);
      expect(s).toBeGreaterThanOrEqual(t);
      expect(s).toBeLessThan(t + MIN);
      expect(slotAtOrAfter(s, id, MIN)).toBe(s);
      expect(slotAtOrAfter(s + 1, id, MIN)).toBe(s + MIN);
      expect((s - phaseOf(id, MIN)) % MIN).toBe(0);
      expect(s % TICK_MS).toBe(0); // on the tick grid: monitors due in one tick share a wake-up
    }
  });

  test("10 000 monitors' first runs spread over the interval: no second holds more than a few", () => {
    const t = Date.UTC(2026, 0, 1, 0, 0, 0, 0);
    const perSecond = new Array(60).fill(0);
    for (let id = 1; id <= 10_000; id++) perSecond[Math.floor((slotAtOrAfter(t, id, MIN) - t) / 1000)]++;
    // Perfectly even would be ~167 per second.
    expect(Math.max(...perSecond)).toBeLessThan(230);
    expect(Math.min(...perSecond)).toBeGreaterThan(110);
  });
});

describe("scheduler", () => {
  test("monitors due in the same tick start on one wake-up: 1 000 monitors a minute wake the process at most 600 times", async () => {
    const clock = fakeClock();
    let wakeUps = 0;
    const counting = { ...clock, setTimeout: (fn: () => void, ms: number) => clock.setTimeout(() => (wakeUps++, fn()), ms) };
    const starts = new Map<number, number>();
    const scheduler = createScheduler({ clock: counting, run: async (id) => void starts.set(id, clock.now()) });
    for (let id = 1; id <= 1000; id++) scheduler.schedule(id, 60);
    scheduler.start();
    await clock.advance(MIN);
    expect(starts.size).toBe(1000);
    expect(wakeUps).toBeLessThanOrEqual(MIN / TICK_MS);
    expect(wakeUps).toBeLessThan(1000);
    for (const at of starts.values()) expect(at % TICK_MS).toBe(0);
    expect(scheduler.stats().lateness.max).toBe(0);
    await scheduler.stop();
  });

  test("each monitor runs on a fixed cadence from its spread first slot", async () => {
    const { clock, scheduler, timesOf } = setup();
    const t0 = clock.now();
    for (const id of [1, 2, 3]) scheduler.schedule(id, 60);
    scheduler.start();
    await clock.advance(5 * MIN);
    for (const id of [1, 2, 3]) {
      const times = timesOf(id);
      const first = slotAtOrAfter(t0, id, MIN);
      expect(times).toEqual([0, 1, 2, 3, 4].map((k) => first + k * MIN).filter((t) => t <= t0 + 5 * MIN));
    }
  });

  test("a slow check does not push the next one later (no drift)", async () => {
    const { clock, scheduler, timesOf } = setup({ takes: () => 45_000 });
    scheduler.schedule(7, 60);
    scheduler.start();
    await clock.advance(10 * MIN);
    const times = timesOf(7);
    expect(times.length).toBe(10);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(MIN);
  });

  test("a check still running when its next slot comes skips that slot instead of overlapping", async () => {
    const { clock, scheduler, timesOf } = setup({ takes: () => 90_000 });
    scheduler.schedule(7, 60);
    scheduler.start();
    await clock.advance(6 * MIN);
    const times = timesOf(7);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(2 * MIN);
    expect(scheduler.stats().skippedBusy).toBeGreaterThanOrEqual(2);
  });

  test("after a stall of several intervals it runs once and skips ahead, no burst", async () => {
    const { clock, scheduler, timesOf } = setup();
    scheduler.schedule(1, 60);
    scheduler.schedule(2, 300);
    scheduler.start();
    await clock.advance(MIN);
    const before = timesOf(1).length;
    clock.jump(10 * MIN); // the process was frozen
    await clock.advance(0);
    expect(timesOf(1).length).toBe(before + 1);
    const next = scheduler.nextDue(1)!;
    expect(next).toBeGreaterThan(clock.now());
    expect(next - clock.now()).toBeLessThanOrEqual(MIN);
    expect((next - slotAtOrAfter(0, 1, MIN)) % MIN).toBe(0); // back on its own grid
    expect(scheduler.stats().skippedLate).toBeGreaterThanOrEqual(8);
    expect(scheduler.stats().lateness.max).toBeGreaterThanOrEqual(9 * MIN);
  });

  test("concurrency is bounded; the rest wait their turn in order", async () => {
    const { clock, scheduler, runs, maxInFlight } = setup({ concurrency: 3, takes: () => 1000 });
    for (let id = 1; id <= 12; id++) scheduler.schedule(id, 60, { kick: true });
    scheduler.start();
    await clock.advance(5000);
    expect(maxInFlight()).toBe(3);
    expect(runs.filter((r) => r.at === runs[0].at)).toHaveLength(3);
    expect(new Set(runs.slice(0, 12).map((r) => r.id)).size).toBe(12);
    expect(scheduler.stats().running).toBe(0);
  });

  test("kick runs at once, then the grid resumes at least the kick gap later", async () => {
    const { clock, scheduler, timesOf } = setup();
    const t0 = clock.now();
    scheduler.schedule(5, 60, { kick: true });
    scheduler.start();
    await clock.advance(0);
    expect(timesOf(5)).toEqual([t0]);
    const next = scheduler.nextDue(5)!;
    expect(next).toBe(slotAtOrAfter(t0 + 5000, 5, MIN));
    await clock.advance(3 * MIN);
    expect(timesOf(5).slice(1)).toEqual([next, next + MIN, next + 2 * MIN].filter((t) => t <= clock.now()));
  });

  test("reschedule (edit) moves a monitor to its new interval; unschedule (pause, delete) stops it", async () => {
    const { clock, scheduler, timesOf } = setup();
    scheduler.schedule(9, 300);
    scheduler.start();
    await clock.advance(10 * MIN);
    expect(timesOf(9)).toHaveLength(2);
    scheduler.schedule(9, 60);
    await clock.advance(5 * MIN);
    expect(timesOf(9).length).toBeGreaterThanOrEqual(2 + 4);
    scheduler.unschedule(9);
    const n = timesOf(9).length;
    await clock.advance(10 * MIN);
    expect(timesOf(9)).toHaveLength(n);
    expect(scheduler.nextDue(9)).toBeUndefined();
  });

  test("paused and resumed (or handed to another node and back): one entry per slot, nothing counted as skipped", async () => {
    const { clock, scheduler, timesOf } = setup();
    scheduler.schedule(4, 60);
    scheduler.unschedule(4);
    scheduler.schedule(4, 60);
    scheduler.start();
    await clock.advance(5 * MIN);
    expect(timesOf(4)).toHaveLength(5);
    expect(scheduler.stats().heap).toBe(1);
    expect(scheduler.stats().skippedBusy).toBe(0);
  });

  test("nothing runs before start or after stop; start resumes the same grid", async () => {
    const { clock, scheduler, timesOf } = setup();
    scheduler.schedule(3, 60);
    await clock.advance(3 * MIN);
    expect(timesOf(3)).toHaveLength(0);
    scheduler.start();
    await clock.advance(2 * MIN);
    // The overdue slot once at start (late, not three times), then two on the grid.
    expect(timesOf(3)).toHaveLength(3);
    await scheduler.stop();
    await clock.advance(3 * MIN);
    expect(timesOf(3)).toHaveLength(3);
    scheduler.start();
    await clock.advance(2 * MIN);
    const times = timesOf(3);
    expect(times.length).toBeGreaterThanOrEqual(5);
    expect((times.at(-1)! - times[1]) % MIN).toBe(0);
  });

  test("stop waits for running checks and aborts those that overrun the grace", async () => {
    const clock = fakeClock();
    let aborted = false;
    const scheduler = createScheduler({
      clock,
      run: (_id, signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve();
          });
        }),
    });
    scheduler.schedule(1, 60, { kick: true });
    scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().running).toBe(1);
    await scheduler.stop(50);
    expect(aborted).toBe(true);
    expect(scheduler.stats().running).toBe(0);
  });

  test("intervals in seconds: 20 s and 1 s monitors run every 20 s and every second, on the tick grid", async () => {
    const { clock, scheduler, timesOf } = setup();
    const t0 = clock.now();
    scheduler.schedule(11, 20);
    scheduler.schedule(12, 1);
    scheduler.start();
    await clock.advance(MIN);
    const twenty = timesOf(11);
    expect(twenty[0]).toBe(slotAtOrAfter(t0, 11, 20_000));
    expect(twenty).toHaveLength(3);
    const second = timesOf(12);
    expect(second.length).toBeGreaterThanOrEqual(59);
    for (const times of [twenty, second]) for (const at of times) expect(at % TICK_MS).toBe(0);
    for (let i = 1; i < twenty.length; i++) expect(twenty[i] - twenty[i - 1]).toBe(20_000);
    for (let i = 1; i < second.length; i++) expect(second[i] - second[i - 1]).toBe(1000);
    expect(scheduler.stats().lateness.max).toBe(0);
  });

  test("a kick on a 1 s monitor comes back to its grid within a second, not the 5 s kick gap", async () => {
    const { clock, scheduler } = setup();
    const t0 = clock.now();
    scheduler.schedule(5, 1, { kick: true });
    expect(scheduler.nextDue(5)! - t0).toBeLessThanOrEqual(2000);
    expect(scheduler.nextDue(5)! - t0).toBeGreaterThanOrEqual(1000);
  });

  test("the retry grid starts one retry interval after the failure; back on the interval, the wait is honoured", async () => {
    const { clock, scheduler, timesOf } = setup();
    scheduler.schedule(6, 300);
    scheduler.start();
    await clock.advance(5 * MIN);
    const failedAt = timesOf(6)[0];
    // As the service does after a failed check within its retries (the clock is past that check by now).
    const from = clock.now();
    scheduler.schedule(6, 10, { retry: true });
    expect(scheduler.retrying(6)).toBe(true);
    expect(scheduler.nextDue(6)).toBe(Math.ceil((from + 10_000) / TICK_MS) * TICK_MS);
    await clock.advance(35_000);
    const retries = timesOf(6).filter((t) => t > failedAt);
    expect(retries).toHaveLength(3);
    for (let i = 1; i < retries.length; i++) expect(retries[i] - retries[i - 1]).toBe(10_000);
    const after = clock.now();
    scheduler.schedule(6, 300, { waitSeconds: 10 });
    expect(scheduler.retrying(6)).toBe(false);
    const next = scheduler.nextDue(6)!;
    expect(next).toBe(slotAtOrAfter(after + 10_000, 6, 5 * MIN));
  });

  test("a shortened minute (real-clock tests) shortens seconds alike", async () => {
    const clock = fakeClock();
    const starts: number[] = [];
    const scheduler = createScheduler({ clock, minuteMs: 6000, run: async () => void starts.push(clock.now()) });
    scheduler.schedule(1, 30);
    scheduler.start();
    await clock.advance(10_000);
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBe(3000);
    await scheduler.stop();
  });

  test("lateness is measured from the scheduled slot", async () => {
    const { clock, scheduler } = setup({ concurrency: 1, takes: () => 100 });
    for (let id = 1; id <= 5; id++) scheduler.schedule(id, 60);
    scheduler.start();
    await clock.advance(2 * MIN);
    const { lateness, started } = scheduler.stats();
    expect(lateness.count).toBe(started);
    expect(lateness.p50).not.toBeNull();
  });
});

describe("LatencyHistogram", () => {
  test("percentiles, and windows by subtraction", () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 100; i++) h.record(i);
    expect(h.percentile(50)).toBe(50);
    expect(h.percentile(99)).toBe(99);
    const snap = LatencyHistogram.from(h.toJSON());
    for (let i = 0; i < 100; i++) h.record(2500);
    const window = h.minus(snap);
    expect(window.total).toBe(100);
    expect(window.percentile(50)).toBe(2500);
    expect(h.percentile(99)).toBe(2500);
  });
});
