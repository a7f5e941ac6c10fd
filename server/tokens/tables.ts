import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";
import { TOKEN_SCOPES } from "./public";

// API token tables (re-exported by server/db/schema.ts). Times are Unix ms.

/**
 * Personal API tokens: a user's long-lived credential for scripts. Only the secret's sha256 is kept (the secret is
 * 256 random bits, so a slow hash would add nothing). Deleting the user deletes their tokens (the cascade).
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /**
     * read | write | full (tokens/public.ts). Every new token names its scope; the column default only serves the
     * tokens that existed before scopes (migration 0008), which keep working as read-write, user management aside.
     */
    scope: text("scope", { enum: TOKEN_SCOPES }).notNull().default("write"),
    /** sha256 hex of the secret: every authenticated API call looks a token up by it. */
    tokenHash: text("token_hash").notNull(),
    /** The first characters of the secret after its marker, so a user can tell their tokens apart in the list. */
    prefix: text("prefix").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Null: never expires. */
    expiresAt: integer("expires_at"),
    /** Updated at most once a minute per token: a script calling in a loop must not turn every read into a write. */
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_unique").on(t.tokenHash),
    // Names are unique per user, ignoring case ("CI" and "ci" would be confused in the list). Led by user_id, it
    // also serves the list and the cascade when a user is deleted.
    uniqueIndex("api_tokens_user_name_unique").on(t.userId, sql`lower(${t.name})`),
  ],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
