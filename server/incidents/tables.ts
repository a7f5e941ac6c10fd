import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { agents } from "../agents/tables";
import { monitors, users } from "../db/schema";
import { statusPage } from "../status/tables";
import type { IncidentImpact, IncidentState } from "./public";

// Incidents (re-exported by server/db/schema.ts): what the operator tells people about an outage, in their own words.
// `state` is the latest update's, kept on the row so lists and pages filter on it without reading the timeline.

export const incidents = sqliteTable(
  "incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    impact: text("impact").$type<IncidentImpact>().notNull(),
    state: text("state").$type<IncidentState>().notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** When the update that resolved it was posted (null while open). */
    resolvedAt: integer("resolved_at"),
  },
  (t) => [index("incidents_created").on(t.createdAt)],
);

/** The timeline: newest last. */
export const incidentUpdates = sqliteTable(
  "incident_updates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    state: text("state").$type<IncidentState>().notNull(),
    /** Plain text: shown as text (links made clickable, line breaks kept), never as HTML. */
    message: text("message").notNull(),
    /** When it happened (the author may date it back); the timeline is ordered by it. */
    at: integer("at").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("incident_updates_incident").on(t.incidentId, t.at)],
);

// What an incident affects, and the status pages it is posted on besides those showing what it affects.
export const incidentMonitors = sqliteTable(
  "incident_monitors",
  {
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.incidentId, t.monitorId] }), index("incident_monitors_monitor").on(t.monitorId)],
);

export const incidentAgents = sqliteTable(
  "incident_agents",
  {
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    agentId: integer("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.incidentId, t.agentId] }), index("incident_agents_agent").on(t.agentId)],
);

export const incidentPages = sqliteTable(
  "incident_pages",
  {
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    pageId: integer("page_id").notNull().references(() => statusPage.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.incidentId, t.pageId] })],
);

export type IncidentRow = typeof incidents.$inferSelect;
export type IncidentUpdateRow = typeof incidentUpdates.$inferSelect;
