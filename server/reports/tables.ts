import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { monitors } from "../db/schema";

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
