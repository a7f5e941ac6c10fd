// Channels, settings (global and per target) and the delivery log: the storage side of notifications.
import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { first, type Db, type Orm } from "../db/database";
import { badRequest, conflict, notFound } from "../http/errors";
import { ALLOW_PRIVATE, literalHostProblem, literalProblem, type TargetPolicy } from "../net/targets";
import { maskConfig, mergeSecrets } from "./providers/mask";
import { providerFor } from "./providers/index";
import { validateTemplates } from "./templates";
import { validQuietHours } from "./quiet-hours";
import {
  CHANNEL_TYPES,
  type AgentNotificationSettings,
  type ChannelType,
  type Delivery,
  type MonitorNotificationSettings,
  type NotificationSettings,
  type PublicChannel,
  type QuietHours,
} from "./public";
import type { notificationChannels } from "./tables";

const SETTINGS_KEY = "notifications";
/** Serialises the writes of settings (global and per target) with channel deletion, on every node. */
const SETTINGS_LOCK = "notifications.settings";
/** A channel is shown as failing once this many sends in a row have failed for good. */
export const FAILING_AFTER = 3;
/** Contact channels one person may keep. */
export const CONTACT_CHANNELS_MAX = 20;

/** Whose channels an operation is about: null the team's, a user id that person's own contact channels. */
export type ChannelOwner = number | null;

export const DEFAULT_SETTINGS: NotificationSettings = {
  monitor: { enabled: true, channelIds: [], events: { down: true, recovery: true, budget: true }, reminderMinutes: 0 },
  agent: {
    enabled: true,
    channelIds: [],
    events: { offline: true, online: true, cpu: true, memory: true, disk: true, container: true },
    thresholds: { cpu: 90, memory: 90, disk: 90 },
    containers: { watch: [], restarts: 3, restartMinutes: 10 },
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
    templates: row.templates ?? {},
    quietHours: row.quietHours ?? null,
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

/**
 * The provider's verdict on a config, as a 400 with its code and spec message; then the address policy's on where it
 * sends, as written (400 TARGET_FORBIDDEN with the monitors' message; names are resolved and checked at each send).
 */
export function validConfig(type: ChannelType, config: Record<string, unknown>, policy: TargetPolicy): Record<string, unknown> {
  const provider = providerFor(type);
  const checked = provider.validate(config);
  if (!checked.ok) throw badRequest(checked.error.code, checked.error.message);
  const target = provider.target?.(checked.config);
  const problem = !target ? null : "url" in target ? literalHostProblem(target.url, policy) : literalProblem(target.host, policy);
  if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
  return checked.config as Record<string, unknown>;
}

export function validName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) throw badRequest("CHANNEL_NAME_REQUIRED", "Channel name is required");
  if (trimmed.length > 100) throw badRequest("VALIDATION", "Channel name must be at most 100 characters");
  return trimmed;
}

/**
 * The config a channel sends with: a person's own push channel reaches that person's devices and nobody else's,
 * whatever its stored config says.
 */
export function sendingConfig(row: Pick<ChannelRow, "type" | "config" | "ownerUserId">): Record<string, unknown> {
  return row.ownerUserId !== null && row.type === "webpush" ? { userIds: [row.ownerUserId] } : row.config;
}

export function validType(type: unknown): ChannelType {
  if (!CHANNEL_TYPES.includes(type as ChannelType)) {
    throw badRequest("VALIDATION", `Channel type must be one of ${CHANNEL_TYPES.join(", ")}; got ${JSON.stringify(type)}`);
  }
  return type as ChannelType;
}

/**
 * `onWrite`: settings or overrides were written here (the cluster tells the other nodes, which drop their caches).
 * `targets`: the address policy channels are saved under (--block-private-targets).
 */
export function createNotificationStore(db: Db, now: () => number = Date.now, onWrite: () => void = () => {}, targets: TargetPolicy = ALLOW_PRIVATE) {
  const { orm } = db;
  const { settings: settingsTable, notificationChannels, notificationEvents, notificationMessages, notificationOverrides, userQuietHours, users } = db.t;
  const ownedBy = (owner: ChannelOwner) => (owner === null ? isNull(notificationChannels.ownerUserId) : eq(notificationChannels.ownerUserId, owner));
  /** The channel when it is `owner`'s (the team's when null): another's is as absent as a missing one. */
  const channelRow = (id: number, owner: ChannelOwner, q: Orm = orm) => first(q.select().from(notificationChannels).where(and(eq(notificationChannels.id, id), ownedBy(owner))));
  /** A personal push channel names its owner, whatever was sent. */
  const ownConfig = (type: ChannelType, config: Record<string, unknown>, owner: ChannelOwner) => (owner !== null && type === "webpush" ? { userIds: [owner] } : config);

  async function readGlobal(q: Orm = orm): Promise<NotificationSettings> {
    const raw = (await first(q.select().from(settingsTable).where(eq(settingsTable.key, SETTINGS_KEY))))?.value;
    const stored = raw ? (JSON.parse(raw) as Partial<NotificationSettings>) : {};
    return {
      monitor: { ...DEFAULT_SETTINGS.monitor, ...stored.monitor, events: { ...DEFAULT_SETTINGS.monitor.events, ...stored.monitor?.events } },
      agent: {
        ...DEFAULT_SETTINGS.agent,
        ...stored.agent,
        events: { ...DEFAULT_SETTINGS.agent.events, ...stored.agent?.events },
        thresholds: { ...DEFAULT_SETTINGS.agent.thresholds, ...stored.agent?.thresholds },
        containers: { ...DEFAULT_SETTINGS.agent.containers, ...stored.agent?.containers },
      },
      language: stored.language ?? DEFAULT_SETTINGS.language,
      timeZone: stored.timeZone ?? DEFAULT_SETTINGS.timeZone,
    };
  }

  const writeGlobal = async (q: Orm, value: string) => {
    await q.insert(settingsTable).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } });
  };

  /** Refuses channel ids that do not exist or are someone's own contact channel (400), so settings never point nowhere. */
  async function checkChannelIds(q: Orm, ids: number[]) {
    const unique = [...new Set(ids)];
    if (!unique.length) return unique;
    const found = await q.select({ id: notificationChannels.id, owner: notificationChannels.ownerUserId }).from(notificationChannels).where(inArray(notificationChannels.id, unique));
    if (found.length !== unique.length) throw badRequest("CHANNEL_UNKNOWN", "One of the chosen channels does not exist");
    const personal = found.find((c) => c.owner !== null);
    if (personal) throw badRequest("CHANNEL_PERSONAL", `Channel ${personal.id} is someone's own contact channel: monitors and agents notify team channels only`);
    return unique;
  }

  const overrideWhere = (type: TargetType, id: number) => and(eq(notificationOverrides.targetType, type), eq(notificationOverrides.targetId, id));

  // Settings are read on every event: cached, dropped on every write.
  let globalCache: NotificationSettings | null = null;
  const overrideCache = new Map<string, Record<string, unknown> | null>();

  return {
    // --- channels ----------------------------------------------------------------------------------------------
    /** The team's channels, or (`owner`) that person's own contact channels. */
    listChannels: async (owner: ChannelOwner = null): Promise<PublicChannel[]> =>
      (await orm.select().from(notificationChannels).where(ownedBy(owner)).orderBy(notificationChannels.id)).map(toPublicChannel),

    async getChannel(id: number, owner: ChannelOwner = null): Promise<PublicChannel> {
      const row = await channelRow(id, owner);
      if (!row) throw channelNotFound();
      return toPublicChannel(row);
    },

    /** The stored channel with its secrets (and the config it sends with), for sending only: anyone's. */
    async channelForSending(id: number): Promise<ChannelRow | undefined> {
      const row = await first(orm.select().from(notificationChannels).where(eq(notificationChannels.id, id)));
      return row && { ...row, config: sendingConfig(row) };
    },

    /** A team channel, or (`owner`) one of that person's contact channels: at most CONTACT_CHANNELS_MAX each. */
    async createChannel(input: { name?: unknown; type?: unknown; enabled?: boolean; config: Record<string, unknown>; templates?: unknown; quietHours?: unknown }, owner: ChannelOwner = null): Promise<PublicChannel> {
      const name = validName(input.name);
      const type = validType(input.type);
      const config = validConfig(type, ownConfig(type, input.config ?? {}, owner), targets);
      const templates = validateTemplates(input.templates, type);
      const quietHours = validQuietHours(input.quietHours);
      if (owner !== null) {
        const [mine] = await orm.select({ n: count() }).from(notificationChannels).where(ownedBy(owner));
        if (Number(mine?.n ?? 0) >= CONTACT_CHANNELS_MAX) throw conflict("CONTACT_CHANNELS_LIMIT", `You have ${CONTACT_CHANNELS_MAX} contact channels already: delete one first`);
      }
      const at = now();
      const [row] = await orm.insert(notificationChannels)
        .values({ name, type, enabled: input.enabled ?? true, config, templates, quietHours, ownerUserId: owner, createdAt: at, updatedAt: at })
        .returning();
      return toPublicChannel(row!);
    },

    /** Absent fields keep their value; secret config fields left out or sent back masked keep theirs. */
    async updateChannel(
      id: number,
      input: { name?: unknown; type?: unknown; enabled?: boolean; config?: Record<string, unknown>; templates?: unknown; quietHours?: unknown },
      owner: ChannelOwner = null,
    ): Promise<PublicChannel> {
      const row = await channelRow(id, owner);
      if (!row) throw channelNotFound();
      const name = input.name === undefined ? row.name : validName(input.name);
      const type = input.type === undefined ? row.type : validType(input.type);
      let config = row.config;
      if (input.config !== undefined || type !== row.type) {
        // A new type starts from nothing: another type's secrets must not leak into it.
        const incoming = ownConfig(type, input.config ?? {}, owner);
        config = validConfig(type, type === row.type ? mergeSecrets(providerFor(type), row.config, incoming) : incoming, targets);
      }
      // Templates are checked against the (new) type: a webhook JSON body is only JSON for a webhook.
      const templates = input.templates !== undefined || type !== row.type ? validateTemplates(input.templates ?? row.templates, type) : row.templates;
      const quietHours = input.quietHours === undefined ? row.quietHours : validQuietHours(input.quietHours);
      const updated = await first(
        orm.update(notificationChannels)
          .set({ name, type, config, templates, quietHours, enabled: input.enabled ?? row.enabled, updatedAt: now() })
          .where(and(eq(notificationChannels.id, id), ownedBy(owner)))
          .returning(),
      );
      if (!updated) throw channelNotFound(); // deleted meanwhile
      return toPublicChannel(updated);
    },

    /** Deletes the channel, its queued messages and its log, and takes it out of every setting. */
    async deleteChannel(id: number, owner: ChannelOwner = null) {
      const found = await db.tx(async (tx) => {
        const deleted = await tx.delete(notificationChannels).where(and(eq(notificationChannels.id, id), ownedBy(owner))).returning({ id: notificationChannels.id });
        if (!deleted.length) return false;
        const global = await readGlobal(tx);
        const drop = (ids: number[]) => ids.filter((c) => c !== id);
        await writeGlobal(tx, JSON.stringify({ ...global, monitor: { ...global.monitor, channelIds: drop(global.monitor.channelIds) }, agent: { ...global.agent, channelIds: drop(global.agent.channelIds) } }));
        for (const o of await tx.select().from(notificationOverrides)) {
          const ids = (o.settings.channelIds as number[] | undefined) ?? [];
          if (ids.includes(id)) {
            await tx.update(notificationOverrides).set({ settings: { ...o.settings, channelIds: drop(ids) } }).where(overrideWhere(o.targetType, o.targetId));
          }
        }
        return true;
      }, { lock: SETTINGS_LOCK });
      globalCache = null;
      overrideCache.clear();
      onWrite();
      if (!found) throw channelNotFound();
    },

    /** Records a final outcome on the channel (its health in the list). */
    async recordOutcome(id: number, outcome: { ok: true } | { ok: false; error: string }) {
      const at = now();
      await orm.update(notificationChannels)
        .set(outcome.ok
          ? { consecutiveFailures: 0, lastSuccessAt: at }
          : { consecutiveFailures: sql`${notificationChannels.consecutiveFailures} + 1`, lastFailureAt: at, lastError: outcome.error })
        .where(eq(notificationChannels.id, id));
    },

    /** Another node wrote settings: read them again. */
    dropCaches() {
      globalCache = null;
      overrideCache.clear();
    },

    // --- settings ----------------------------------------------------------------------------------------------
    async getSettings(): Promise<NotificationSettings> {
      globalCache ??= await readGlobal();
      return globalCache;
    },

    async saveSettings(next: NotificationSettings): Promise<NotificationSettings> {
      await db.tx(async (tx) => {
        const value: NotificationSettings = {
          ...next,
          monitor: { ...next.monitor, channelIds: await checkChannelIds(tx, next.monitor.channelIds) },
          agent: { ...next.agent, channelIds: await checkChannelIds(tx, next.agent.channelIds) },
        };
        await writeGlobal(tx, JSON.stringify(value));
      }, { lock: SETTINGS_LOCK });
      globalCache = null;
      onWrite();
      return this.getSettings();
    },

    /** The target's own settings, or null when the global ones apply. */
    async getOverride<T extends TargetType>(type: T, id: number): Promise<TargetSettings<T> | null> {
      const key = `${type}:${id}`;
      if (!overrideCache.has(key)) {
        const row = await first(orm.select().from(notificationOverrides).where(overrideWhere(type, id)));
        overrideCache.set(key, row?.settings ?? null);
      }
      const stored = overrideCache.get(key);
      if (!stored) return null;
      // Overrides saved before error budget (monitors) and container alerts (agents) existed get their defaults.
      if (type === "monitor") {
        const monitor = stored as unknown as MonitorNotificationSettings;
        return { ...monitor, events: { ...DEFAULT_SETTINGS.monitor.events, ...monitor.events } } as TargetSettings<T>;
      }
      const agent = stored as Partial<AgentNotificationSettings>;
      return {
        ...agent,
        events: { ...DEFAULT_SETTINGS.agent.events, ...agent.events },
        containers: { ...DEFAULT_SETTINGS.agent.containers, ...agent.containers },
      } as TargetSettings<T>;
    },

    /** Which targets of a type have their own settings (for the lists that mark them). */
    async overrideIds(type: TargetType): Promise<number[]> {
      const rows = await orm.select({ id: notificationOverrides.targetId }).from(notificationOverrides)
        .where(eq(notificationOverrides.targetType, type)).orderBy(notificationOverrides.targetId);
      return rows.map((r) => r.id);
    },

    /** The settings in force for a target: its own, or the global part. */
    async effective<T extends TargetType>(type: T, id: number): Promise<TargetSettings<T>> {
      return (await this.getOverride(type, id)) ?? ((await this.getSettings())[type] as TargetSettings<T>);
    },

    async saveOverride<T extends TargetType>(type: T, id: number, value: TargetSettings<T>): Promise<TargetSettings<T>> {
      await db.tx(async (tx) => {
        const settings = { ...value, channelIds: await checkChannelIds(tx, value.channelIds) } as Record<string, unknown>;
        await tx.insert(notificationOverrides).values({ targetType: type, targetId: id, settings, updatedAt: now() })
          .onConflictDoUpdate({ target: [notificationOverrides.targetType, notificationOverrides.targetId], set: { settings, updatedAt: now() } });
      }, { lock: SETTINGS_LOCK });
      overrideCache.delete(`${type}:${id}`);
      onWrite();
      return this.effective(type, id);
    },

    /** The enabled channels among `ids`, in their order: where alerts and escalation pages may go. */
    async enabledAmong(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await orm.select({ id: notificationChannels.id }).from(notificationChannels)
        .where(and(eq(notificationChannels.enabled, true), inArray(notificationChannels.id, ids)));
      const enabled = new Set(rows.map((r) => r.id));
      return ids.filter((id) => enabled.has(id));
    },

    /**
     * The people's contact channels escalation pages them through: for each user asked about, the ids of their own
     * enabled channels, oldest first ([] for someone with none, or whose account is disabled).
     */
    async contactChannelsOf(userIds: number[]): Promise<Map<number, number[]>> {
      const out = new Map<number, number[]>(userIds.map((id) => [id, []]));
      if (!userIds.length) return out;
      const rows = await orm.select({ id: notificationChannels.id, owner: notificationChannels.ownerUserId }).from(notificationChannels)
        .innerJoin(users, eq(users.id, notificationChannels.ownerUserId))
        .where(and(inArray(notificationChannels.ownerUserId, [...out.keys()]), eq(notificationChannels.enabled, true), eq(users.status, "active")))
        .orderBy(asc(notificationChannels.id));
      for (const r of rows) out.get(r.owner!)!.push(r.id);
      return out;
    },

    // --- a person's quiet hours (over their own contact channels) ---------------------------------------------------
    async userQuietHours(userId: number): Promise<QuietHours | null> {
      return (await first(orm.select({ q: userQuietHours.quietHours }).from(userQuietHours).where(eq(userQuietHours.userId, userId))))?.q ?? null;
    },

    /** Checked (400 QUIET_HOURS_INVALID); null turns them off. */
    async saveUserQuietHours(userId: number, raw: unknown): Promise<QuietHours | null> {
      const quietHours = validQuietHours(raw);
      if (!quietHours) await orm.delete(userQuietHours).where(eq(userQuietHours.userId, userId));
      else {
        const at = now();
        await orm.insert(userQuietHours).values({ userId, quietHours, updatedAt: at }).onConflictDoUpdate({ target: userQuietHours.userId, set: { quietHours, updatedAt: at } });
      }
      return quietHours;
    },

    /** Back to the global settings; also what deleting a monitor or agent does (its alerts go in alerts.ts). */
    async deleteOverride(type: TargetType, id: number) {
      await orm.delete(notificationOverrides).where(overrideWhere(type, id));
      overrideCache.delete(`${type}:${id}`);
      onWrite();
    },

    // --- the delivery log --------------------------------------------------------------------------------------
    /** The team's log (`owner` null), or that person's own channels'. */
    async deliveries({ channelId, limit = 50, owner = null }: { channelId?: number; limit?: number; owner?: ChannelOwner }): Promise<Delivery[]> {
      const rows = await orm
        .select({ m: notificationMessages, channelName: notificationChannels.name })
        .from(notificationMessages)
        .innerJoin(notificationChannels, eq(notificationChannels.id, notificationMessages.channelId))
        .where(and(ownedBy(owner), channelId === undefined ? undefined : eq(notificationMessages.channelId, channelId)))
        .orderBy(desc(notificationMessages.id))
        .limit(limit);
      const ids = rows.map((r) => r.m.id);
      const events = ids.length
        ? await orm.select({ messageId: notificationEvents.messageId, event: notificationEvents.event }).from(notificationEvents)
            .where(inArray(notificationEvents.messageId, ids)).orderBy(notificationEvents.id)
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
