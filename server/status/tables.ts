import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { agents } from "../agents/tables";
import { monitors } from "../db/schema";
import type { AnnouncementSeverity, StatusVisibility } from "./public";

// Status page tables (re-exported by server/db/schema.ts). Any number of pages; the row with id 1 is the default page
// (served at /status, never deleted).

export const statusPage = sqliteTable(
  "status_page",
  {
    id: integer("id").primaryKey(),
    /** `/status/{slug}`: lower-case letters, digits and dashes. */
    slug: text("slug").notNull().default("default"),
    title: text("title").notNull().default(""),
    description: text("description").notNull().default(""),
    /** An https URL or a data: URL of an image (PNG, JPEG, WebP, SVG), or null. */
    logo: text("logo"),
    /** A host name whose requests are served this page at `/` (status.example.com), or null. */
    customDomain: text("custom_domain"),
    visibility: text("visibility").$type<StatusVisibility>().notNull().default("public"),
    /** visibility "password": the password's hash; unlock tokens carry `passwordVersion`, so a new password ends them. */
    passwordHash: text("password_hash"),
    passwordVersion: integer("password_version").notNull().default(0),
    /**
     * A page that is not public: the secret of its feed link (`feed.atom?key=…`), for feed readers that cannot sign
     * in or unlock. A capability like an API token, kept readable so admins and editors can copy the link again; a new
     * one (or none) revokes the old link. Null: no feed link.
     */
    feedKey: text("feed_key"),
    announcementSeverity: text("announcement_severity").$type<AnnouncementSeverity>(),
    announcementText: text("announcement_text"),
    announcementAt: integer("announcement_at"),
    /** Monitors checked from several locations show each location's status and response time. */
    showLocations: integer("show_locations", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("status_page_slug").on(t.slug), uniqueIndex("status_page_domain").on(sql`lower(${t.customDomain})`)],
);

// What each page shows, in page order (`position` runs across monitors and agents), in named groups (""=no group).
// Deleting a monitor, agent or page removes its rows (the cascades).
export const statusPageMonitors = sqliteTable(
  "status_page_monitors",
  {
    pageId: integer("page_id").notNull().default(1).references(() => statusPage.id, { onDelete: "cascade" }),
    monitorId: integer("monitor_id").notNull().references(() => monitors.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    groupName: text("group_name").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.monitorId] })],
);

export const statusPageAgents = sqliteTable(
  "status_page_agents",
  {
    pageId: integer("page_id").notNull().default(1).references(() => statusPage.id, { onDelete: "cascade" }),
    agentId: integer("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    groupName: text("group_name").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.agentId] })],
);
