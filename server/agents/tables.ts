import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";
import type { ContainersSnapshot, Sample } from "./protocol";

// Agent tables (re-exported by server/db/schema.ts). Times are Unix ms.

export const agents = sqliteTable("agents", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** What its checks are called among a monitor's locations ("Frankfurt"); null: its name. */
  location: text("location"),
  /** sha256 of the agent's credential: a 256-bit random secret, so a fast hash is enough. */
  credentialHash: text("credential_hash").notNull().unique(),
  hostname: text("hostname").notNull().default(""),
  ips: text("ips", { mode: "json" }).$type<string[]>().notNull().default([]),
  os: text("os").notNull().default(""),
  kernel: text("kernel").notNull().default(""),
  arch: text("arch").notNull().default(""),
  agentVersion: text("agent_version").notNull().default(""),
  /** Seconds between the agent's samples, as it last reported. */
  interval: integer("interval").notNull().default(10),
  /** Host uptime in seconds at lastSeenAt. */
  uptime: real("uptime").notNull().default(0),
  lastSeenAt: integer("last_seen_at"),
  /** The address its last report came from (as the server saw it: behind trusted proxies, X-Forwarded-For). */
  lastAddress: text("last_address"),
  /** The newest full sample (every disk and interface with its sizes and counters), for lists after a restart. */
  latest: text("latest", { mode: "json" }).$type<Sample>(),
  /** The containers as the agent last saw them (null: it never said: an older agent). */
  containers: text("containers", { mode: "json" }).$type<ContainersSnapshot>(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** One-time registration tokens: only their hash is kept; single use; they expire. */
export const agentTokens = sqliteTable("agent_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull().unique(),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  agentId: integer("agent_id").references(() => agents.id, { onDelete: "set null" }),
});

/**
 * Values of one moment, keyed by series: "cpu", "memory", "load1", "load5", "load15", "disk:<mount point>",
 * "rx:<interface>", "tx:<interface>" (percent, or bytes per second for rx/tx). One row per sample keeps the
 * database small (≈ 200 bytes a sample) and every disk and interface separate.
 */
export type SeriesValues = Record<string, number>;

/** Raw samples, kept 24 h. Pruned per agent through the primary key. */
export const agentSamples = sqliteTable(
  "agent_samples",
  {
    agentId: integer("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
    time: integer("time").notNull(),
    values: text("values", { mode: "json" }).$type<SeriesValues>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.time] })],
);

/** Rollups: average and maximum of each series over a bucket (1 minute kept 30 d, 1 hour kept 365 d). */
const rollupColumns = () => ({
  agentId: integer("agent_id").notNull().references(() => agents.id, { onDelete: "cascade" }),
  time: integer("time").notNull(),
  avg: text("avg", { mode: "json" }).$type<SeriesValues>().notNull(),
  max: text("max", { mode: "json" }).$type<SeriesValues>().notNull(),
});
export const agentMinutely = sqliteTable("agent_minutely", rollupColumns(), (t) => [primaryKey({ columns: [t.agentId, t.time] })]);
export const agentHourly = sqliteTable("agent_hourly", rollupColumns(), (t) => [primaryKey({ columns: [t.agentId, t.time] })]);

export type AgentRow = typeof agents.$inferSelect;
