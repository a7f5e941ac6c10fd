import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { monitors } from "../db/schema";
import { notificationChannels } from "../notifications/tables";

/**
 * Outages as reports list them, kept as long as the rollups (raw checks go after --raw-retention-days): a run of
 * failed checks counted in uptime, from the first failure to the first passing check after it. Written by the hourly
 * rollup from the raw checks of the hour it rolls up (server/reports/outages.ts), so they are the same checks the
 * charts count; a run still failing at the end of that hour stays open (ended_at null) and the next hour extends it.
 */
export const monitorOutages = sqliteTable(
  "monitor_outages",
  {
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
    /** The first failed check. */
    startedAt: integer("started_at").notNull(),
    /** The first passing check after the run; null while the run is still failing. */
    endedAt: integer("ended_at"),
    /** The latest failed check of the run (where the next hour continues it). */
    lastFailureAt: integer("last_failure_at").notNull(),
    /** Failed checks in the run, those made in maintenance left out. */
    failures: integer("failures").notNull(),
    /** The first failed check's error. */
    cause: text("cause"),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.startedAt] })],
);

/**
 * Reports mailed every month (server/reports/schedules.ts): the previous calendar month's report of a target, in a
 * zone, to chosen recipients through an SMTP channel. `lastPeriod` is the month last sent ("2026-10"): claimed by a
 * conditional update before sending, so one node sends each month once.
 */
export const reportSchedules = sqliteTable("report_schedules", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** monitor, group, tag, status-page (as GET /api/reports/:kind/:ref) */
  targetKind: text("target_kind").notNull(),
  targetRef: text("target_ref").notNull(),
  zone: text("zone").notNull(),
  /** The language of the mail: zh-CN or en-US. */
  language: text("language").notNull().default("zh-CN"),
  channelId: integer("channel_id").notNull().references(() => notificationChannels.id, { onDelete: "cascade" }),
  recipients: text("recipients", { mode: "json" }).$type<string[]>().notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  lastPeriod: text("last_period"),
  lastSentAt: integer("last_sent_at"),
  lastError: text("last_error"),
  /** Temporary failures of the month being retried, and not before when again: kept here so a restart or another
   *  node continues the count rather than starting it over. Cleared when the month is sent or given up. */
  retryAttempts: integer("retry_attempts").notNull().default(0),
  retryAfter: integer("retry_after"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
