import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Failed sign-ins (wrong passwords and second-factor codes), when several nodes share one PostgreSQL database: every
 * node counts the same attempts, so a guesser spread over the nodes behind a load balancer gets no more tries than
 * against one. (On SQLite there is one node and the counts stay in its memory.) Rows older than the window are
 * deleted as new ones come.
 */
export const loginFailures = sqliteTable(
  "login_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** "account" (wrong passwords), "ip" or "code" (wrong second-factor codes, per account). */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("login_failures_scope_key_at").on(t.scope, t.key, t.at), index("login_failures_at").on(t.at)],
);
