import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Several Vigil nodes on one PostgreSQL database (server/cluster/). On SQLite the one node registers too, so the UI
// and /healthz read the same tables either way.

/** Every node that has run against this database; a node is live while its heartbeat is recent. */
export const clusterNodes = sqliteTable("cluster_nodes", {
  name: text("name").primaryKey(),
  /** Random per process start: a restarted node does not renew the leases of its previous life. */
  instance: text("instance").notNull(),
  version: text("version").notNull(),
  /** Where it listens, for the nodes view. */
  address: text("address"),
  startedAt: integer("started_at").notNull(),
  heartbeatAt: integer("heartbeat_at").notNull(),
  /** Buckets it held at its last heartbeat. */
  leases: integer("leases").notNull().default(0),
  /** Set when it stopped cleanly (its leases were released at once). */
  stoppedAt: integer("stopped_at"),
});

/**
 * Which node checks which monitors: monitors fall into a fixed number of buckets (id modulo the count); each bucket
 * is leased to one node at a time for a short time and renewed while the node lives.
 */
export const clusterLeases = sqliteTable("cluster_leases", {
  bucket: integer("bucket").primaryKey(),
  node: text("node"),
  instance: text("instance"),
  expiresAt: integer("expires_at").notNull().default(0),
  /** Bumped at every change of holder. */
  epoch: integer("epoch").notNull().default(0),
});
