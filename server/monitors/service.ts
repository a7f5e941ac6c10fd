// The monitors feature as one service: store (with in-memory state), scheduler, checks, batched writer, history.
// createMonitorService() loads state and starts nothing; start() starts the scheduler and maintenance timers;
// stop() stops them and writes everything pending.
import type { Db } from "../db/open";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import { createChecker, createTlsProbe, runCheck, type Checker, type CheckOutcome, type TlsProbe } from "./check";
import { createHistory, DAY, type HistoryOptions } from "./history";
import type { CheckResult, MonitorChangeEvent, PublicMonitor, RecentCheck } from "./public";
import { createRecentChecks } from "./recent";
import { createScheduler, systemClock, type Clock } from "./scheduler";
import { ALLOW_PRIVATE, type TargetPolicy } from "../net/targets";
import { resolveFields, type MonitorFields, type MonitorPatch } from "./schemas";
import { createMonitorStore, toCheckResult, type MonitorEntry } from "./store";
import { createWriter, type WriterOptions } from "./writer";

export interface MonitorServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  clock?: Clock;
  /** Replaces the HTTP check (tests). */
  checker?: Checker;
  /** Which addresses monitors may target (server/net/targets.ts); private ones by default. */
  targets?: TargetPolicy;
  /** TLS expiry lookups; false turns them off. */
  tls?: TlsProbe | false;
  /** Checks running at once (default 200). */
  concurrency?: number;
  /** Raw results kept, days (default 7). */
  rawRetentionDays?: number;
  writer?: WriterOptions;
  history?: Omit<HistoryOptions, "clock" | "log" | "rawRetentionMs">;
}

// Fields whose change makes the next check different: an edit of any of them runs a check at once.
const CHECK_FIELDS: (keyof MonitorFields)[] = ["url", "method", "interval", "timeout", "expectedStatus", "headers", "body", "followRedirects"];

export function createMonitorService(options: MonitorServiceOptions) {
  const { db, bus } = options;
  const log = options.log ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const targets = options.targets ?? ALLOW_PRIVATE;
  const checker = options.checker ?? (options.targets ? createChecker({ policy: targets }) : runCheck);
  const tls = options.tls === false ? null : (options.tls ?? createTlsProbe());
  const store = createMonitorStore(db);
  const writer = createWriter(db, { clock, log, ...options.writer });
  const recent = createRecentChecks(db.$client, () => writer.flush());
  const history = createHistory(db, { clock, log, rawRetentionMs: (options.rawRetentionDays ?? 7) * DAY, ...options.history });
  const scheduler = createScheduler({
    clock,
    log,
    concurrency: options.concurrency ?? 200,
    run: (id, signal) => runScheduled(id, signal),
  });
  let running = false;

  store.load(clock.now());
  for (const entry of store.all()) if (entry.fields.active) scheduler.schedule(entry.id, entry.fields.interval);

  const publicOf = (entry: MonitorEntry) => store.toPublic(entry, clock.now());
  const changed = (action: MonitorChangeEvent["action"], monitorId: number, entry?: MonitorEntry) => {
    if (bus.has("monitor.change")) bus.emit("monitor.change", { action, monitorId, ...(entry ? { monitor: publicOf(entry) } : {}) });
  };

  /** Applies a finished check: state, queued writes, TLS expiry, events. */
  function record(entry: MonitorEntry, outcome: CheckOutcome): CheckResult {
    const applied = store.apply(entry, outcome);
    writer.addResult(entry.id, outcome);
    recent.add(entry.id, outcome);
    if (applied.persist) writer.saveState(entry.id, entry.state);
    // Not for a refused target: the policy forbids any connection to it, the certificate lookup's included.
    if (tls && /^https:/i.test(entry.fields.url) && !outcome.error?.startsWith("Target refused:")) {
      const known = tls.get(entry.fields.url, (expiresAt) => {
        if (expiresAt === null || store.get(entry.id) !== entry || entry.state.tlsExpiresAt === expiresAt) return;
        entry.state.tlsExpiresAt = expiresAt;
        writer.saveState(entry.id, entry.state);
      });
      if (known != null && known !== entry.state.tlsExpiresAt) {
        entry.state.tlsExpiresAt = known;
        writer.saveState(entry.id, entry.state);
      }
    }
    const result = toCheckResult(entry.id, outcome);
    if (bus.has("monitor.check")) {
      bus.emit("monitor.check", {
        monitorId: entry.id,
        result,
        status: entry.state.status,
        consecutiveFailures: entry.state.consecutiveFailures,
        uptime24h: store.uptime24h(entry, clock.now()),
      });
    }
    if (applied.from !== applied.to) {
      bus.emit("monitor.status", {
        monitorId: entry.id,
        name: entry.fields.name,
        url: entry.fields.url,
        from: applied.from,
        to: applied.to,
        at: outcome.time,
        error: outcome.error,
        responseTime: outcome.responseTime,
        httpStatus: outcome.httpStatus,
      });
    }
    return result;
  }

  async function runScheduled(id: number, signal: AbortSignal) {
    const entry = store.get(id);
    if (!entry || !entry.fields.active) return;
    const outcome = await checker(entry.fields, signal);
    // Stopped mid-check (shutdown), or deleted meanwhile: nothing to record.
    if (signal.aborted || store.get(id) !== entry) return;
    record(entry, outcome);
  }

  return {
    store,
    writer,
    history,
    scheduler,
    bus,

    list: (): PublicMonitor[] => store.all().map(publicOf),
    get: (id: number): PublicMonitor | undefined => {
      const entry = store.get(id);
      return entry && publicOf(entry);
    },
    counts: () => store.counts(),
    down: () => store.down(),

    create(input: MonitorPatch): PublicMonitor {
      const fields = resolveFields(input, undefined, targets);
      const entry = store.create(fields, clock.now());
      if (fields.active) scheduler.schedule(entry.id, fields.interval, { kick: true });
      changed("created", entry.id, entry);
      return publicOf(entry);
    },

    /** Applies an edit; a changed check (or a resume) runs at once and the monitor moves to its new grid. */
    update(id: number, patch: MonitorPatch): PublicMonitor | undefined {
      const entry = store.get(id);
      if (!entry) return undefined;
      const before = entry.fields;
      const fields = resolveFields(patch, before, targets);
      if (!store.update(id, fields, clock.now())) return undefined;
      if (!fields.active) scheduler.unschedule(id);
      else if (!before.active || CHECK_FIELDS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(fields[k]))) {
        scheduler.schedule(id, fields.interval, { kick: true });
      }
      changed("updated", id, entry);
      return publicOf(entry);
    },

    remove(id: number): boolean {
      scheduler.unschedule(id);
      writer.forget(id);
      recent.forget(id);
      const removed = store.remove(id);
      if (removed) changed("deleted", id);
      return removed;
    },

    /** Runs a check now (paused monitors too), records it like any other, and returns it. */
    async checkNow(id: number): Promise<{ result: CheckResult; monitor: PublicMonitor } | undefined> {
      const entry = store.get(id);
      if (!entry) return undefined;
      const outcome = await checker(entry.fields);
      if (store.get(id) !== entry) return undefined;
      const result = record(entry, outcome);
      return { result, monitor: publicOf(entry) };
    },

    /** The last 50 checks of one monitor (undefined if unknown), or of every monitor, oldest first. */
    recentChecks(id: number): RecentCheck[] | undefined {
      return store.get(id) ? recent.of([id]).get(id) : undefined;
    },
    allRecentChecks(): Record<number, RecentCheck[]> {
      return Object.fromEntries(recent.of(store.all().map((e) => e.id)));
    },

    /** History reads see every result, queued ones included. */
    monitorHistory(id: number) {
      writer.flush();
      return history.monitorHistory(id, clock.now());
    },
    series(id: number, range: "24h" | "7d" | "30d") {
      writer.flush();
      return history.series(id, range, clock.now());
    },

    stats() {
      return { scheduler: scheduler.stats(), writer: writer.stats(), monitors: store.size, watermarks: history.watermarks() };
    },

    get running() {
      return running;
    },

    /** Starts checking on schedule and the rollup/retention timer. */
    start({ maintenanceDelayMs = 5000 } = {}) {
      if (running) return;
      running = true;
      writer.start();
      scheduler.start();
      history.start(maintenanceDelayMs);
    },

    /** Stops the timers, lets running checks finish (a few seconds at most), and writes everything pending. */
    async stop(graceMs = 3000) {
      running = false;
      await scheduler.stop(graceMs);
      await history.stop();
      for (const entry of store.all()) {
        if (entry.unsaved) {
          writer.saveState(entry.id, entry.state);
          entry.unsaved = false;
        }
      }
      writer.stop();
      log.debug("monitors stopped", { written: writer.stats().written });
    },
  };
}

export type MonitorService = ReturnType<typeof createMonitorService>;
