import { BatchWriter } from "../db/batch-writer";
import type { Logger } from "../log";
import type { ContainersSnapshot, HostInfo, Report } from "./protocol";
import type { AgentCounts, OfflineAgent } from "./public";
import { hashSecret, newSecret } from "../auth/secrets";
import { rollUpAgents } from "./rollup";
import { sampleToSeries } from "./series";
import type { AgentStore, LatestReport, Resolution, RollupRow, SampleRow } from "./store";
import type { AgentRow } from "./tables";

import type { AgentPeers, AgentState, AgentStatus, AgentStatusEvent, RemoteReport } from "./model";

export type { AgentPeers, AgentState, AgentStatus, AgentStatusEvent };

export interface AgentServiceOptions {
  store: AgentStore;
  log: Logger;
  /** Told of every status change (online ↔ offline, connecting → online) and of every accepted report. */
  onStatus?: (e: AgentStatusEvent) => void;
  onReport?: (state: AgentState) => void;
  /** Told of the containers a report listed. */
  onContainers?: (state: AgentState, containers: ContainersSnapshot) => void;
  onChange?: (agentId: number, kind: "created" | "updated" | "deleted") => void;
  now?: () => number;
  tokenTtlMs?: number;
  retention?: { rawMs: number; minuteMs: number; hourMs: number };
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Samples may be this far in the future (clock skew) … */
const MAX_FUTURE_MS = 5 * MINUTE;
/** … or this old (an agent's buffer after a long outage). */
const MAX_AGE_MS = 7 * DAY;
/** Agents rolled up per transaction before yielding to the event loop (fewer when the window to roll up is long). */
const ROLLUP_CHUNK = 100;
/** The window ROLLUP_CHUNK agents are sized for: a longer catch-up takes fewer agents at a time, so reads stay small. */
const ROLLUP_WINDOW = 10 * MINUTE;

export class SampleTimeError extends Error {}

/** Offline after 3 missed intervals, and never sooner than 30 s. */
export const offlineAfterMs = (intervalSeconds: number) => Math.max(30_000, 3 * intervalSeconds * 1000);

/**
 * Agents at run time: registration, ingestion (validated, queued, written in batches), the newest state of each
 * agent in memory for fast lists, presence (online/offline) and the minute/hour rollups with retention. Built with
 * `await AgentService.create(options)`, which loads the agents.
 */
export class AgentService {
  private readonly states = new Map<number, AgentState>();
  private readonly byCredential = new Map<string, number>();
  private readonly writer: BatchWriter<SampleRow>;
  private latestPending = new Map<number, LatestReport>();
  /** agent id → the address of its last report (kept off AgentState: only notifications state it). */
  private addresses = new Map<number, string | null>();
  /** Minute buckets that got samples after they closed (an agent's backlog): rolled up on the next pass. */
  private lateMinutes = new Map<number, Set<number>>();
  private rolledUpTo = 0;
  private lastPrune = 0;
  private rolling: Promise<void> | null = null;
  private timers: Timer[] = [];
  private readonly now: () => number;
  private owns: (id: number) => boolean = () => true;
  /** Whether this node rolls up and prunes (one node of a cluster does); false → true re-reads where rollups stand. */
  private chores = true;
  private choresResumed = false;
  private peers: AgentPeers | null = null;
  /** Agents that fell silent while no server ran: start() says they went offline (their status never changes). */
  private offlineMeanwhile: number[] = [];

  static async create(o: AgentServiceOptions): Promise<AgentService> {
    const service = new AgentService(o);
    await service.load();
    return service;
  }

  private constructor(private readonly o: AgentServiceOptions) {
    this.now = o.now ?? Date.now;
    this.writer = new BatchWriter<SampleRow>({
      write: async (rows) => {
        const latest = this.latestPending;
        this.latestPending = new Map();
        try {
          // An agent deleted while its samples waited: drop them.
          await o.store.writeSamples(rows.filter((r) => this.states.has(r.agentId)), new Map([...latest].filter(([id]) => this.states.has(id))));
        } catch (e) {
          // The batch is retried (BatchWriter keeps its rows): so are the newest facts, unless newer ones came.
          for (const [id, l] of latest) if (!this.latestPending.has(id)) this.latestPending.set(id, l);
          throw e;
        }
      },
      commitWindowMs: o.store.commitWindowMs,
      log: o.log,
    });
  }

  private async load() {
    for (const row of await this.o.store.all()) this.remember(row);
    // Catch up from the newest minute rolled up before the last stop (or a day back on a fresh database).
    this.rolledUpTo = (await this.o.store.newestRollup("minute")) ?? Math.floor((this.now() - DAY) / MINUTE) * MINUTE;
    // Loaded offline though still online at the last rollup (shortly before the server stopped): nobody noticed yet.
    this.offlineMeanwhile = [...this.states.values()]
      .filter((s) => s.status === "offline" && s.lastSeenAt !== null && s.lastSeenAt + offlineAfterMs(s.interval) > this.rolledUpTo)
      .map((s) => s.id);
  }

  private remember(row: AgentRow): AgentState {
    const lastSeenAt = row.lastSeenAt;
    const status: AgentStatus =
      lastSeenAt === null ? "connecting" : this.now() - lastSeenAt < offlineAfterMs(row.interval) ? "online" : "offline";
    const state: AgentState = {
      id: row.id,
      name: row.name,
      location: row.location ?? null,
      hostname: row.hostname,
      ips: row.ips,
      os: row.os,
      kernel: row.kernel,
      arch: row.arch,
      agentVersion: row.agentVersion,
      interval: row.interval,
      uptime: row.uptime,
      createdAt: row.createdAt,
      lastSeenAt,
      latest: row.latest ?? null,
      status,
    };
    this.states.set(row.id, state);
    this.addresses.set(row.id, row.lastAddress);
    this.byCredential.set(row.credentialHash, row.id);
    return state;
  }

  /**
   * The agent's containers as it last reported them: the queued report's, else the stored row's (any node: the batch
   * writer puts them in the row within a second of the report).
   */
  async containers(id: number): Promise<ContainersSnapshot | null> {
    return this.latestPending.get(id)?.containers ?? (await this.o.store.containers(id));
  }

  list(): AgentState[] {
    return [...this.states.values()].sort((a, b) => a.id - b.id);
  }

  get(id: number): AgentState | undefined {
    return this.states.get(id);
  }

  /** By status; agents in maintenance (`inMaintenance`) are counted apart. */
  counts(inMaintenance: (id: number) => boolean = () => false): AgentCounts {
    const counts: AgentCounts = { total: 0, online: 0, offline: 0, connecting: 0, maintenance: 0 };
    for (const a of this.states.values()) {
      counts.total++;
      if (inMaintenance(a.id)) counts.maintenance++;
      else counts[a.status]++;
    }
    return counts;
  }

  /** Offline agents (not in maintenance), longest silent first. */
  offline(inMaintenance: (id: number) => boolean = () => false): OfflineAgent[] {
    const offline: OfflineAgent[] = [];
    for (const a of this.states.values()) if (a.status === "offline" && !inMaintenance(a.id)) offline.push({ id: a.id, name: a.name, lastSeenAt: a.lastSeenAt });
    return offline.sort((a, b) => (a.lastSeenAt ?? 0) - (b.lastSeenAt ?? 0) || a.id - b.id);
  }

  /** A one-time registration token; only its hash is stored. */
  async createToken(userId: number): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret("vgl_reg");
    const row = await this.o.store.createToken(hashSecret(token), userId, this.now(), this.o.tokenTtlMs ?? DAY);
    return { token, expiresAt: row.expiresAt };
  }

  /** Registration tokens not used yet and not expired (the install guide lists them instead of minting more). */
  pendingTokens() {
    return this.o.store.pendingTokens(this.now());
  }

  /** Revokes an unused registration token; false when there is none. */
  revokeToken(id: number): Promise<boolean> {
    return this.o.store.revokeToken(id);
  }

  /**
   * Spends a token and creates the agent; returns its credential (shown to the agent once, stored hashed).
   *
   * Installing again on the same machine leaves no dead twin: agents that never reported, registered earlier from
   * the same host (same hostname and the same addresses) under the same name, are removed in the same transaction
   * and listed in `replaced`. Such a twin has no data, and its credential was lost with the failed install (or is
   * replaced by this one in the same file). An agent that ever reported is never replaced.
   */
  async register(token: string, name: string | undefined, host: HostInfo) {
    const credential = newSecret("vgl_agent");
    const agentName = name?.trim() || host.hostname;
    const twins = this.neverReportedTwins(agentName, host);
    const result = await this.o.store.register(hashSecret(token), hashSecret(credential), agentName, host, this.now(), twins.map((a) => a.id));
    if (typeof result === "string") return result;
    // Memory follows the database: the twins it deleted (not one whose first report was written meanwhile).
    const replaced = twins.filter((a) => result.replaced.includes(a.id));
    for (const twin of replaced) this.forget(twin.id);
    const state = this.remember(result.agent);
    this.o.log.info("agent registered", { id: state.id, name: state.name, replaced: replaced.map((a) => a.id) });
    this.changed(state.id, "created");
    return { agent: state, credential, replaced: replaced.map((a) => ({ id: a.id, name: a.name })) };
  }

  private neverReportedTwins(name: string, host: HostInfo): AgentState[] {
    const addresses = (ips: string[]) => [...new Set(ips)].sort().join(" ");
    const ips = addresses(host.ips);
    return this.list().filter((a) => a.lastSeenAt === null && a.name === name && a.hostname === host.hostname && addresses(a.ips) === ips);
  }

  /** The agent a credential belongs to, if it still exists. */
  authenticate(credential: string): number | undefined {
    return this.byCredential.get(hashSecret(credential));
  }

  /** A new name, and (when given) a new location name (null: its name). */
  async rename(id: number, name: string, location?: string | null): Promise<AgentState | undefined> {
    const row = await this.o.store.rename(id, name, location);
    const state = this.states.get(id);
    if (!row || !state) return undefined;
    state.name = row.name;
    state.location = row.location ?? null;
    this.changed(id, "updated");
    return state;
  }

  async remove(id: number): Promise<boolean> {
    // Its queued samples first, so no batch in flight races the delete (their rows would go with it anyway).
    await this.writer.flush();
    if (!(await this.o.store.remove(id))) return false;
    this.forget(id);
    return true;
  }

  /** Drops a deleted agent from memory (its credential with it) and says so. */
  private forget(id: number, remote = false) {
    this.states.delete(id);
    for (const [hash, agentId] of this.byCredential) if (agentId === id) this.byCredential.delete(hash);
    this.lateMinutes.delete(id);
    this.changed(id, "deleted", remote);
  }

  private changed(id: number, kind: "created" | "updated" | "deleted", remote = false) {
    if (!remote) this.peers?.publish("agent.change", { id, kind });
    this.o.onChange?.(id, kind);
  }

  /**
   * Joins a cluster: presence (online/offline, and its notifications) is decided by the node that owns the agent;
   * reports, registrations, renames and deletions made on any node are followed here.
   */
  joinCluster(peers: AgentPeers) {
    this.peers = peers;
    this.owns = (id) => peers.owns(id);
    peers.on("agent.report", (data) => this.reportedElsewhere(data as RemoteReport));
    peers.on("agent.change", (data) => {
      const { id, kind } = data as { id: number; kind: "created" | "updated" | "deleted" };
      void this.changedElsewhere(id, kind).catch((e) => this.o.log.error("could not follow an agent changed on another node", { id, error: String(e) }));
    });
  }

  private reportedElsewhere({ id, facts, address, late }: RemoteReport) {
    const state = this.states.get(id);
    if (!state) return;
    Object.assign(state, facts);
    this.addresses.set(id, address);
    if (late.length) {
      let set = this.lateMinutes.get(id);
      if (!set) this.lateMinutes.set(id, (set = new Set()));
      for (const m of late) set.add(m);
    }
    this.setStatus(state, "online");
    this.o.onReport?.(state);
  }

  private async changedElsewhere(id: number, kind: "created" | "updated" | "deleted") {
    const row = kind === "deleted" ? undefined : await this.o.store.byId(id);
    if (!row) {
      if (this.states.has(id)) this.forget(id, true);
      return;
    }
    const known = this.states.get(id);
    const state = this.remember(row);
    // Memory may be newer than the row (a report written after it was read): keep the newer facts.
    if (known && (known.lastSeenAt ?? 0) > (state.lastSeenAt ?? 0)) Object.assign(state, { ...known, name: state.name, location: state.location });
    this.o.onChange?.(id, known ? "updated" : "created");
  }

  /** Resolves when every sample accepted so far is in the database (a report is acknowledged only then). */
  committed(): Promise<void> {
    return this.writer.committed();
  }

  /** Accepts a report: checks the sample times, queues the rows, updates the in-memory state. */
  ingest(agentId: number, report: Report, address: string | null = null): number {
    const state = this.states.get(agentId);
    if (!state) return 0;
    const now = this.now();
    for (const s of report.samples) {
      if (s.time > now + MAX_FUTURE_MS) throw new SampleTimeError("A sample is more than 5 minutes in the future: check the agent's clock");
      if (s.time < now - MAX_AGE_MS) throw new SampleTimeError("A sample is more than 7 days old");
    }
    const currentMinute = Math.floor(now / MINUTE) * MINUTE;
    let newest = state.latest;
    for (const s of report.samples) {
      this.writer.push({ agentId, time: s.time, values: sampleToSeries(s) });
      const minute = Math.floor(s.time / MINUTE) * MINUTE;
      if (minute < this.rolledUpTo || minute < currentMinute - MINUTE) {
        let set = this.lateMinutes.get(agentId);
        if (!set) this.lateMinutes.set(agentId, (set = new Set()));
        set.add(minute);
      }
      if (!newest || s.time >= newest.time) newest = s;
    }
    Object.assign(state, {
      hostname: report.host.hostname,
      ips: report.host.ips,
      os: report.host.os,
      kernel: report.host.kernel,
      arch: report.host.arch,
      agentVersion: report.host.agentVersion,
      uptime: report.host.uptime,
      interval: report.interval,
      latest: newest,
      lastSeenAt: now,
    });
    // A report without containers (an older agent) leaves the last list queued for writing as it is.
    const containers = report.containers ?? this.latestPending.get(agentId)?.containers;
    this.latestPending.set(agentId, { host: report.host, interval: report.interval, sample: newest!, seenAt: now, address, ...(containers ? { containers } : {}) });
    this.addresses.set(agentId, address);
    if (this.peers) {
      const { hostname, ips, os, kernel, arch, agentVersion, uptime, interval, latest, lastSeenAt } = state;
      const late = [...(this.lateMinutes.get(agentId) ?? [])];
      this.peers.publish("agent.report", { id: agentId, facts: { hostname, ips, os, kernel, arch, agentVersion, uptime, interval, latest, lastSeenAt }, address, late } satisfies RemoteReport);
    }
    this.setStatus(state, "online");
    this.o.onReport?.(state);
    if (report.containers) this.o.onContainers?.(state, report.containers);
    return report.samples.length;
  }

  private setStatus(state: AgentState, to: AgentStatus) {
    if (state.status === to) return;
    const from = state.status;
    state.status = to;
    this.announce(state, from);
  }

  /** Tells of a change to `state.status` (this node notifies only for the agents it owns). */
  private announce(state: AgentState, from: AgentStatus) {
    const lastAddress = this.addresses.get(state.id) ?? null;
    const remote = !this.owns(state.id);
    this.o.onStatus?.({ agentId: state.id, name: state.name, from, to: state.status, at: this.now(), lastSeenAt: state.lastSeenAt, lastAddress, ...(remote ? { remote } : {}) });
  }

  /** Marks agents offline once they miss 3 intervals. */
  checkPresence(): void {
    const now = this.now();
    for (const state of this.states.values()) {
      if (state.status === "online" && state.lastSeenAt !== null && now - state.lastSeenAt >= offlineAfterMs(state.interval)) {
        this.setStatus(state, "offline");
      }
    }
  }

  /**
   * Rolls closed minutes into agent_minutely and their hours into agent_hourly (late buckets included), and every
   * 10 minutes prunes by retention. Idempotent (upserts keyed by agent and bucket); catches up after downtime.
   * Works through the agents in chunks, one transaction each (a few statements for the whole chunk), yielding between
   * them, so ingestion is never held up for long. A call while a pass runs waits for that pass.
   */
  rollUpAndPrune(): Promise<void> {
    this.rolling ??= this.rollUpPass().finally(() => (this.rolling = null));
    return this.rolling;
  }

  /** Whether this node rolls up and prunes (the cluster gives it to the node holding bucket 0). */
  setChores(on: boolean) {
    if (on && !this.chores) this.choresResumed = true;
    this.chores = on;
  }

  private async rollUpPass(): Promise<void> {
    if (!this.chores) return;
    if (this.choresResumed) {
      // Another node rolled up meanwhile: go on from where it got.
      this.choresResumed = false;
      this.rolledUpTo = Math.max(this.rolledUpTo, (await this.o.store.newestRollup("minute")) ?? 0);
    }
    await this.writer.flush();
    const now = this.now();
    const closedMinute = Math.floor(now / MINUTE) * MINUTE; // buckets before this are complete
    const from = Math.max(this.rolledUpTo - MINUTE, closedMinute - DAY);
    const late = this.lateMinutes;
    this.lateMinutes = new Map();
    const prune = now - this.lastPrune >= 10 * MINUTE;
    const r = this.o.retention ?? { rawMs: DAY, minuteMs: 30 * DAY, hourMs: 365 * DAY };
    const ids = [...this.states.keys()].sort((a, b) => a - b);
    const chunk = Math.max(1, Math.min(ROLLUP_CHUNK, Math.floor((ROLLUP_CHUNK * ROLLUP_WINDOW) / Math.max(1, closedMinute - from))));
    let done = false;
    try {
      for (let i = 0; i < ids.length; i += chunk) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const live = ids.slice(i, i + chunk).filter((id) => this.states.has(id)); // deleted meanwhile: skipped
        if (live.length === 0) continue;
        await this.o.store.tx(async (q) => {
          await rollUpAgents(this.o.store, q, live, from, closedMinute, late);
          if (prune) {
            await this.o.store.prune(live, "raw", now - r.rawMs, q);
            await this.o.store.prune(live, "minute", now - r.minuteMs, q);
            await this.o.store.prune(live, "hour", now - r.hourMs, q);
          }
        });
      }
      if (prune) {
        await this.o.store.pruneTokens(now - DAY);
        this.lastPrune = now;
      }
      this.rolledUpTo = closedMinute;
      done = true;
    } finally {
      // Late minutes still open stay for the next pass; after a failure, all of them do.
      for (const [id, set] of late) {
        for (const m of set) {
          if (done && m < closedMinute) continue;
          if (!this.lateMinutes.has(id)) this.lateMinutes.set(id, new Set());
          this.lateMinutes.get(id)!.add(m);
        }
      }
    }
  }

  /** Whether its timers run (between start() and stop()). */
  get running(): boolean {
    return this.timers.length > 0;
  }

  start(): void {
    // After the cluster has taken its share (who notifies). An offline alert sent before the stop is not sent again.
    for (const id of this.offlineMeanwhile.splice(0)) {
      const state = this.states.get(id);
      if (state?.status === "offline") this.announce(state, "online");
    }
    this.writer.start();
    this.timers.push(setInterval(() => this.checkPresence(), 5_000));
    const roll = () => void this.rollUpAndPrune().catch((e) => this.o.log.error("agent rollup failed", { error: String(e) }));
    roll();
    this.timers.push(setInterval(roll, MINUTE));
  }

  /** Stops the timers, lets a running rollup finish and writes the samples still queued. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.rolling?.catch(() => {});
    await this.writer.stop();
  }

  /** Chart rows of one agent at a resolution, newest samples included. */
  async range(id: number, resolution: Resolution, from: number, to: number): Promise<RollupRow[]> {
    await this.writer.flush();
    return this.o.store.range(id, resolution, from, to);
  }

  /** Writes queued samples now (tests; shutdown goes through stop()). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
