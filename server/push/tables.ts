import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";

// Web Push tables (re-exported by server/db/schema.ts). Times are Unix ms. The VAPID keys are a settings row
// (vapid.ts), not a table.

/**
 * A browser's push subscription (one per signed-in device that turned push on): where its push service takes messages
 * for it (`endpoint`) and the keys its payloads are encrypted to (RFC 8291). The endpoint is unique: subscribing it
 * again updates the row and moves it to whoever subscribed last. Deleting the user deletes their devices.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
    p256dh: text("p256dh").notNull(),
    /** The browser's authentication secret, base64url (16 bytes). */
    auth: text("auth").notNull(),
    /** What the device calls itself ("Chrome on Android"), to tell a user's devices apart. */
    label: text("label").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSuccessAt: integer("last_success_at"),
    /** The push service's answer to the last failed send; cleared by a success or a new subscription. */
    lastError: text("last_error"),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId)],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
