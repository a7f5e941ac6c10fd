// Monitors: their rows, and their latest state kept in memory (status, last result, failures in a row, TLS expiry,
// 24 hourly up/total counters for the list's uptime) so lists never touch the history tables.
import { asc, eq, gt, sql } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { MonitorRow } from "../db/schema";
import { fieldsOf, intern, rowOf } from "./stored-fields";
import { firstTypeFieldsOf } from "./types/first-settings";
import type { CheckOutcome } from "./types/check-type";
import { HOUR, readWatermarks } from "./history";
import type { CheckResult, DashboardCounts, DownMonitor, MonitorName, MonitorStatus, PingStats, PublicMonitor } from "./public";
import type { MonitorFields } from "./schemas";
import type { ListMonitor } from "./list-view";
import { checkRows, newestOfEach } from "./check-rows";
import type { PersistedState } from "./writer";

export { rowOf } from "./stored-fields";
export { bump, heartbeat, newRing, percent, uptime24h, type HourlyRing } from "./hourly-ring";
import { add, bump, heartbeat, newRing, RING, uptime24h, type HourlyRing } from "./hourly-ring";

export interface MonitorEntry {
  id: number;
  fields: MonitorFields;
  createdAt: number;
  updatedAt: number;
  state: PersistedState;
  /** The state changed since it was last queued for writing (only shutdown writes those). */
  unsaved: boolean;
  ring: HourlyRing;
  /** push: when listening started and the last silence recorded (memory only). */
  pushWatch: { since: number; missedAt: number | null };
  /** The first failed check of the current streak, before retries (memory only: null after a restart mid-streak). */
  failingSince: number | null;
  /** ping: the latest check's round trips and loss (set on ping monitors only; read back from it at start-up). */
  lastPing?: PingStats;
}

export interface Applied {
  from: MonitorStatus;
  to: MonitorStatus;
  /** The row should be written now: status or the failure count (up to the down threshold) changed. */
  persist: boolean;
}

const stateOf = (row: MonitorRow): PersistedState => ({
  status: intern(row.status),
  statusChangedAt: row.statusChangedAt,
  consecutiveFailures: row.consecutiveFailures,
  lastCheckedAt: row.lastCheckedAt,
  lastResponseTime: row.lastResponseTime,
  lastHttpStatus: row.lastHttpStatus,
  lastError: row.lastError,
  tlsExpiresAt: row.tlsExpiresAt,
  lastPushAt: row.lastPushAt,
});

export function toCheckResult(monitorId: number, o: CheckOutcome): CheckResult {
  const result: CheckResult = { monitorId, time: o.time, status: o.up ? "up" : "down", responseTime: o.responseTime, httpStatus: o.httpStatus, error: o.error, maintenance: o.maintenance === true };
  if (o.ping) result.ping = o.ping;
  return result;
}

export interface MonitorStoreOptions {
  /** What lists show for a monitor (its type's target). */
  targetOf?: (fields: MonitorFields) => string;
  /** The settings as replies show them (secrets masked; the check types' view). */
  settingsView?: (fields: MonitorFields) => Record<string, unknown>;
  /** Whether a monitor is in maintenance now (server/maintenance): shown, and left out of the counts of up and down. */
  inMaintenance?: (id: number) => boolean;
}

/** Monitors read per query by load(). */
const LOAD_CHUNK = 2000;

export function createMonitorStore(db: Db, { targetOf = (f) => f.url, settingsView = (f) => f.settings, inMaintenance = () => false }: MonitorStoreOptions = {}) {
  const { orm, t } = db;
  const { monitors } = t;
  let entries = new Map<number, MonitorEntry>();
  /** push token → monitor id, for /api/push/{token}. */
  let byToken = new Map<string, number>();
  /** Monitors created, edited or removed while load() reads (see load). */
  let touchedWhileLoading: Set<number> | null = null;

  const index = (entry: MonitorEntry) => {
    if (entry.fields.pushToken) byToken.set(entry.fields.pushToken, entry.id);
  };

  const entryOf = (row: MonitorRow, now = Date.now()): MonitorEntry => ({
    id: row.id,
    fields: fieldsOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    state: stateOf(row),
    unsaved: false,
    ring: newRing(),
    pushWatch: { since: now, missedAt: null },
    failingSince: null,
  });

  /**
   * Reads every monitor, then fills in what the rows may lack after a crash: the latest result and the ring. In chunks
   * of LOAD_CHUNK monitors, so that no query materialises every row at once (the allocator keeps what a peak took).
   */
  async function load(now = Date.now()) {
    // Into new maps, swapped in once all are read: between chunks, the store keeps serving the monitors it had, and
    // goes on creating, editing and removing them. Those monitors keep what memory holds at the swap (the rows read
    // may be older than the write); without that a re-read (a node joining a cluster) lost a monitor created meanwhile.
    touchedWhileLoading = new Set();
    try {
      await loadInto(now);
    } finally {
      touchedWhileLoading = null;
    }
  }

  async function loadInto(now: number) {
    const loaded = new Map<number, MonitorEntry>();
    const tokens = new Map<string, number>();
    const since = (Math.floor(now / HOUR) - (RING - 1)) * HOUR;
    const watermark = Math.max(since, (await readWatermarks(db)).hourly ?? since);
    let lastId: number | undefined;
    for (;;) {
      const rows = await orm
        .select()
        .from(monitors)
        .where(lastId === undefined ? undefined : gt(monitors.id, lastId))
        .orderBy(asc(monitors.id))
        .limit(LOAD_CHUNK);
      for (const row of rows) {
        const entry = entryOf(row, now);
        loaded.set(row.id, entry);
        if (entry.fields.pushToken) tokens.set(entry.fields.pushToken, entry.id);
      }
      if (rows.length > 0) await fillIn(loaded, rows[0]!.id, rows[rows.length - 1]!.id, since, watermark);
      if (rows.length < LOAD_CHUNK) break;
      lastId = rows[rows.length - 1]!.id;
    }
    // A monitor memory already held stays the same object (a check running now records on it) and keeps what memory
    // alone knows (when its failures began, a push monitor's silence). The row gives its settings, and its state and
    // hourly ring when some node checked it after memory last heard (a message lost: what a re-read is for); else
    // memory's (this node's checks recorded while the rows were read, not written yet).
    for (const [id, read] of loaded) {
      const live = entries.get(id);
      if (!live || touchedWhileLoading!.has(id)) continue;
      live.fields = read.fields;
      live.createdAt = read.createdAt;
      live.updatedAt = read.updatedAt;
      if ((read.state.lastCheckedAt ?? -Infinity) > (live.state.lastCheckedAt ?? -Infinity)) {
        live.state = read.state;
        live.ring = read.ring;
        live.unsaved = false;
        if (read.lastPing) live.lastPing = read.lastPing;
        if (read.state.consecutiveFailures === 0) live.failingSince = null;
      }
      loaded.set(id, live);
    }
    for (const id of touchedWhileLoading!) {
      const live = entries.get(id);
      const read = loaded.get(id);
      if (read?.fields.pushToken) tokens.delete(read.fields.pushToken);
      if (live) loaded.set(id, live);
      else loaded.delete(id);
      if (live?.fields.pushToken) tokens.set(live.fields.pushToken, id);
    }
    entries = loaded;
    byToken = tokens;
  }

  /** The latest result and the hourly ring of the monitors with ids lo..hi (one chunk of load()). */
  async function fillIn(entries: Map<number, MonitorEntry>, lo: number, hi: number, since: number, watermark: number) {
    const chunk = sql`SELECT id FROM monitors WHERE id >= ${lo} AND id <= ${hi}`;
    // The newest result per monitor (a seek to the end of the monitor's key range).
    const latest = await newestOfEach(db, lo, hi);
    for (const r of latest) {
      const e = entries.get(r.monitor_id);
      if (!e) continue;
      // Raw SQL: SQLite hands the JSON text back, PostgreSQL the parsed jsonb.
      if (r.ping) e.lastPing = typeof r.ping === "string" ? (JSON.parse(r.ping) as PingStats) : r.ping;
      if ((e.state.lastCheckedAt ?? 0) >= r.time) continue;
      e.state.lastCheckedAt = r.time;
      e.state.lastResponseTime = r.response_time;
      e.state.lastHttpStatus = r.http_status;
      e.state.lastError = r.up ? null : r.error;
    }

    // The hourly ring: rolled-up hours from monitor_hourly, the rest from raw results.
    const hourly = await db.rows<{ monitor_id: number; bucket_start: number; checks: number; up: number }>(
      sql`SELECT monitor_id, bucket_start, checks, up FROM monitor_hourly
          WHERE monitor_id IN (${chunk}) AND bucket_start >= ${since} AND bucket_start < ${watermark}`,
    );
    for (const r of hourly) {
      const e = entries.get(r.monitor_id);
      if (e) add(e.ring, r.bucket_start / HOUR, r.checks, r.up);
    }
    const raw = await db.rows<{ monitor_id: number; hour: number; checks: number; up: number }>(
      // Checks made in maintenance are left out of uptime (as in the rollups).
      sql`SELECT monitor_id, time / ${sql.raw(String(HOUR))} AS hour, count(*) AS checks, sum(CASE WHEN up THEN 1 ELSE 0 END) AS up
          FROM ${checkRows(db.engine, watermark)} WHERE monitor_id IN (${chunk}) AND time >= ${watermark} AND NOT maintenance
          GROUP BY monitor_id, time / ${sql.raw(String(HOUR))}`,
    );
    for (const r of raw) {
      const e = entries.get(r.monitor_id);
      if (e) add(e.ring, r.hour, r.checks, r.up);
    }
  }

  return {
    load,
    get: (id: number) => entries.get(id),
    /** The monitor a push token belongs to. */
    byPushToken: (token: string) => {
      const id = byToken.get(token);
      return id === undefined ? undefined : entries.get(id);
    },
    all: () => [...entries.values()],
    get size() {
      return entries.size;
    },

    async create(fields: MonitorFields, now = Date.now()): Promise<MonitorEntry> {
      const [row] = await orm.insert(monitors).values({ ...rowOf(fields), createdAt: now, updatedAt: now }).returning();
      const entry = entryOf(row!, now);
      touchedWhileLoading?.add(entry.id);
      entries.set(entry.id, entry);
      index(entry);
      return entry;
    },

    /**
     * Writes new fields; the in-memory state is written along (it is current). If a check changed the state while
     * the row was being written, the entry is left `unsaved` (the row holds the older state): the caller queues it.
     */
    async update(id: number, fields: MonitorFields, now = Date.now()): Promise<MonitorEntry | undefined> {
      touchedWhileLoading?.add(id);
      const entry = entries.get(id);
      if (!entry) return undefined;
      const state = { ...entry.state };
      const wasUnsaved = entry.unsaved;
      entry.unsaved = false;
      let row: MonitorRow | undefined;
      try {
        row = await first(orm.update(monitors).set({ ...rowOf(fields), ...state, updatedAt: now }).where(eq(monitors.id, id)).returning());
      } catch (e) {
        entry.unsaved ||= wasUnsaved;
        throw e;
      }
      if (!row) {
        if (entries.get(id) === entry) entries.delete(id);
        return undefined;
      }
      touchedWhileLoading?.add(id); // (a load may have begun while it was written)
      if (entries.get(id) !== entry) return undefined; // removed while it was written
      if (entry.fields.pushToken && entry.fields.pushToken !== row.pushToken) byToken.delete(entry.fields.pushToken);
      entry.fields = fieldsOf(row);
      index(entry);
      entry.updatedAt = row.updatedAt;
      if ((Object.keys(state) as (keyof PersistedState)[]).some((k) => state[k] !== entry.state[k])) entry.unsaved = true;
      return entry;
    },

    /**
     * Re-reads one row after another node of the cluster changed it: new fields, while memory keeps its state (it
     * follows every node's checks and is newer than the row). Undefined when the monitor is gone.
     */
    async refresh(id: number, now = Date.now()): Promise<MonitorEntry | undefined> {
      const row = await first(orm.select().from(monitors).where(eq(monitors.id, id)));
      touchedWhileLoading?.add(id);
      const entry = entries.get(id);
      if (entry?.fields.pushToken && entry.fields.pushToken !== row?.pushToken) byToken.delete(entry.fields.pushToken);
      if (!row) {
        entries.delete(id);
        return undefined;
      }
      if (!entry) {
        const created = entryOf(row, now);
        entries.set(id, created);
        index(created);
        return created;
      }
      entry.fields = fieldsOf(row);
      entry.updatedAt = row.updatedAt;
      index(entry);
      return entry;
    },

    /**
     * Deletes a monitor; its rollups go with it (ON DELETE CASCADE), and so do its checks: on SQLite by their foreign
     * key, on PostgreSQL (whose checks have none, migration 0032) deleted here, rows and packed blocks. A batch the
     * writer had already guarded with EXISTS may still commit a last check after this: such a check is never read
     * (every read goes by existing monitor) and leaves with its day's partition.
     */
    async remove(id: number): Promise<boolean> {
      touchedWhileLoading?.add(id);
      const token = entries.get(id)?.fields.pushToken;
      if (token) byToken.delete(token);
      const existed = entries.delete(id);
      const deleted = await db.tx(async (tx) => {
        const gone = await tx.delete(monitors).where(eq(monitors.id, id)).returning({ id: monitors.id });
        if (db.engine === "postgres") {
          await db.exec(sql`DELETE FROM check_results WHERE monitor_id = ${id}`, tx);
          await db.exec(sql`DELETE FROM check_blocks WHERE monitor_id = ${id}`, tx);
        }
        return gone;
      });
      touchedWhileLoading?.add(id);
      return existed || deleted.length > 0;
    },

    /**
     * Applies a check to the state: up resets the failures; a failure counts, and the monitor is down once
     * retries + 1 checks in a row failed (until then it keeps its status, pending included).
     */
    apply(entry: MonitorEntry, o: CheckOutcome): Applied {
      const s = entry.state;
      const from = s.status;
      const failuresBefore = s.consecutiveFailures;
      // A monitor's checks have distinct start times (they key check_results): one that started at or before the
      // previous one's millisecond (a manual check beside a scheduled one, a stopped clock) is recorded just after it.
      if (s.lastCheckedAt !== null && o.time <= s.lastCheckedAt) o.time = s.lastCheckedAt + 1;
      s.lastCheckedAt = o.time;
      s.lastResponseTime = o.responseTime;
      s.lastHttpStatus = o.httpStatus;
      s.lastError = o.error;
      if (o.ping) entry.lastPing = o.ping;
      let to: MonitorStatus = from;
      if (o.up) {
        s.consecutiveFailures = 0;
        entry.failingSince = null;
        to = "up";
      } else {
        if (s.consecutiveFailures === 0) entry.failingSince = o.time;
        s.consecutiveFailures++;
        if (s.consecutiveFailures > entry.fields.retries) to = "down";
      }
      if (to !== from) {
        s.status = to;
        s.statusChangedAt = o.time;
      }
      // Uptime leaves maintenance out: a check made in it is recorded, not counted.
      if (!o.maintenance) bump(entry.ring, o.time, o.up);
      const persist = to !== from || (s.consecutiveFailures !== failuresBefore && s.consecutiveFailures <= entry.fields.retries + 1);
      entry.unsaved = !persist;
      return { from, to, persist };
    },

    /** Every monitor's name record (GET /api/monitors/names): read from the fields, without building whole monitors. */
    names(): MonitorName[] {
      const names: MonitorName[] = [];
      for (const { id, fields: f } of entries.values()) names.push({ id, name: f.name, type: f.type, target: targetOf(f), parentId: f.parentId, tags: f.tags, active: f.active });
      return names;
    },

    /**
     * What the monitor list orders on, for every monitor (GET /api/monitors/page): a few fields each, where whole
     * monitors would build a 24-hour heartbeat and every setting for each of 100 000 monitors.
     */
    listFields(now = Date.now()): ListMonitor[] {
      const out: ListMonitor[] = [];
      for (const entry of entries.values()) {
        const { fields: f, state: s } = entry;
        out.push({ id: entry.id, name: f.name, target: targetOf(f), tags: f.tags, active: f.active, status: s.status, maintenance: inMaintenance(entry.id), responseTime: s.lastResponseTime, uptime24h: uptime24h(entry.ring, now), parentId: f.parentId });
      }
      return out;
    },

    /** The monitor as the API shows it, but for what the service adds (its dependencies). */
    toPublic(entry: MonitorEntry, now = Date.now()): Omit<PublicMonitor, "dependsOn" | "unreachable"> {
      const f = entry.fields;
      const s = entry.state;
      return {
        id: entry.id,
        name: f.name,
        type: f.type,
        tags: f.tags,
        target: targetOf(f),
        ...firstTypeFieldsOf(f),
        intervalSeconds: f.intervalSeconds,
        retryIntervalSeconds: f.retryIntervalSeconds,
        interval: f.intervalSeconds / 60,
        timeout: f.timeout,
        active: f.active,
        retries: f.retries,
        upsideDown: f.upsideDown,
        objective: f.objective,
        objectiveDays: f.objectiveDays,
        parentId: f.parentId,
        groupRule: f.groupRule,
        settings: settingsView(f),
        pushToken: f.type === "push" ? f.pushToken : null,
        lastPushAt: s.lastPushAt,
        createdAt: entry.createdAt,
        updatedAt: entry.updatedAt,
        status: s.status,
        maintenance: inMaintenance(entry.id),
        statusChangedAt: s.statusChangedAt,
        consecutiveFailures: s.consecutiveFailures,
        lastCheckedAt: s.lastCheckedAt,
        responseTime: s.lastResponseTime,
        httpStatus: s.lastHttpStatus,
        lastError: s.lastError,
        uptime24h: uptime24h(entry.ring, now),
        tlsExpiresAt: s.tlsExpiresAt,
        ping: f.type === "ping" ? (entry.lastPing ?? null) : null,
        heartbeat: heartbeat(entry.ring, now),
      };
    },

    uptime24h: (entry: MonitorEntry, now = Date.now()) => uptime24h(entry.ring, now),

    counts(): DashboardCounts {
      const c: DashboardCounts = { totalMonitors: entries.size, activeMonitors: 0, pausedMonitors: 0, up: 0, down: 0, pending: 0, maintenance: 0 };
      for (const e of entries.values()) {
        if (!e.fields.active) {
          c.pausedMonitors++;
          continue;
        }
        c.activeMonitors++;
        if (inMaintenance(e.id)) c.maintenance++;
        else c[e.state.status]++;
      }
      return c;
    },

    /** Active monitors that are down (and not in maintenance), longest down first. */
    down(): DownMonitor[] {
      const down: DownMonitor[] = [];
      for (const e of entries.values()) {
        if (e.fields.active && e.state.status === "down" && !inMaintenance(e.id)) {
          down.push({ id: e.id, name: e.fields.name, error: e.state.lastError, since: e.state.statusChangedAt });
        }
      }
      return down.sort((a, b) => (a.since ?? 0) - (b.since ?? 0) || a.id - b.id);
    },
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;
