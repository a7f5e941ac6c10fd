import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../db/schema";
import type { AckVia } from "../problems/public";
import type { ChannelType, NotificationEvent, QuietHours } from "./public";
import type { Importance } from "./quiet-hours";
import type { NotificationMessage } from "./providers/provider";
import type { ChannelTemplates } from "./templates";

// Notification tables (re-exported by server/db/schema.ts). Times are Unix ms.

/**
 * A place messages go. `config` holds the secrets as given: only the server reads them; replies mask them. A channel
 * with an owner is that person's own contact channel (/api/me/channels): only they see it, and the team's settings and
 * policies cannot name it (escalation pages people through it).
 */
export const notificationChannels = sqliteTable("notification_channels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type").$type<ChannelType>().notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  /** Message templates by event kind (templates.ts); null: the built-in messages. */
  templates: text("templates", { mode: "json" }).$type<ChannelTemplates>(),
  /** When low-importance alerts wait (quiet-hours.ts); null: never. */
  quietHours: text("quiet_hours", { mode: "json" }).$type<QuietHours>(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  lastSuccessAt: integer("last_success_at"),
  lastFailureAt: integer("last_failure_at"),
  lastError: text("last_error"),
  /**
   * The storm pacing, shared by every node: when the channel's last message was composed, and the wait after it
   * (doubled while events keep coming). Written in the transaction that composes a message.
   */
  pacedAt: integer("paced_at").notNull().default(0),
  paceGap: integer("pace_gap").notNull().default(0),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
}, (t) => [index("notification_channels_owner").on(t.ownerUserId)]);

/** A person's quiet hours, over all their own contact channels (a channel's own quiet hours apply too). */
export const userQuietHours = sqliteTable("user_quiet_hours", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  quietHours: text("quiet_hours", { mode: "json" }).$type<QuietHours>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** A monitor's or agent's own settings, replacing the global part for it (the global ones are in `settings`). */
export const notificationOverrides = sqliteTable(
  "notification_overrides",
  {
    targetType: text("target_type").$type<"monitor" | "agent">().notNull(),
    targetId: integer("target_id").notNull(),
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.targetType, t.targetId] })],
);

/**
 * What has been alerted and not yet cleared, per target and condition ("down", "offline", "cpu", "disk:/data"): a
 * recovery or "online" is sent only for a sent alert, a threshold alert only once until usage falls back, and this
 * survives a restart. Each row is an open problem (server/problems/): its acknowledgement lives on it, so clearing
 * the alert (a recovery) clears the acknowledgement, and the next occurrence starts unacknowledged.
 */
export const notificationAlerts = sqliteTable(
  "notification_alerts",
  {
    targetType: text("target_type").$type<"monitor" | "agent">().notNull(),
    targetId: integer("target_id").notNull(),
    condition: text("condition").notNull(),
    since: integer("since").notNull(),
    /** The last alert or reminder sent for it (reminders count from here). */
    lastNotifiedAt: integer("last_notified_at").notNull(),
    /** When someone said "I am on it" (null: nobody yet); reminders (and escalation) leave an acknowledged alert alone. */
    ackedAt: integer("acked_at"),
    /** Who did, when it was a user (null for a signed link; set null when the account is deleted: the name stays). */
    ackedBy: integer("acked_by").references(() => users.id, { onDelete: "set null" }),
    /** Their username then, or "via link (<channel name>)" for a signed link. */
    ackedByName: text("acked_by_name"),
    /** The name of the channel a signed link came through (its message carried the link); null otherwise. */
    ackedChannel: text("acked_channel"),
    ackVia: text("ack_via").$type<AckVia>(),
  },
  (t) => [primaryKey({ columns: [t.targetType, t.targetId, t.condition] })],
);

/**
 * The outbox, part 1: one row per event per channel, written before anything is sent. (channel, event key) is unique,
 * so the same event never reaches a channel twice. A row joins a message (message_id) when it is sent.
 */
export const notificationEvents = sqliteTable(
  "notification_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => notificationChannels.id, { onDelete: "cascade" }),
    eventKey: text("event_key").notNull(),
    event: text("event", { mode: "json" }).$type<NotificationEvent>().notNull(),
    /** importanceOf(event), kept when queued: during quiet hours only high events leave (compose() asks by it). */
    importance: text("importance").$type<Importance>().notNull().default("high"),
    createdAt: integer("created_at").notNull(),
    messageId: integer("message_id").references(() => notificationMessages.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("notification_events_channel_key").on(t.channelId, t.eventKey), index("notification_events_unsent").on(t.channelId, t.messageId)],
);

/**
 * The outbox, part 2: one message to one channel carrying one event or a group of them, with its delivery: tried
 * with backoff until the provider accepts it or it has failed for good. A channel has at most one pending message
 * at a time (composed only when none is pending), so its messages leave in order.
 */
export const notificationMessages = sqliteTable(
  "notification_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => notificationChannels.id, { onDelete: "cascade" }),
    message: text("message", { mode: "json" }).$type<NotificationMessage>().notNull(),
    status: text("status").$type<"pending" | "sent" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    sentAt: integer("sent_at"),
    error: text("error"),
    /**
     * The node sending it now, and until when that claim holds (the database's clock): other nodes leave a claimed
     * message alone until the claim expires (its node died mid-send), then it may be claimed again.
     */
    claimedBy: text("claimed_by"),
    claimedUntil: integer("claimed_until"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("notification_messages_due").on(t.status, t.nextAttemptAt), index("notification_messages_channel").on(t.channelId, t.id)],
);
