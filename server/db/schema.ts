import { sql } from "drizzle-orm";
import { MONITOR_TYPES, type PingStats } from "../monitors/public";
import { blob, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

// Every table of the instance. Times are Unix milliseconds (UTC).

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    email: text("email"),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["admin", "editor", "viewer"] }).notNull().default("editor"),
    status: text("status", { enum: ["active", "disabled"] }).notNull().default("active"),
    // Bumped when a password is reset or changed: tokens carry it, so older tokens stop working.
    sessionVersion: integer("session_version").notNull().default(0),
    /** When two-factor sign-in (TOTP) was turned on; null: off (server/auth/two-factor/). */
    twoFactorAt: integer("two_factor_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // Case-insensitive uniqueness: "Alice" and "alice" are the same person.
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
  ],
);

/** Instance-wide key/value settings. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export type UserRow = typeof users.$inferSelect;

// Agent and registration tables live beside their code.
export * from "../agents/tables";
export * from "../registration/tables";
export * from "../notifications/tables";
export * from "../status/tables";
export * from "../tokens/tables";
export * from "../cluster/tables";
export * from "../auth/tables";
export * from "../maintenance/tables";
export * from "../incidents/tables";
export * from "../probes/tables";

// ── Monitors ─────────────────────────────────────────────────────────────────────────────────────────────────────

export const MONITOR_STATUSES = ["pending", "up", "down"] as const;
export const MONITOR_TYPE_VALUES = MONITOR_TYPES;
/** How a group's state follows its members: the worst of them, or down only when all of them are. */
export const GROUP_RULE_VALUES = ["worst", "all"] as const;

/**
 * A monitor: its configuration, and its latest state (also kept in memory; written when it changes). What every type
 * has is a column; what its check reads is the one JSON object `settings`, declared, defaulted and validated by the
 * type's schema (server/monitors/types/<type>/settings.ts), for the first five types as for the later ones
 * (migration 0031 moved the first five's columns into it).
 */
export const monitors = sqliteTable("monitors", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  type: text("type", { enum: MONITOR_TYPE_VALUES }).notNull().default("http"),
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  /** Seconds between checks (migration 0028 turned the minutes kept before into seconds; the API still takes minutes too). */
  intervalSeconds: integer("interval").notNull(),
  /** Seconds between checks while a failure is being retried (before the monitor is down); null: the interval. */
  retryIntervalSeconds: integer("retry_interval"),
  /** Milliseconds before a check gives up (0028: was whole seconds); fields and the API speak seconds, fractions allowed. */
  timeoutMs: integer("timeout").notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  /** Failed checks tolerated before the monitor is down: it takes retries + 1 failures in a row. */
  retries: integer("retries").notNull().default(1),
  // push: the token stays a column (unique, looked up by every call), the last call is state.
  pushToken: text("push_token").unique(),
  lastPushAt: integer("last_push_at"),
  /** Up when the check fails and down when it passes (any type). */
  upsideDown: integer("upside_down", { mode: "boolean" }).notNull().default(false),
  /** The group this monitor belongs to (a monitor of type "group"); null: top level. */
  parentId: integer("parent_id").references((): AnySQLiteColumn => monitors.id, { onDelete: "set null" }),
  /** type "group": how its state follows its members. */
  groupRule: text("group_rule", { enum: GROUP_RULE_VALUES }).notNull().default("worst"),
  /** The type's own settings, one JSON object declared by the type (server/monitors/types/<type>/settings.ts). */
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  status: text("status", { enum: MONITOR_STATUSES }).notNull().default("pending"),
  statusChangedAt: integer("status_changed_at"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  lastCheckedAt: integer("last_checked_at"),
  lastResponseTime: integer("last_response_time"),
  lastHttpStatus: integer("last_http_status"),
  lastError: text("last_error"),
  tlsExpiresAt: integer("tls_expires_at"),
  /**
   * Availability objective in percent (e.g. 99.9) over a rolling window of `objectiveDays`; null: none. Its error
   * budget and burn-rate alerts: server/objectives/.
   */
  objective: real("objective"),
  objectiveDays: integer("objective_days").notNull().default(30),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * One row per check, kept for the raw retention (7 days by default), then only in the rollups. Clustered by
 * (monitor, start time): the key is the only index, so a check costs one b-tree entry (≈ 26 B at 100 000 monitors,
 * against ≈ 48 B for a rowid table plus a (monitor_id, time) index), and a monitor's history is read from adjacent
 * pages. A monitor's checks therefore have distinct start times: store.apply records a
 * check after its predecessor's millisecond, and the writer moves any row that still meets a taken key to the next
 * free one (server/monitors/writer.ts).
 *
 * SQLite: the table is WITHOUT ROWID. drizzle-kit does not know that clause (its migration 0024 was edited by hand),
 * so a later migration that rebuilds this table must keep it; server/monitors/migration.test.ts checks it is there.
 */
export const checkResults = sqliteTable(
  "check_results",
  {
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
    /** When the check started. */
    time: integer("time").notNull(),
    up: integer("up", { mode: "boolean" }).notNull(),
    /** Milliseconds; null when no response came (timeout, refused, DNS…). */
    responseTime: integer("response_time"),
    httpStatus: integer("http_status"),
    error: text("error"),
    /** Made while the monitor was in maintenance: shown, left out of uptime (0 costs no byte in a SQLite record). */
    maintenance: integer("maintenance", { mode: "boolean" }).notNull().default(false),
    /** ping checks only: round trips and loss (null costs one header byte in a SQLite record). */
    ping: text("ping", { mode: "json" }).$type<PingStats>(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.time] })],
);

/**
 * What the page looked like when a browser check failed (server/monitors/screenshots.ts): at most one per check, the
 * latest few per monitor, pruned with the raw results. Keyed like check_results; `error` is the check's sentence.
 */
export const checkScreenshots = sqliteTable(
  "check_screenshots",
  {
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
    /** When the check started. */
    time: integer("time").notNull(),
    error: text("error"),
    png: blob("png", { mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.time] })],
);

/** Per-hour and per-day rollups of check_results, keyed (monitor, bucket start) so re-running a rollup is harmless. */
function rollupTable<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
      bucketStart: integer("bucket_start").notNull(),
      /** Checks outside maintenance (what uptime counts), and how many of them were up and down. */
      checks: integer("checks").notNull(),
      up: integer("up").notNull(),
      down: integer("down").notNull(),
      /** Checks made in maintenance (not in `checks`). */
      maintenance: integer("maintenance").notNull().default(0),
      /** Sum and count of the response times present (failed checks may have none): avg = rtSum / rtCount. */
      rtSum: integer("rt_sum").notNull(),
      rtCount: integer("rt_count").notNull(),
      rtMin: integer("rt_min"),
      rtMax: integer("rt_max"),
      /**
       * Response times as a histogram, for percentiles: JSON {bin: count}, bin = floor(ln(ms + 1) / ln(1.1)), so a
       * percentile read from it is within 5 % (server/reports/histogram.ts). Null for rollups made before it existed.
       */
      rtHist: text("rt_hist"),
    },
    (t) => [primaryKey({ columns: [t.monitorId, t.bucketStart] })],
  );
}

export const monitorHourly = rollupTable("monitor_hourly");
export const monitorDaily = rollupTable("monitor_daily");

/**
 * Dependencies: while a monitor this one depends on is down, this one's failures are recorded as unreachable and
 * alert nobody (server/monitors/dependencies).
 */
export const monitorDependencies = sqliteTable(
  "monitor_dependencies",
  {
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
    dependsOnId: integer("depends_on_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.dependsOnId] })],
);

/** A tag's look: monitors keep tags as text ("env" or "env:prod"); a tag name here has a colour (#rrggbb). */
export const tagStyles = sqliteTable("tag_styles", {
  name: text("name").primaryKey(),
  color: text("color").notNull(),
});

/**
 * What an import created, by the source's own id (Kuma's monitor, notification, status page… ids), so importing the
 * same source again updates those objects instead of making copies (server/import/).
 */
export const importLinks = sqliteTable(
  "import_links",
  {
    source: text("source").notNull(),
    kind: text("kind").notNull(),
    sourceId: text("source_id").notNull(),
    targetId: integer("target_id").notNull(),
    importedAt: integer("imported_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.kind, t.sourceId] })],
);

export type MonitorRow = typeof monitors.$inferSelect;
export type CheckResultRow = typeof checkResults.$inferSelect;
export * from "../subscribers/tables";
export * from "../auth/two-factor/tables";
export * from "../auth/sso/tables";
export * from "../reports/tables";
export * from "../config-file/tables";
export * from "../push/tables";
export * from "../escalation/tables";
export * from "../oncall/tables";
