// Channels, settings (global and per target) and the delivery log: the storage side of notifications.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/open";
import { settings as settingsTable } from "../db/schema";
import { badRequest, notFound } from "../http/errors";
import { maskConfig, mergeSecrets } from "./providers/mask";
import { providerFor } from "./providers/index";
import {
  CHANNEL_TYPES,
  type AgentNotificationSettings,
  type ChannelType,
  type Delivery,
  type MonitorNotificationSettings,
  type NotificationSettings,
  type PublicChannel,
} from "./public";
import { notificationAlerts, notificationChannels, notificationEvents, notificationMessages, notificationOverrides } from "./tables";

const SETTINGS_KEY = "notifications";
/** A channel is shown as failing once this many sends in a row have failed for good. */
export const FAILING_AFTER = 3;

export const DEFAULT_SETTINGS: NotificationSettings = {
  monitor: { enabled: true, channelIds: [], events: { down: true, recovery: true }, reminderMinutes: 0 },
  agent: {
    enabled: true,
    channelIds: [],
    events: { offline: true, online: true, cpu: true, memory: true, disk: true },
    thresholds: { cpu: 90, memory: 90, disk: 90 },
  },
  language: "zh-CN",
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
};

type ChannelRow = typeof notificationChannels.$inferSelect;
export type TargetType = "monitor" | "agent";
export type TargetSettings<T extends TargetType> = T extends "monitor" ? MonitorNotificationSettings : AgentNotificationSettings;

export const channelNotFound = () => notFound("CHANNEL_NOT_FOUND", "Channel not found");

export function toPublicChannel(row: ChannelRow): PublicChannel {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    config: maskConfig(providerFor(row.type), row.config),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    health: {
      failing: row.consecutiveFailures >= FAILING_AFTER,
      consecutiveFailures: row.consecutiveFailures,
      lastSuccessAt: row.lastSuccessAt,
      lastFailureAt: row.lastFailureAt,
      lastError: row.lastError,
    },
  };
}

/** The provider's verdict on a config, as a 400 with its code and spec message. */
function validConfig(type: ChannelType, config: Record<string, unknown>): Record<string, unknown> {
  const checked = providerFor(type).validate(config);
  if (!checked.ok) throw badRequest(checked.error.code, checked.error.message);
  return checked.config as Record<string, unknown>;
}

function validName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) throw badRequest("CHANNEL_NAME_REQUIRED", "Channel name is required");
  if (trimmed.length > 100) throw badRequest("VALIDATION", "Channel name must be at most 100 characters");
  return trimmed;
}

function validType(type: unknown): ChannelType {
  if (!CHANNEL_TYPES.includes(type as ChannelType)) {
    throw badRequest("VALIDATION", `Channel type must be one of ${CHANNEL_TYPES.join(", ")}; got ${JSON.stringify(type)}`);
  }
  return type as ChannelType;
}

export function createNotificationStore(db: Db, now: () => number = Date.now) {
  const channelRow = (id: number) => db.select().from(notificationChannels).where(eq(notificationChannels.id, id)).get();

  function readGlobal(): NotificationSettings {
    const raw = db.select().from(settingsTable).where(eq(settingsTable.key, SETTINGS_KEY)).get()?.value;
    const stored = raw ? (JSON.parse(raw) as Partial<NotificationSettings>) : {};
    return {
      monitor: { ...DEFAULT_SETTINGS.monitor, ...stored.monitor, events: { ...DEFAULT_SETTINGS.monitor.events, ...stored.monitor?.events } },
      agent: {
        ...DEFAULT_SETTINGS.agent,
        ...stored.agent,
        events: { ...DEFAULT_SETTINGS.agent.events, ...stored.agent?.events },
        thresholds: { ...DEFAULT_SETTINGS.agent.thresholds, ...stored.agent?.thresholds },
      },
      language: stored.language ?? DEFAULT_SETTINGS.language,
      timeZone: stored.timeZone ?? DEFAULT_SETTINGS.timeZone,
    };
  }

  /** Refuses channel ids that do not exist (400), so settings never point nowhere. */
  function checkChannelIds(ids: number[]) {
    const unique = [...new Set(ids)];
    if (!unique.length) return unique;
    const found = db.select({ id: notificationChannels.id }).from(notificationChannels).where(inArray(notificationChannels.id, unique)).all();
    if (found.length !== unique.length) throw badRequest("CHANNEL_UNKNOWN", "One of the chosen channels does not exist");
    return unique;
  }

  // Settings are read on every event: cached, dropped on every write.
  let globalCache: NotificationSettings | null = null;
  const overrideCache = new Map<string, Record<string, unknown> | null>();

  return {
    // --- channels ----------------------------------------------------------------------------------------------
    listChannels: (): PublicChannel[] => db.select().from(notificationChannels).orderBy(notificationChannels.id).all().map(toPublicChannel),

    getChannel(id: number): PublicChannel {
      const row = channelRow(id);
      if (!row) throw channelNotFound();
      return toPublicChannel(row);
    },

    /** The stored channel with its secrets, for sending only. */
    channelForSending: (id: number): ChannelRow | undefined => channelRow(id),

    createChannel(input: { name: unknown; type: unknown; enabled?: boolean; config: Record<string, unknown> }): PublicChannel {
      const name = validName(input.name);
      const type = validType(input.type);
      const config = validConfig(type, input.config ?? {});
      const at = now();
      const row = db
        .insert(notificationChannels)
        .values({ name, type, enabled: input.enabled ?? true, config, createdAt: at, updatedAt: at })
        .returning()
        .get();
      return toPublicChannel(row);
    },

    /** Absent fields keep their value; secret config fields left out or sent back masked keep theirs. */
    updateChannel(id: number, input: { name?: unknown; type?: unknown; enabled?: boolean; config?: Record<string, unknown> }): PublicChannel {
      const row = channelRow(id);
      if (!row) throw channelNotFound();
      const name = input.name === undefined ? row.name : validName(input.name);
      const type = input.type === undefined ? row.type : validType(input.type);
      let config = row.config;
      if (input.config !== undefined || type !== row.type) {
        // A new type starts from nothing: another type's secrets must not leak into it.
        const incoming = input.config ?? {};
        config = validConfig(type, type === row.type ? mergeSecrets(providerFor(type), row.config, incoming) : incoming);
      }
      const updated = db
        .update(notificationChannels)
        .set({ name, type, config, enabled: input.enabled ?? row.enabled, updatedAt: now() })
        .where(eq(notificationChannels.id, id))
        .returning()
        .get();
      return toPublicChannel(updated);
    },

    /** Deletes the channel, its queued messages and its log, and takes it out of every setting. */
    deleteChannel(id: number) {
      if (!channelRow(id)) throw channelNotFound();
      db.transaction((tx) => {
        tx.delete(notificationChannels).where(eq(notificationChannels.id, id)).run();
        const global = readGlobal();
        const drop = (ids: number[]) => ids.filter((c) => c !== id);
        const value = JSON.stringify({ ...global, monitor: { ...global.monitor, channelIds: drop(global.monitor.channelIds) }, agent: { ...global.agent, channelIds: drop(global.agent.channelIds) } });
        tx.insert(settingsTable).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } }).run();
        for (const o of tx.select().from(notificationOverrides).all()) {
          const ids = (o.settings.channelIds as number[] | undefined) ?? [];
          if (ids.includes(id)) {
            tx.update(notificationOverrides)
              .set({ settings: { ...o.settings, channelIds: drop(ids) } })
              .where(and(eq(notificationOverrides.targetType, o.targetType), eq(notificationOverrides.targetId, o.targetId)))
              .run();
          }
        }
      });
      globalCache = null;
      overrideCache.clear();
    },

    /** Records a final outcome on the channel (its health in the list). */
    recordOutcome(id: number, outcome: { ok: true } | { ok: false; error: string }) {
      const row = channelRow(id);
      if (!row) return;
      const at = now();
      db.update(notificationChannels)
        .set(outcome.ok
          ? { consecutiveFailures: 0, lastSuccessAt: at }
          : { consecutiveFailures: row.consecutiveFailures + 1, lastFailureAt: at, lastError: outcome.error })
        .where(eq(notificationChannels.id, id))
        .run();
    },

    // --- settings ----------------------------------------------------------------------------------------------
    getSettings(): NotificationSettings {
      globalCache ??= readGlobal();
      return globalCache;
    },

    saveSettings(next: NotificationSettings): NotificationSettings {
      const value: NotificationSettings = {
        ...next,
        monitor: { ...next.monitor, channelIds: checkChannelIds(next.monitor.channelIds) },
        agent: { ...next.agent, channelIds: checkChannelIds(next.agent.channelIds) },
      };
      db.insert(settingsTable).values({ key: SETTINGS_KEY, value: JSON.stringify(value) })
        .onConflictDoUpdate({ target: settingsTable.key, set: { value: JSON.stringify(value) } }).run();
      globalCache = null;
      return this.getSettings();
    },

    /** The target's own settings, or null when the global ones apply. */
    getOverride<T extends TargetType>(type: T, id: number): TargetSettings<T> | null {
      const key = `${type}:${id}`;
      if (!overrideCache.has(key)) {
        const row = db.select().from(notificationOverrides)
          .where(and(eq(notificationOverrides.targetType, type), eq(notificationOverrides.targetId, id))).get();
        overrideCache.set(key, row?.settings ?? null);
      }
      return overrideCache.get(key) as TargetSettings<T> | null;
    },

    /** Which targets of a type have their own settings (for the lists that mark them). */
    overrideIds(type: TargetType): number[] {
      return db.select({ id: notificationOverrides.targetId }).from(notificationOverrides)
        .where(eq(notificationOverrides.targetType, type)).orderBy(notificationOverrides.targetId).all().map((r) => r.id);
    },

    /** The settings in force for a target: its own, or the global part. */
    effective<T extends TargetType>(type: T, id: number): TargetSettings<T> {
      return this.getOverride(type, id) ?? (this.getSettings()[type] as TargetSettings<T>);
    },

    saveOverride<T extends TargetType>(type: T, id: number, value: TargetSettings<T>): TargetSettings<T> {
      const settings = { ...value, channelIds: checkChannelIds(value.channelIds) } as Record<string, unknown>;
      db.insert(notificationOverrides).values({ targetType: type, targetId: id, settings, updatedAt: now() })
        .onConflictDoUpdate({ target: [notificationOverrides.targetType, notificationOverrides.targetId], set: { settings, updatedAt: now() } })
        .run();
      overrideCache.delete(`${type}:${id}`);
      return this.effective(type, id);
    },

    /** Back to the global settings; also what deleting a monitor or agent does (with its alert state). */
    deleteOverride(type: TargetType, id: number) {
      db.delete(notificationOverrides).where(and(eq(notificationOverrides.targetType, type), eq(notificationOverrides.targetId, id))).run();
      overrideCache.delete(`${type}:${id}`);
    },

    forgetTarget(type: TargetType, id: number) {
      this.deleteOverride(type, id);
      db.delete(notificationAlerts).where(and(eq(notificationAlerts.targetType, type), eq(notificationAlerts.targetId, id))).run();
    },

    // --- the delivery log --------------------------------------------------------------------------------------
    deliveries({ channelId, limit = 50 }: { channelId?: number; limit?: number }): Delivery[] {
      const rows = db
        .select({ m: notificationMessages, channelName: notificationChannels.name })
        .from(notificationMessages)
        .innerJoin(notificationChannels, eq(notificationChannels.id, notificationMessages.channelId))
        .where(channelId === undefined ? undefined : eq(notificationMessages.channelId, channelId))
        .orderBy(desc(notificationMessages.id))
        .limit(limit)
        .all();
      const ids = rows.map((r) => r.m.id);
      const events = ids.length
        ? db.select({ messageId: notificationEvents.messageId, event: notificationEvents.event }).from(notificationEvents)
            .where(inArray(notificationEvents.messageId, ids)).orderBy(notificationEvents.id).all()
        : [];
      const byMessage = new Map<number, Delivery["events"]>();
      for (const e of events) {
        const list = byMessage.get(e.messageId!) ?? [];
        list.push({ kind: e.event.kind, targetType: e.event.target.type, targetId: e.event.target.id, targetName: e.event.target.name });
        byMessage.set(e.messageId!, list);
      }
      return rows.map(({ m, channelName }) => ({
        id: m.id,
        channelId: m.channelId,
        channelName,
        createdAt: m.createdAt,
        events: byMessage.get(m.id) ?? [],
        status: m.status,
        attempts: m.attempts,
        nextAttemptAt: m.status === "pending" ? m.nextAttemptAt : null,
        sentAt: m.sentAt,
        error: m.error,
      }));
    },
  };
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;
