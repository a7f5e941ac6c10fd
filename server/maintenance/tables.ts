import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { agents } from "../agents/tables";
import { monitors } from "../db/schema";
import type { ScheduleKind } from "./schedule";

// Maintenance windows (re-exported by server/db/schema.ts). A window's schedule is in its own columns (see
// schedule.ts for what each means); what it covers is `scope` "all", or the monitors and agents listed beside it.

export const maintenanceWindows = sqliteTable("maintenance_windows", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  scope: text("scope", { enum: ["all", "targets"] }).notNull(),
  kind: text("kind").$type<ScheduleKind>().notNull(),
  startsAt: integer("starts_at"),
  endsAt: integer("ends_at"),
  time: text("time"),
  weekdays: text("weekdays", { mode: "json" }).$type<number[]>().notNull().default([]),
  monthDays: text("month_days", { mode: "json" }).$type<number[]>().notNull().default([]),
  cron: text("cron"),
  durationMinutes: integer("duration_minutes"),
  timezone: text("timezone").notNull(),
  activeFrom: integer("active_from"),
  activeUntil: integer("active_until"),
  /** Ended early at this instant (the occurrence in progress then stops there; later ones still come). */
  cutAt: integer("cut_at"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

// What a "targets" window covers. Deleting a monitor or agent takes it out of its windows (the cascade).
export const maintenanceMonitors = sqliteTable(
  "maintenance_monitors",
  {
    windowId: integer("window_id").notNull().references(() => maintenanceWindows.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.windowId, t.monitorId] }), index("maintenance_monitors_monitor").on(t.monitorId)],
);

export const maintenanceAgents = sqliteTable(
  "maintenance_agents",
  {
    windowId: integer("window_id").notNull().references(() => maintenanceWindows.id, { onDelete: "cascade" }),
    agentId: integer("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.windowId, t.agentId] }), index("maintenance_agents_agent").on(t.agentId)],
);

export type MaintenanceWindowRow = typeof maintenanceWindows.$inferSelect;
