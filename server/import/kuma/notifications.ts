// Kuma notifications → Vigil notification channels, with which monitors use them and "default enabled".
// Kuma gives each monitor its own list of notifications; Vigil has the channels of monitors without their own
// settings (the global list, which new monitors get: Kuma's "default enabled") and a monitor's own settings. So a
// default notification joins the global list, and an imported monitor whose list differs from it gets its own
// settings with its list (channels the user added to it in Vigil are kept).
import { and, eq } from "drizzle-orm";
import { first, type Orm } from "../../db/database";
import { providerFor } from "../../notifications/providers/index";
import { DEFAULT_SETTINGS } from "../../notifications/store";
import type { MonitorNotificationSettings } from "../../notifications/public";
import { note } from "./notes";
import type { ApplyContext, ImportLinks, KumaSection, KumaSource, Note, PlanItem } from "./section";
import { mapKumaNotification, type Mapped } from "./notification-configs";
import { bool, fit, json, str } from "./section-helpers";

const KIND = "notification";
const SETTINGS_KEY = "notifications";

interface Prepared {
  row: Record<string, unknown>;
  name: string;
  mapped: Mapped | null;
  /** The provider's verdict on the mapped config. */
  checked: { ok: true; config: Record<string, unknown> } | { ok: false; error: { message: string } } | null;
  isDefault: boolean;
}

function prepare(row: Record<string, unknown>): Prepared {
  const config = json<Record<string, unknown>>(row.config, {});
  const notes: Note[] = [];
  const name = fit(str(row.name).trim() || str(config.name).trim() || `Kuma notification ${str(row.id)}`, 100, "name", notes);
  const mapped = mapKumaNotification(config);
  if (mapped) mapped.notes.unshift(...notes);
  const checked = mapped ? (providerFor(mapped.type).validate(mapped.config) as Prepared["checked"]) : null;
  // Kuma 1.x kept "default enabled" only in the config; the is_default column came later.
  const isDefault = row.is_default !== undefined && row.is_default !== null ? bool(row.is_default) : bool(config.isDefault);
  return { row, name, mapped, checked, isDefault };
}

/** Kuma notification id → the Kuma monitor ids using it. */
function usersOf(source: KumaSource): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const r of source.rows("monitor_notification")) {
    const list = by.get(str(r.notification_id)) ?? [];
    list.push(str(r.monitor_id));
    by.set(str(r.notification_id), list);
  }
  return by;
}

async function existingChannel(q: Orm, t: ApplyContext["db"]["t"], links: ImportLinks, sourceId: string) {
  const id = links.target(KIND, sourceId);
  if (id === undefined) return undefined;
  return first(q.select({ id: t.notificationChannels.id }).from(t.notificationChannels).where(eq(t.notificationChannels.id, id)));
}

export const notificationsSection: KumaSection = {
  kind: KIND,

  async plan(source, { db, links }) {
    const users = usersOf(source);
    const items: PlanItem[] = [];
    for (const row of source.rows("notification")) {
      const p = prepare(row);
      const sourceId = str(row.id);
      const item: PlanItem = { kind: KIND, sourceId, name: p.name, action: "skip", notes: [] };
      const used = users.get(sourceId)?.length ?? 0;
      if (!p.mapped) {
        const type = str(json<Record<string, unknown>>(row.config, {}).type) || "unknown";
        item.notes.push(used ? note("notification.noProviderUsed", { type, count: used }) : note("notification.noProvider", { type }));
      } else if (!p.checked?.ok) {
        item.notes.push(note("notification.invalid", { type: p.mapped.type, message: p.checked!.error.message }));
        if (p.mapped.type === "teams") item.notes.push(note("notification.teams"));
        if (p.mapped.missing) item.notes.push(p.mapped.missing);
      } else {
        item.action = (await existingChannel(db.orm, db.t, links, sourceId)) ? "update" : "create";
        item.notes.push(...p.mapped.notes);
        if (used) item.notes.push(note("notification.usedBy", { count: used }));
        if (p.isDefault) item.notes.push(note("notification.default"));
        if (!bool(row.active ?? true)) item.notes.push(note("notification.disabled"));
      }
      items.push(item);
    }
    return items;
  },

  async apply(source, items, { tx, db, links, now }) {
    const t = db.t;
    const wanted = new Set(items.filter((i) => i.kind === KIND && i.action !== "skip").map((i) => i.sourceId));
    const defaults: number[] = [];
    for (const row of source.rows("notification")) {
      const sourceId = str(row.id);
      if (!wanted.has(sourceId)) continue;
      const p = prepare(row);
      if (!p.mapped || !p.checked?.ok) throw new Error(`Kuma notification ${sourceId} no longer passes the checks it passed in the plan`);
      const values = { name: p.name, type: p.mapped.type, config: p.checked.config, enabled: bool(row.active ?? true), updatedAt: now };
      const found = await existingChannel(tx, t, links, sourceId);
      let id: number;
      if (found) {
        await tx.update(t.notificationChannels).set(values).where(eq(t.notificationChannels.id, found.id));
        id = found.id;
      } else {
        const [made] = await tx.insert(t.notificationChannels).values({ ...values, createdAt: now }).returning({ id: t.notificationChannels.id });
        id = made!.id;
      }
      links.link(KIND, sourceId, id);
      if (p.isDefault) defaults.push(id);
    }
    await linkMonitors(source, tx, db.t, links, defaults, now);
  },
};

/**
 * Kuma's "resend every N heartbeats while down" as Vigil's reminder every N × interval (whole minutes, 1 to a week);
 * null when Kuma resends nothing (the monitor keeps the reminders it has).
 */
export function reminderMinutes(m: Record<string, unknown>): number | null {
  const resend = Number(m.resend_interval ?? 0);
  if (!Number.isFinite(resend) || resend <= 0) return null;
  const interval = Number(m.interval ?? 60);
  return Math.min(10_080, Math.max(1, Math.round((resend * (Number.isFinite(interval) && interval > 0 ? interval : 60)) / 60)));
}

/** Default channels into the global list; each imported monitor's list into its own settings where it differs. */
async function linkMonitors(source: KumaSource, tx: Orm, t: ApplyContext["db"]["t"], links: ImportLinks, defaults: number[], now: number) {
  const raw = (await first(tx.select().from(t.settings).where(eq(t.settings.key, SETTINGS_KEY))))?.value;
  const stored = raw ? (JSON.parse(raw) as Record<string, unknown> & { monitor?: Partial<MonitorNotificationSettings> }) : {};
  const global: MonitorNotificationSettings = { ...DEFAULT_SETTINGS.monitor, ...stored.monitor, events: { ...DEFAULT_SETTINGS.monitor.events, ...stored.monitor?.events } };
  const globalIds = [...new Set([...global.channelIds, ...defaults])];
  if (globalIds.length !== global.channelIds.length) {
    const value = JSON.stringify({ ...stored, monitor: { ...global, channelIds: globalIds } });
    await tx.insert(t.settings).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: t.settings.key, set: { value } });
  }

  // Every channel the import made (now or before): a monitor's ids outside this set are the user's own.
  const imported = new Set(source.rows("notification").map((r) => links.target(KIND, str(r.id))).filter((id): id is number => id !== undefined));
  const byMonitor = new Map<string, number[]>();
  for (const r of source.rows("monitor_notification")) {
    const channel = links.target(KIND, str(r.notification_id));
    if (channel === undefined) continue;
    const list = byMonitor.get(str(r.monitor_id)) ?? [];
    if (!list.includes(channel)) list.push(channel);
    byMonitor.set(str(r.monitor_id), list);
  }
  const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));
  const { notificationOverrides: overrides, monitors } = t;
  for (const m of source.rows("monitor")) {
    const monitorId = links.target("monitor", str(m.id));
    if (monitorId === undefined) continue;
    if (!(await first(tx.select({ id: monitors.id }).from(monitors).where(eq(monitors.id, monitorId))))) continue;
    const ids = byMonitor.get(str(m.id)) ?? [];
    const reminder = reminderMinutes(m);
    const where = and(eq(overrides.targetType, "monitor"), eq(overrides.targetId, monitorId));
    const own = await first(tx.select().from(overrides).where(where));
    if (own) {
      const before = own.settings as unknown as MonitorNotificationSettings;
      const kept = (before.channelIds ?? []).filter((id) => !imported.has(id));
      const settings = { ...before, channelIds: [...new Set([...ids, ...kept])], ...(reminder !== null && { reminderMinutes: reminder }) };
      await tx.update(overrides).set({ settings, updatedAt: now }).where(where);
    } else if (!sameSet(ids, globalIds) || (reminder !== null && reminder !== global.reminderMinutes)) {
      const settings = { enabled: global.enabled, channelIds: ids, events: global.events, reminderMinutes: reminder ?? global.reminderMinutes };
      await tx.insert(overrides).values({ targetType: "monitor", targetId: monitorId, settings, updatedAt: now });
    }
  }
}
