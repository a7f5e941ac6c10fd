// The monitors feature as one service: store (with in-memory state), scheduler, checks, batched writer, history.
// createMonitorService() builds it; load() reads the monitors into memory and schedules them, starting nothing;
// start() starts the scheduler and maintenance timers; stop() stops them and writes everything pending. Recording a
// check (a scheduled one, a push) stays in memory and queues its writes: only the writer's flushes touch the database.
import { silentLogger } from "../log";
import { createTlsProbe } from "./tls-probe";
import { createCheckTypes, type CheckOutcome } from "./types";
import { laterCheckTypes } from "./types/later-types";
import { noteTlsExpiry } from "./tls-expiry";
import { PUSH_MIN_GAP_MS, newPushToken, pushOutcome } from "./types/push/push";
import { conflict, HttpError, notFound } from "../http/errors";
import { createHistory, DAY } from "./history";
import { UNSCHEDULED_TYPES, type CheckResult, type MonitorChangeEvent, type PublicMonitor } from "./public";
import { checkStateOf, createAnnouncer } from "./announce";
import { createRecentChecks } from "./recent";
import { createScheduler, systemClock } from "./scheduler";
import { ALLOW_PRIVATE } from "../net/targets";
import { resolveFields, type MonitorFields } from "./schemas";
import { systemPinger } from "./types/ping/pinger";
import { createMonitorStore, toCheckResult, type MonitorEntry } from "./store";
import { createGroupTree } from "./groups";
import { createGroupState } from "./group-state";
import { catchUpMissed } from "./catch-up";
import { paceRetries } from "./retry-pace";
import { manualDownError, unreachableError } from "./check-errors";
import { createDependencies } from "./dependencies";
import { flipOutcome } from "./types/upside-down";
import { createWriter } from "./writer";
import { createScreenshots } from "./screenshots";
import { createMonitorReads } from "./reads";

export { cadence, type MonitorInput, type MonitorLocations, type MonitorPeers, type MonitorServiceOptions } from "./service-contract";
import { cadence, CHECK_FIELDS, type MonitorInput, type MonitorLocations, type MonitorPeers, type MonitorServiceOptions, type RemoteResult } from "./service-contract";

export function createMonitorService(options: MonitorServiceOptions) {
  const { db, bus } = options;
  const log = options.log ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const targets = options.targets ?? ALLOW_PRIVATE;
  const pinger = options.pinger ?? systemPinger;
  const types = createCheckTypes({ policy: targets, httpChecker: options.checker, pinger, now: () => clock.now(), minuteMs: options.minuteMs, later: laterCheckTypes() });
  const tls = options.tls === false ? null : (options.tls ?? createTlsProbe());
  const inMaintenance = options.maintenance ?? (() => false);
  const store = createMonitorStore(db, { targetOf: (f) => types.of(f.type).target(f), settingsView: types.view, inMaintenance });
  const deps = createDependencies(db);
  /** Whether a monitor is down now (active): what holds the alerts of the monitors that depend on it. */
  const isDown = (id: number) => {
    const e = store.get(id);
    return e !== undefined && e.fields.active && e.state.status === "down";
  };
  /** The monitor down now that a failing monitor depends on (its failures are "unreachable"), or undefined. */
  const blockerOf = (entry: MonitorEntry) => (entry.state.consecutiveFailures > 0 ? deps.blocker(entry.id, isDown) : undefined);
  const writer = createWriter(db, { clock, log, ...options.writer });
  const recent = createRecentChecks(db, () => writer.flush());
  const screenshots = createScreenshots(db, { log });
  const history = createHistory(db, { clock, log, rawRetentionMs: (options.rawRetentionDays ?? 7) * DAY, ...options.history });
  const scheduler = createScheduler({
    clock,
    log,
    concurrency: options.concurrency ?? 200,
    minuteMs: options.minuteMs,
    run: (id, signal) => runScheduled(id, signal),
  });
  let running = false;
  let owns: (id: number) => boolean = () => true;
  let peers: MonitorPeers | null = null;
  /** Whether this node runs rollups and retention (one node of a cluster does). */
  let chores = true;
  let catchUp: unknown = null;
  let locations: MonitorLocations | null = null;

  /** Edits of one monitor (update, new push URL, delete) run one after the other: each starts from the last one's result. */
  const edits = new Map<number, Promise<unknown>>();
  function serial<T>(id: number, fn: () => Promise<T>): Promise<T> {
    const result = (edits.get(id) ?? Promise.resolve()).then(fn, fn);
    const settled = result.then(
      () => {},
      () => {},
    );
    edits.set(id, settled);
    void settled.then(() => edits.get(id) === settled && edits.delete(id));
    return result;
  }

  /** A row written with a state older than memory's (a check landed during the write): queue the current one. */
  const saveIfStale = (entry: MonitorEntry) => {
    if (!entry.unsaved) return;
    writer.saveState(entry.id, entry.state);
    entry.unsaved = false;
  };

  const validate = types.validate;
  const announce = createAnnouncer({ bus, store, types, now: () => clock.now() });
  const tree = createGroupTree(store, inMaintenance);
  const groups = createGroupState({ bus, store, tree, writer, recent, announce, now: () => clock.now(), owns: (id) => owns(id), inMaintenance, minuteMs: options.minuteMs ?? 60_000 });
  // Members entering or leaving maintenance count or stop counting in their groups.
  bus.on("maintenance.change", (e) => {
    if (!e.monitors.entered.length && !e.monitors.left.length) return;
    const touched = new Set([...e.monitors.entered, ...e.monitors.left].flatMap((id) => tree.ancestors(id)));
    for (const id of touched) groups.evaluate(id);
  });

  const publicOf = (entry: MonitorEntry): PublicMonitor => {
    const blocker = blockerOf(entry);
    const name = blocker === undefined ? undefined : store.get(blocker)?.fields.name;
    return { ...store.toPublic(entry, clock.now()), dependsOn: deps.of(entry.id), unreachable: name === undefined ? null : { id: blocker!, name } };
  };
  /** Checks a body's dependencies (`id`: the monitor edited, null when creating); the list as kept. */
  const checkDependencies = (id: number | null, list: number[]) =>
    deps.check(id, list, (p) => store.get(p) !== undefined, (p) => store.get(p)?.fields.name ?? `#${p}`);
  const changed = (action: MonitorChangeEvent["action"], monitorId: number, entry?: MonitorEntry, remote = false) => {
    if (!remote) peers?.publish("monitor.change", { action, monitorId });
    if (bus.has("monitor.change")) {
      bus.emit("monitor.change", { action, monitorId, ...(entry ? { monitor: publicOf(entry) } : {}), ...(remote ? { remote } : {}) });
    }
  };

  /**
   * Puts a monitor on this node's schedule, or takes it off (paused, or another node's). An edit that changes what
   * the check does (or a resume) runs it at once and moves it to its new grid.
   */
  function plan(entry: MonitorEntry, before?: MonitorFields) {
    const fields = entry.fields;
    if (!fields.active || !owns(entry.id) || UNSCHEDULED_TYPES.includes(fields.type)) return scheduler.unschedule(entry.id);
    if (!before || !before.active || CHECK_FIELDS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(fields[k]))) {
      // A resumed or changed push monitor gets a full interval + grace before silence counts.
      entry.pushWatch = { since: clock.now(), missedAt: null };
      scheduler.schedule(entry.id, cadence(fields), { kick: fields.type !== "push" });
    } else if (!scheduler.has(entry.id)) scheduler.schedule(entry.id, cadence(fields));
  }

  /** Another node's check: memory follows it (state, hourly ring, recent checks); that node wrote it and notifies. */
  function recordRemote({ id, outcome, state }: RemoteResult) {
    const entry = store.get(id);
    if (!entry) return;
    const from = entry.state.status;
    store.apply(entry, outcome);
    entry.state = { ...state };
    entry.unsaved = false;
    if (outcome.up === false && entry.fields.type === "push") entry.pushWatch.missedAt = outcome.time;
    recent.add(id, outcome, true);
    announce(entry, outcome, toCheckResult(id, outcome), from, true);
    groups.memberChanged(entry);
  }

  /** Another node created, edited or deleted a monitor: re-read it, re-plan it, tell this node's browsers. */
  function changedRemotely({ action, monitorId }: { action: MonitorChangeEvent["action"]; monitorId: number }) {
    void serial(monitorId, async () => {
      const before = store.get(monitorId)?.fields;
      const entry = await store.refresh(monitorId, clock.now());
      if (entry) await deps.refresh(monitorId);
      else deps.forget(monitorId);
      tree.invalidate();
      if (!entry) {
        scheduler.unschedule(monitorId);
        writer.forget(monitorId);
        recent.forget(monitorId);
        if (before) changed("deleted", monitorId, undefined, true);
        return;
      }
      plan(entry, before);
      changed(before ? (action === "deleted" ? "updated" : action) : "created", monitorId, entry, true);
      treeChanged(entry, before);
    }).catch((e) => log.error("could not follow a monitor changed on another node", { monitorId, error: String((e as Error)?.message ?? e) }));
  }

  /** Applies a finished check: state, queued writes, TLS expiry, events, the pace of the next checks. */
  function record(entry: MonitorEntry, outcome: CheckOutcome): CheckResult {
    const { screenshot } = outcome;
    delete outcome.screenshot;
    if (inMaintenance(entry.id)) outcome.maintenance = true;
    if (!outcome.up) {
      const blocker = deps.blocker(entry.id, isDown);
      if (blocker !== undefined) {
        outcome.error = unreachableError(store.get(blocker)!.fields.name);
        outcome.unreachable = true;
      }
    }
    const applied = store.apply(entry, outcome);
    paceRetries(scheduler, entry);
    writer.addResult(entry.id, outcome);
    // Only a down check keeps its picture (an upside-down monitor's failed page is its "up"); at the time store.apply settled.
    if (screenshot && !outcome.up) screenshots.save(entry.id, outcome.time, outcome.error, screenshot);
    recent.add(entry.id, outcome);
    if (applied.persist) writer.saveState(entry.id, entry.state);
    noteTlsExpiry(entry, outcome, { tls: tls || undefined, writer, current: (e) => store.get(e.id) === e });
    const result = toCheckResult(entry.id, outcome);
    // A copy: the message is serialised a moment later, when a newer check may have changed the state.
    peers?.publish("monitor.result", { id: entry.id, outcome, state: { ...entry.state } } satisfies RemoteResult);
    announce(entry, outcome, result, applied.from, false);
    groups.memberChanged(entry);
    return result;
  }

  /** A monitor was created, edited or re-read: the groups it left and joined (and itself, a group) look again. */
  function treeChanged(entry: MonitorEntry, before?: MonitorFields) {
    if (before?.parentId != null && before.parentId !== entry.fields.parentId) groups.evaluate(before.parentId);
    if (entry.fields.type === "group") groups.evaluate(entry.id);
    groups.memberChanged(entry);
  }

  /** One check of a monitor: its own type's, or its locations' combined verdict. */
  async function checkOf(entry: MonitorEntry, signal?: AbortSignal): Promise<CheckOutcome | null> {
    const fields = entry.fields;
    if (!locations || fields.type === "push" || !locations.has(entry.id)) return types.run(fields, checkStateOf(entry), signal);
    const own = locations.fromServer(entry.id) ? await types.run(fields, checkStateOf(entry), signal) : null;
    if (signal?.aborted || store.get(entry.id) !== entry) return null;
    return locations.combine(entry.id, fields, own, clock.now());
  }

  async function resync() {
    await writer.flush();
    // What each monitor was, to plan those whose check changed (entries keep their object across the re-read).
    const before = new Map(store.all().map((e) => [e.id, e.fields]));
    await store.load(clock.now());
    await deps.load();
    tree.invalidate();
    // Monitors deleted behind memory's back (a configuration file's prune): off the schedule, gone from browsers.
    for (const id of before.keys()) {
      if (store.get(id)) continue;
      scheduler.unschedule(id);
      writer.forget(id);
      recent.forget(id);
      changed("deleted", id, undefined, true);
    }
    for (const entry of store.all()) plan(entry, before.get(entry.id));
    groups.evaluateAll();
  }
  // An import on another node wrote monitors straight into the database (server/import/after-import.ts).
  bus.on("settings.change", (e) => {
    if (e.remote && e.area === "monitors") resync().catch((err) => log.error("could not re-read monitors", { error: String(err?.message ?? err) }));
  });

  async function runScheduled(id: number, signal: AbortSignal) {
    const entry = store.get(id);
    if (!entry || !entry.fields.active || !owns(id) || UNSCHEDULED_TYPES.includes(entry.fields.type)) return;
    const outcome = await checkOf(entry, signal);
    // Nothing to record (a push monitor heard in time, no location reported), stopped mid-check (shutdown), or deleted
    // meanwhile (a re-read keeps each monitor's entry: see store.load).
    if (!outcome || signal.aborted || store.get(id) !== entry) return;
    record(entry, outcome);
  }

  function update(id: number, patch: MonitorInput): Promise<PublicMonitor | undefined> {
    const done = serial(id, async () => {
      const entry = store.get(id);
      if (!entry) return undefined;
      const before = entry.fields;
      const fields = resolveFields(patch, before, targets, validate);
      tree.checkFields(id, fields);
      const dependsOn = patch.dependsOn && checkDependencies(id, patch.dependsOn);
      if (!(await store.update(id, fields, clock.now()))) return undefined;
      tree.invalidate();
      if (dependsOn) await deps.save(id, dependsOn);
      saveIfStale(entry);
      plan(entry, before);
      changed("updated", id, entry);
      treeChanged(entry, before);
      return entry;
    });
    return done.then(async (entry) => {
      if (!entry) return undefined;
      // Outside the group's own queue: its members' edits queue on theirs.
      if (entry.fields.type === "group" && patch.active !== undefined) {
        for (const member of tree.members(id)) await update(member, { active: patch.active });
      }
      return publicOf(entry);
    });
  }

  return {
    /** How ping monitors reach their hosts here: "socket", "program", or null (they cannot: the form says so). */
    pingMethod: () => pinger()?.method ?? null,
    store,
    writer,
    history,
    scheduler,
    bus,

    /** Lets server/probes combine the verdict of monitors checked from agents. */
    useLocations(hook: MonitorLocations) {
      locations = hook;
    },

    /** Reads every monitor into memory and puts the active ones on the schedule (before start()); groups look at their members. */
    async load() {
      await store.load(clock.now());
      await deps.load();
      tree.invalidate();
      for (const entry of store.all()) plan(entry, entry.fields);
      groups.evaluateAll();
    },

    /** The group tree: members, descendants, ancestors. */
    groups: tree,

    /**
     * Joins a cluster: from now on this node checks only the monitors `peers.owns` says are its own (re-planned by
     * takeOver/giveUp as leases move), tells the other nodes of its checks and edits, and follows theirs.
     * Rollups and retention run only where setChores(true) says.
     */
    joinCluster(cluster: MonitorPeers) {
      peers = cluster;
      owns = (id) => cluster.owns(id);
      chores = false;
      for (const entry of store.all()) if (!owns(entry.id)) scheduler.unschedule(entry.id);
      cluster.on("monitor.result", (data) => recordRemote(data as RemoteResult));
      cluster.on("monitor.change", (data) => changedRemotely(data as { action: MonitorChangeEvent["action"]; monitorId: number }));
    },

    /** Schedules the monitors this node now owns; those whose latest slot was missed are checked after `delayMs`. */
    takeOver(delayMs = 1000) {
      for (const entry of store.all()) if (entry.fields.active && owns(entry.id) && !UNSCHEDULED_TYPES.includes(entry.fields.type) && !scheduler.has(entry.id)) scheduler.schedule(entry.id, cadence(entry.fields));
      clock.clearTimeout(catchUp);
      catchUp = clock.setTimeout(() => {
        catchUp = null;
        if (running) catchUpMissed({ db, store, scheduler, writer, clock, owns, cadence, minuteMs: options.minuteMs ?? 60_000 }).catch((e) => log.error("catching up missed checks failed", { error: String((e as Error)?.message ?? e) }));
      }, delayMs);
    },

    /** Stops scheduling the monitors this node no longer owns; resolves once their running checks are recorded and sent. */
    async giveUp(): Promise<void> {
      const released: number[] = [];
      for (const entry of store.all()) {
        if (!owns(entry.id) && scheduler.has(entry.id)) {
          scheduler.unschedule(entry.id);
          released.push(entry.id);
        }
      }
      await scheduler.settled(released);
      // Written and told before another node takes them: it judges missed slots by what is in the table.
      await writer.flush();
      await peers?.flush();
    },

    /** Re-reads every monitor: messages from other nodes may have been lost (the listener reconnected), or an import wrote them. */
    resync,

    /** Whether this node runs rollups and retention. */
    setChores(on: boolean) {
      if (on === chores) return;
      chores = on;
      if (!running) return;
      if (on) history.start(5000);
      else void history.stop();
    },


    list: (): PublicMonitor[] => store.all().map(publicOf),
    /** The monitors with an error-budget objective (a minute's look at budgets reads these, not all 100 000). */
    withObjective: (): PublicMonitor[] => store.all().filter((e) => e.fields.objective !== null).map(publicOf),
    typeOf: (id: number): PublicMonitor["type"] | undefined => store.get(id)?.fields.type,
    get: (id: number): PublicMonitor | undefined => {
      const entry = store.get(id);
      return entry && publicOf(entry);
    },
    counts: () => store.counts(),
    /** The monitors that depend on this one (the notification rules' recovery pass). */
    dependentsOf: (id: number): number[] => deps.dependentsOf(id),
    down: () => store.down(),

    async create(input: MonitorInput): Promise<PublicMonitor> {
      const fields = resolveFields(input, undefined, targets, validate);
      const dependsOn = checkDependencies(null, input.dependsOn ?? []);
      tree.checkFields(undefined, fields);
      const entry = await store.create(fields, clock.now());
      tree.invalidate();
      if (dependsOn.length) await deps.save(entry.id, dependsOn);
      plan(entry);
      changed("created", entry.id, entry);
      treeChanged(entry);
      return publicOf(entry);
    },

    /**
     * Applies an edit; a changed check (or a resume) runs at once and the monitor moves to its new grid. Pausing or
     * resuming a group does the same to its members (and theirs).
     */
    update,

    /** Deletes a monitor; a group's members move to the group's own group (or the top level) first. */
    remove(id: number): Promise<boolean> {
      return serial(id, async () => {
        const entry = store.get(id);
        for (const member of entry ? tree.members(id) : []) await update(member, { parentId: entry!.fields.parentId });
        scheduler.unschedule(id);
        writer.forget(id);
        recent.forget(id);
        const removed = await store.remove(id);
        deps.forget(id);
        tree.invalidate();
        if (removed) changed("deleted", id);
        if (entry?.fields.parentId != null) groups.evaluate(entry.fields.parentId);
        return removed;
      });
    },

    /** Runs a check now (paused monitors too), records it like any other, and returns it. */
    async checkNow(id: number): Promise<{ result: CheckResult; monitor: PublicMonitor } | undefined> {
      const entry = store.get(id);
      if (!entry) return undefined;
      if (entry.fields.type === "push") {
        throw conflict("PUSH_NOT_CHECKED", "A push monitor is not checked by Vigil: it waits for calls to its push URL");
      }
      if (entry.fields.type === "group") throw conflict("GROUP_NOT_CHECKED", "A group is not checked: its state follows its members");
      if (entry.fields.type === "manual") throw conflict("MANUAL_NOT_CHECKED", "A manual monitor is not checked: set its state instead");
      const outcome = await checkOf(entry);
      if (store.get(id) !== entry) return undefined;
      if (!outcome) throw conflict("NO_LOCATION_DATA", "No location has reported a result yet: the agents checking this monitor have sent nothing recent");
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
      const outcome = pushOutcome(now, call);
      const result = record(entry, entry.fields.upsideDown ? flipOutcome(outcome) : outcome);
      // The push time is state: written with the next batch even when the status did not change.
      writer.saveState(entry.id, entry.state);
      return result;
    },

    /** A manual monitor's state, as an operator or a script sets it: recorded as a check, notified as any other. */
    setManual(id: number, status: "up" | "down", message: string | null): CheckResult | undefined {
      const entry = store.get(id);
      if (!entry) return undefined;
      if (entry.fields.type !== "manual") throw conflict("NOT_MANUAL_MONITOR", "Only manual monitors have a state to set");
      if (!entry.fields.active) throw conflict("MONITOR_PAUSED", "This monitor is paused: resume it to set its state");
      const up = status === "up";
      return record(entry, { time: clock.now(), up, responseTime: null, httpStatus: null, error: up ? null : manualDownError(message) });
    },

    /** A new push URL for a push monitor; the old one stops working at once. */
    regeneratePushToken(id: number): Promise<PublicMonitor | undefined> {
      return serial(id, async () => {
        const entry = store.get(id);
        if (!entry) return undefined;
        if (entry.fields.type !== "push") throw conflict("NOT_PUSH_MONITOR", "Only push monitors have a push URL");
        const fields = { ...entry.fields, pushToken: newPushToken() };
        if (!(await store.update(id, fields, clock.now()))) return undefined;
        saveIfStale(entry);
        changed("updated", id, entry);
        return publicOf(entry);
      });
    },

    ...createMonitorReads({ store, recent, writer, history, screenshots, clock }),

    async stats() {
      return { scheduler: scheduler.stats(), writer: writer.stats(), monitors: store.size, watermarks: await history.watermarks() };
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
      if (chores) history.start(maintenanceDelayMs);
    },

    /** Stops the timers, lets running checks finish (a few seconds at most), and writes everything pending. */
    async stop(graceMs = 3000) {
      running = false;
      clock.clearTimeout(catchUp);
      await scheduler.stop(graceMs);
      await history.stop();
      for (const entry of store.all()) {
        if (entry.unsaved) {
          writer.saveState(entry.id, entry.state);
          entry.unsaved = false;
        }
      }
      await writer.stop();
      await screenshots.flush();
      await types.close();
      log.debug("monitors stopped", { written: writer.stats().written });
    },
  };
}

export type MonitorService = ReturnType<typeof createMonitorService>;
