// The monitors feature as one service: store (with in-memory state), scheduler, checks, batched writer, history.
// createMonitorService() loads state and starts nothing; start() starts the scheduler and maintenance timers;
// stop() stops them and writes everything pending.
import type { Db } from "../db/open";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import { createTlsProbe, type TlsProbe } from "./tls-probe";
import type { Checker } from "./types/http/http";
import { createCheckTypes, type CheckOutcome, type CheckState } from "./types";
import { PUSH_MIN_GAP_MS, newPushToken, pushOutcome } from "./types/push/push";
import { conflict, HttpError, notFound } from "../http/errors";
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
  /** Replaces the HTTP request of http monitors (tests). */
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
const CHECK_FIELDS: (keyof MonitorFields)[] = [
  "type",
  "url",
  "method",
  "interval",
  "timeout",
  "expectedStatus",
  "headers",
  "body",
  "followRedirects",
  "keyword",
  "keywordInvert",
  "keywordCaseSensitive",
  "jsonPath",
  "maxResponseTime",
  "ignoreTls",
  "tlsExpiryDays",
  "host",
  "port",
  "dnsRecordType",
  "dnsResolver",
  "dnsExpected",
  "pushGrace",
];

/** Minutes between scheduled looks: push monitors are looked at every minute (silence is noticed within a minute). */
const cadence = (fields: MonitorFields) => (fields.type === "push" ? 1 : fields.interval);

export function createMonitorService(options: MonitorServiceOptions) {
  const { db, bus } = options;
  const log = options.log ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const targets = options.targets ?? ALLOW_PRIVATE;
  const types = createCheckTypes({ policy: targets, httpChecker: options.checker, now: () => clock.now() });
  const tls = options.tls === false ? null : (options.tls ?? createTlsProbe());
  const store = createMonitorStore(db, { targetOf: (f) => types.of(f.type).target(f) });
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


  const checkState = (entry: MonitorEntry): CheckState => ({
    lastPushAt: entry.state.lastPushAt,
    tlsExpiresAt: entry.state.tlsExpiresAt,
    pushWatch: entry.pushWatch,
  });
  const validate = types.validate;

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
    if (tls && entry.fields.type === "http" && /^https:/i.test(entry.fields.url) && !outcome.error?.startsWith("Target refused:")) {
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
        lastPushAt: entry.state.lastPushAt,
      });
    }
    if (applied.from !== applied.to) {
      bus.emit("monitor.status", {
        monitorId: entry.id,
        name: entry.fields.name,
        type: entry.fields.type,
        url: types.of(entry.fields.type).target(entry.fields),
        facts: types.of(entry.fields.type).facts(entry.fields, checkState(entry)),
        from: applied.from,
        to: applied.to,
        at: outcome.time,
        ...(applied.to === "down" ? { failingSince: entry.failingSince ?? outcome.time } : {}),
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
    const outcome = await types.run(entry.fields, checkState(entry), signal);
    // Nothing to record (a push monitor heard in time), stopped mid-check (shutdown), or deleted meanwhile.
    if (!outcome || signal.aborted || store.get(id) !== entry) return;
    record(entry, outcome);
  }

  return {
    store,
    writer,
    history,
    scheduler,
    bus,

    /** Reads every monitor into memory and puts the active ones on the schedule (before start()). */
    async load() {
      await store.load(clock.now());
      for (const entry of store.all()) if (entry.fields.active) scheduler.schedule(entry.id, cadence(entry.fields));
    },

    list: (): PublicMonitor[] => store.all().map(publicOf),
    get: (id: number): PublicMonitor | undefined => {
      const entry = store.get(id);
      return entry && publicOf(entry);
    },
    counts: () => store.counts(),
    down: () => store.down(),

    create(input: MonitorPatch): PublicMonitor {
      const fields = resolveFields(input, undefined, targets, validate);
      const entry = store.create(fields, clock.now());
      if (fields.active) scheduler.schedule(entry.id, cadence(fields), { kick: fields.type !== "push" });
      changed("created", entry.id, entry);
      return publicOf(entry);
    },

    /** Applies an edit; a changed check (or a resume) runs at once and the monitor moves to its new grid. */
    update(id: number, patch: MonitorPatch): PublicMonitor | undefined {
      const entry = store.get(id);
      if (!entry) return undefined;
      const before = entry.fields;
      const fields = resolveFields(patch, before, targets, validate);
      if (!store.update(id, fields, clock.now())) return undefined;
      if (!fields.active) scheduler.unschedule(id);
      else if (!before.active || CHECK_FIELDS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(fields[k]))) {
        // A resumed or changed push monitor gets a full interval + grace before silence counts.
        entry.pushWatch = { since: clock.now(), missedAt: null };
        scheduler.schedule(id, cadence(fields), { kick: fields.type !== "push" });
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
      if (entry.fields.type === "push") {
        throw conflict("PUSH_NOT_CHECKED", "A push monitor is not checked by Vigil: it waits for calls to its push URL");
      }
      const outcome = await types.run(entry.fields, checkState(entry));
      if (!outcome || store.get(id) !== entry) return undefined;
      const result = record(entry, outcome);
      return { result, monitor: publicOf(entry) };
    },

    /**
     * A call to `/api/push/{token}`: recorded as a check of that push monitor. Unknown tokens (and monitors that are
     * no longer push monitors) are 404, paused monitors 409, calls less than a second apart 429.
     */
    push(token: string, call: { status?: string; msg?: string; ping?: number | null }): CheckResult {
      const entry = store.byPushToken(token);
      if (!entry || entry.fields.type !== "push") throw notFound("PUSH_TOKEN_UNKNOWN", "No monitor has this push URL");
      if (!entry.fields.active) throw conflict("MONITOR_PAUSED", "This monitor is paused: resume it to record pushes");
      const now = clock.now();
      if (entry.state.lastPushAt !== null && now - entry.state.lastPushAt < PUSH_MIN_GAP_MS && now >= entry.state.lastPushAt) {
        throw new HttpError(429, "TOO_MANY_PUSHES", "Too many pushes: at most one a second");
      }
      entry.state.lastPushAt = now;
      entry.pushWatch.missedAt = null;
      const result = record(entry, pushOutcome(now, call));
      // The push time is state: written with the next batch even when the status did not change.
      writer.saveState(entry.id, entry.state);
      return result;
    },

    /** A new push URL for a push monitor; the old one stops working at once. */
    regeneratePushToken(id: number): PublicMonitor | undefined {
      const entry = store.get(id);
      if (!entry) return undefined;
      if (entry.fields.type !== "push") throw conflict("NOT_PUSH_MONITOR", "Only push monitors have a push URL");
      const fields = { ...entry.fields, pushToken: newPushToken() };
      if (!store.update(id, fields, clock.now())) return undefined;
      changed("updated", id, entry);
      return publicOf(entry);
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
