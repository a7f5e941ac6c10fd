// Who checks what, when several Vigil nodes share one PostgreSQL database. Monitors (and agents' presence) fall into
// BUCKETS buckets by id; each bucket is leased to one live node for LEASE_MS and renewed every TICK_MS. Every node
// aims at a fair share (the live nodes sorted by name, the first ones one bucket more), gives back what it holds
// above it and claims free or expired buckets below it, so a joining node gets its share within two ticks and a dead
// node's buckets are taken over once its leases expire (≤ LEASE_MS + TICK_MS). A node that cannot renew in time
// stops checking on its own before its leases can expire (no two nodes check one monitor). Lease times are the
// database's clock, so nodes' clocks need not agree.
import { randomUUID } from "node:crypto";
import { and, asc, count, eq, gt, inArray, isNotNull, or, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { silentLogger, type Logger } from "../log";

export const BUCKETS = 256;
export const LEASE_MS = 15_000;
export const TICK_MS = 5_000;
/** A node stops checking this long (at most a third of the lease) before its leases could expire, if not renewed. */
const FENCE_MARGIN_MS = 2_000;

/** The bucket of a monitor or agent id: consecutive ids spread over every bucket. */
export const bucketOf = (id: number) => ((id % BUCKETS) + BUCKETS) % BUCKETS;

/** How many buckets each live node should hold: an even split, the remainder to the first names. */
export function fairShares(nodes: readonly string[], buckets = BUCKETS): Map<string, number> {
  const sorted = [...nodes].sort();
  const base = Math.floor(buckets / sorted.length);
  const extra = buckets % sorted.length;
  return new Map(sorted.map((name, i) => [name, base + (i < extra ? 1 : 0)]));
}

export interface LeaseChange {
  gained: number[];
  lost: number[];
}

export interface LeaseOptions {
  db: Db;
  node: string;
  version: string;
  address?: string | null;
  log?: Logger;
  /** The shared clock: the database's on PostgreSQL. */
  now?: () => Promise<number>;
  /** The local clock for fencing (monotonic ms). */
  monotonic?: () => number;
  leaseMs?: number;
  tickMs?: number;
  /**
   * Told of every change: start checking what was gained; stop checking what was lost and resolve once no check of
   * it runs any more (buckets given back are released only then).
   */
  onChange?: (change: LeaseChange) => void | Promise<void>;
  /**
   * Told after a heartbeat that the other nodes may not have seen coming: this node's first, or one more than a lease
   * after the previous (a stall). Until their next tick they think this node is not there, and say nothing to it.
   */
  onReappear?: () => void;
}

/** The database's clock in Unix ms (PostgreSQL), or this machine's (SQLite: one node). */
export function databaseClock(db: Db): () => Promise<number> {
  if (db.engine === "sqlite") return async () => Date.now();
  return async () => {
    const [row] = await db.rows<{ now: number }>(sql`SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`);
    return row!.now;
  };
}

export function createLeases(options: LeaseOptions) {
  const { db, node } = options;
  const { clusterLeases: leases, clusterNodes: nodes } = db.t;
  const log = options.log ?? silentLogger;
  const now = options.now ?? databaseClock(db);
  const monotonic = options.monotonic ?? (() => performance.now());
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const tickMs = options.tickMs ?? TICK_MS;
  const instance = randomUUID();
  const owned = new Set<number>();
  let validUntil = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fence: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  const stats = { ticks: 0, failures: 0, gained: 0, lost: 0, lastTickAt: 0 };
  /** Live nodes besides this one, as of the last tick. */
  let others = 0;
  /** The database time of this node's last heartbeat (0: none yet). */
  let lastHeartbeat = 0;

  async function changed(change: LeaseChange) {
    for (const b of change.gained) owned.add(b);
    for (const b of change.lost) owned.delete(b);
    stats.gained += change.gained.length;
    stats.lost += change.lost.length;
    if (change.gained.length || change.lost.length) {
      log.info("leases changed", { node, gained: change.gained.length, lost: change.lost.length, holding: owned.size });
      await options.onChange?.(change);
    }
  }

  /** Every bucket exists as a row (idempotent: a new database, or one an older build made). */
  async function ensureRows() {
    const rows = Array.from({ length: BUCKETS }, (_, bucket) => ({ bucket, expiresAt: 0, epoch: 0 }));
    await db.orm.insert(leases).values(rows).onConflictDoNothing();
  }

  async function tick() {
    const started = monotonic();
    const at = await now();
    // Heartbeat (and, on a new start, this node's row with its new instance).
    await db.orm
      .insert(nodes)
      .values({ name: node, instance, version: options.version, address: options.address ?? null, startedAt: at, heartbeatAt: at, leases: owned.size })
      .onConflictDoUpdate({
        target: nodes.name,
        set: { instance, version: options.version, address: options.address ?? null, heartbeatAt: at, leases: owned.size, stoppedAt: null },
      });
    // Renew what is still ours; anything else we thought we held is gone (it expired and another node took it).
    const renewed = await db.orm
      .update(leases)
      .set({ expiresAt: at + leaseMs })
      .where(and(eq(leases.node, node), eq(leases.instance, instance), gt(leases.expiresAt, at)))
      .returning({ bucket: leases.bucket });
    const kept = new Set(renewed.map((r) => r.bucket));
    validUntil = started + leaseMs - Math.min(FENCE_MARGIN_MS, leaseMs / 3);
    const lost = [...owned].filter((b) => !kept.has(b));
    // Renewed but not checked here: this node fenced itself (a renewal came too late) and the leases held meanwhile,
    // so nobody else can have them: it takes them up again (else it would renew them for ever, unchecked).
    const regained = [...kept].filter((b) => !owned.has(b)).sort((a, b) => a - b);
    if (lost.length || regained.length) await changed({ gained: regained, lost });

    const reappeared = lastHeartbeat === 0 || at - lastHeartbeat > leaseMs;
    lastHeartbeat = at;
    if (reappeared) options.onReappear?.();

    const live = await db.orm.select({ name: nodes.name }).from(nodes).where(and(gt(nodes.heartbeatAt, at - leaseMs), sql`${nodes.stoppedAt} IS NULL`));
    others = live.filter((n) => n.name !== node).length;
    const share = fairShares(live.map((n) => n.name)).get(node) ?? 0;

    if (owned.size > share) {
      // Give back the surplus: stop checking it first, then release it for the nodes below their share.
      const surplus = [...owned].sort((a, b) => b - a).slice(0, owned.size - share);
      await changed({ gained: [], lost: surplus });
      await db.orm
        .update(leases)
        .set({ node: null, instance: null, expiresAt: 0 })
        .where(and(inArray(leases.bucket, surplus), eq(leases.node, node), eq(leases.instance, instance)));
    } else if (owned.size < share) {
      // Free or expired buckets; the condition is checked again on the row itself, so two nodes never both get one.
      const claimable = or(sql`${leases.node} IS NULL`, lte(leases.expiresAt, at));
      const candidates = db.orm.select({ bucket: leases.bucket }).from(leases).where(claimable).orderBy(sql`random()`).limit(share - owned.size);
      const claimed = await db.orm
        .update(leases)
        .set({ node, instance, expiresAt: at + leaseMs, epoch: sql`${leases.epoch} + 1` })
        .where(and(inArray(leases.bucket, candidates), claimable))
        .returning({ bucket: leases.bucket });
      if (claimed.length) await changed({ gained: claimed.map((r) => r.bucket).sort((a, b) => a - b), lost: [] });
    }
    stats.ticks++;
    stats.lastTickAt = at;
    armFence();
  }

  /** Stops checking everything when the leases were not renewed in time (the database is unreachable, say). */
  function armFence() {
    clearTimeout(fence);
    if (stopped || owned.size === 0) return;
    fence = setTimeout(() => {
      if (monotonic() < validUntil || owned.size === 0) return armFence();
      log.warn("leases not renewed in time: this node stops checking until it can", { node, holding: owned.size });
      void changed({ gained: [], lost: [...owned] });
    }, Math.max(0, validUntil - monotonic()));
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((e) => {
          stats.failures++;
          log.error("lease renewal failed", { node, error: String((e as Error)?.message ?? e) });
        })
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, tickMs);
  }

  return {
    instance,
    /** Whether this node checks the monitor (or agent) with this id now. */
    /**
     * Whether this node checks the monitor or agent now: its bucket is held, and the last renewal is still good by the
     * local clock. Asked as each check starts, so a node whose event loop stalled past its lease (a loaded machine)
     * does not run a check due meanwhile before its fence timer gets a turn: another node may hold the bucket by then.
     */
    owns: (id: number) => owned.has(bucketOf(id)) && monotonic() < validUntil,
    holding: () => owned.size,
    /** Live nodes besides this one, as of the last tick (0: alone, nobody to tell what happens here). */
    others: () => others,
    buckets: () => [...owned].sort((a, b) => a - b),
    stats: () => ({ ...stats, holding: owned.size }),

    /** Registers this node and takes its first share; then renews every tick. */
    async start() {
      stopped = false;
      await ensureRows();
      await tick();
      schedule();
    },

    /** One renewal now (tests drive the cluster tick by tick). */
    tick: () => tick(),

    /** Leaves the cluster cleanly: stops checking, releases every lease at once, marks the node stopped. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(fence);
      await running;
      const held = [...owned];
      if (held.length) await changed({ gained: [], lost: held });
      try {
        await db.orm.update(leases).set({ node: null, instance: null, expiresAt: 0 }).where(and(eq(leases.node, node), eq(leases.instance, instance)));
        await db.orm.update(nodes).set({ stoppedAt: await now(), leases: 0 }).where(and(eq(nodes.name, node), eq(nodes.instance, instance)));
      } catch (e) {
        log.warn("could not release leases on stop; they expire on their own", { node, error: String((e as Error)?.message ?? e) });
      }
    },
  };
}

export type Leases = ReturnType<typeof createLeases>;

/** The nodes view: every node with its heartbeat and leases; live ones first. */
export async function listNodes(db: Db, at: number, leaseMs = LEASE_MS) {
  const { clusterNodes: nodes, clusterLeases: leases } = db.t;
  const rows = await db.orm.select().from(nodes).orderBy(asc(nodes.name));
  const held = await db.orm
    .select({ node: leases.node, n: count() })
    .from(leases)
    .where(and(isNotNull(leases.node), gt(leases.expiresAt, at)))
    .groupBy(leases.node);
  const byNode = new Map(held.map((h) => [h.node, h.n]));
  return rows.map((r) => ({
    name: r.name,
    version: r.version,
    address: r.address,
    startedAt: r.startedAt,
    heartbeatAt: r.heartbeatAt,
    live: r.stoppedAt === null && r.heartbeatAt > at - leaseMs,
    stoppedAt: r.stoppedAt,
    leases: byNode.get(r.name) ?? 0,
  }));
}
