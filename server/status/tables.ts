import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { agents } from "../agents/tables";
import { monitors } from "../db/schema";
import type { AnnouncementSeverity } from "./public";

// Status page tables (re-exported by server/db/schema.ts). One page per instance: the row with id 1.

export const statusPage = sqliteTable("status_page", {
  id: integer("id").primaryKey(),
  title: text("title").notNull().default(""),
  description: text("description").notNull().default(""),
  announcementSeverity: text("announcement_severity").$type<AnnouncementSeverity>(),
  announcementText: text("announcement_text"),
  announcementAt: integer("announcement_at"),
  updatedAt: integer("updated_at").notNull(),
});

// The selection, in page order. Deleting a monitor or agent removes it from the page (the cascade).
export const statusPageMonitors = sqliteTable("status_page_monitors", {
  monitorId: integer("monitor_id").primaryKey().references(() => monitors.id, { onDelete: "cascade" }),
  position: integer("position").notNull(),
});

export const statusPageAgents = sqliteTable("status_page_agents", {
  agentId: integer("agent_id").primaryKey().references(() => agents.id, { onDelete: "cascade" }),
  position: integer("position").notNull(),
});
