import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { monitors } from "../db/schema";
import type { PingStats } from "../monitors/public";
import { LOCATION_RULES } from "./public";

// Where a monitor is checked from (re-exported by server/db/schema.ts). A monitor without a row is checked from the
// server alone, as before locations existed: the common case costs nothing.


export const monitorLocations = sqliteTable("monitor_locations", {
  monitorId: integer("monitor_id")
    .primaryKey()
    .references(() => monitors.id, { onDelete: "cascade" }),
  /** The server checks it too (one of the locations). */
  fromServer: integer("from_server", { mode: "boolean" }).notNull().default(true),
  /** The agents that check it. A deleted agent is left out when read (and dropped with the next save). */
  agentIds: text("agent_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
  /** When the monitor is down: a majority of the locations that reported, any, all, or at least `count`. */
  rule: text("rule", { enum: LOCATION_RULES }).notNull().default("majority"),
  count: integer("count"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Each location's own checks of a monitor (the monitor's check_results hold the combined verdict). `agent_id` 0 is
 * the server itself; no foreign key on it for that reason: a deleted agent's rows go with retention. Unique on
 * (monitor, agent, time): an agent resending results after a lost reply or a restart stores nothing twice.
 */
export const probeResults = sqliteTable(
  "probe_results",
  {
    id: integer("id").primaryKey(),
    monitorId: integer("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    agentId: integer("agent_id").notNull(),
    time: integer("time").notNull(),
    up: integer("up", { mode: "boolean" }).notNull(),
    responseTime: integer("response_time"),
    httpStatus: integer("http_status"),
    error: text("error"),
    ping: text("ping", { mode: "json" }).$type<PingStats>(),
  },
  (t) => [uniqueIndex("probe_results_monitor_agent_time").on(t.monitorId, t.agentId, t.time), index("probe_results_time").on(t.time)],
);

export type MonitorLocationsRow = typeof monitorLocations.$inferSelect;
export type ProbeResultRow = typeof probeResults.$inferSelect;
