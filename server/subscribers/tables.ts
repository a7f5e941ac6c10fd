import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { statusPage } from "../status/tables";

// Status-page subscribers and the notices mailed to them. Times are Unix ms.

/**
 * One address subscribed to one page. Pending until the confirmation link is followed (`confirmHash` is the SHA-256
 * of the link's token, which expires); confirmed addresses get the page's notices. `unsubscribeToken` is in every
 * mail's unsubscribe link; `baseUrl` is the address the visitor used, for the links in later mails.
 */
export const statusSubscribers = sqliteTable(
  "status_subscribers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pageId: integer("page_id").notNull().references(() => statusPage.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    confirmHash: text("confirm_hash"),
    confirmExpiresAt: integer("confirm_expires_at"),
    confirmedAt: integer("confirmed_at"),
    unsubscribeToken: text("unsubscribe_token").notNull(),
    baseUrl: text("base_url").notNull(),
    /** The last confirmation mail sent to it: at most one per address per RESEND_MS. */
    mailedAt: integer("mailed_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("status_subscribers_page_email").on(t.pageId, t.email),
    uniqueIndex("status_subscribers_unsubscribe").on(t.unsubscribeToken),
    index("status_subscribers_confirm").on(t.confirmHash),
  ],
);

/**
 * A notice for a page's subscribers (an incident update, a maintenance window), kept until every confirmed
 * subscriber has it: `cursor` is the last subscriber id mailed, so a restart resumes after them, not from the start.
 * With `email` set it is instead a subscribe request: a confirmation mail for that one address, which the worker
 * sends (or drops, for an address already confirmed or just mailed) and then deletes.
 */
export const statusNotices = sqliteTable(
  "status_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pageId: integer("page_id").notNull().references(() => statusPage.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    lines: text("lines", { mode: "json" }).$type<string[]>().notNull(),
    /** Subscribers confirmed after this do not get it (a notice is news of its moment). */
    createdAt: integer("created_at").notNull(),
    cursor: integer("cursor").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    doneAt: integer("done_at"),
    email: text("email"),
    /** The address the visitor used (a subscribe request's). */
    baseUrl: text("base_url"),
  },
  (t) => [index("status_notices_due").on(t.doneAt, t.nextAttemptAt)],
);
