import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";

// Registration tables (re-exported by server/db/schema.ts). Times are Unix ms.

/** One-time invite links an admin sends: only the token's hash is kept; single use; they expire. */
export const invites = sqliteTable("invites", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull().unique(),
  /** The role the invited account gets. */
  role: text("role", { enum: ["admin", "editor", "viewer"] }).notNull().default("editor"),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  usedBy: integer("used_by").references(() => users.id, { onDelete: "set null" }),
});

export type InviteRow = typeof invites.$inferSelect;
