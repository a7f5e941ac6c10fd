// A monitor's (or group's) own notification settings in the file: `notify: { channels: [keys], events, … }`, what
// PUT /api/notifications/settings/monitors/:id saves (server/notifications/store.ts saveOverride) with channels by key.
// No `notify` means the global settings apply: an override made in the UI is drift, and apply removes it.
import { and, eq } from "drizzle-orm";
import { t } from "elysia";
import type { Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import { DEFAULT_SETTINGS } from "../../notifications/store";
import type { Form } from "../model";
import { keyRef } from "../schema-parts";

const flag = (name: string) => t.Optional(t.Boolean({ error: `notify.events.${name} must be true or false` }));

export const notifyEntry = t.Optional(
  t.Object(
    {
      enabled: t.Optional(t.Boolean({ error: "notify.enabled must be true or false" })),
      channels: t.Array(keyRef("channel"), { maxItems: 100, error: "notify.channels must be a list of at most 100 channel keys" }),
      events: t.Optional(t.Object({ down: flag("down"), recovery: flag("recovery"), budget: flag("budget") }, { additionalProperties: false })),
      reminderMinutes: t.Optional(t.Integer({ minimum: 0, maximum: 10_080, error: "notify.reminderMinutes must be whole minutes from 0 (off) to 10080 (a week)" })),
    },
    { additionalProperties: false, description: "This monitor's own notification settings (instead of the global ones): channels by key." },
  ),
);

/** The settings in file form (every field, channels sorted), or null for none. */
export function notifyForm(entry: unknown): Form | null {
  if (!entry || typeof entry !== "object") return null;
  const e = entry as Form;
  const d = DEFAULT_SETTINGS.monitor;
  return {
    enabled: (e.enabled as boolean | undefined) ?? true,
    channels: [...new Set((e.channels as string[] | undefined) ?? [])].sort(),
    events: { ...d.events, ...(e.events as Form | undefined) },
    reminderMinutes: (e.reminderMinutes as number | undefined) ?? 0,
  };
}

/** As export writes it: what equals the default left out. */
export function shortNotify(form: Form): Form {
  const out: Form = {};
  if (form.enabled === false) out.enabled = false;
  out.channels = form.channels;
  const events = Object.fromEntries(Object.entries(form.events as Form).filter(([, v]) => v === false));
  if (Object.keys(events).length) out.events = events;
  if (form.reminderMinutes) out.reminderMinutes = form.reminderMinutes;
  return out;
}

/** Each monitor's override, channels by key. */
export async function readOverrides(orm: Orm, t: Tables, channelKey: (id: number) => string): Promise<Map<number, Form>> {
  const rows = await orm.select().from(t.notificationOverrides).where(eq(t.notificationOverrides.targetType, "monitor"));
  const out = new Map<number, Form>();
  for (const r of rows) {
    const s = r.settings;
    out.set(r.targetId, notifyForm({ ...s, channels: ((s.channelIds as number[] | undefined) ?? []).map(channelKey) })!);
  }
  return out;
}

/** Writes (or removes) a monitor's override as its file form says. */
export async function writeOverride(tx: Orm, t: Tables, monitorId: number, form: Form | null, channelId: (key: string) => number, now: number) {
  const where = and(eq(t.notificationOverrides.targetType, "monitor"), eq(t.notificationOverrides.targetId, monitorId));
  await tx.delete(t.notificationOverrides).where(where);
  if (!form) return;
  const { channels, ...rest } = form;
  const settings = { ...rest, channelIds: (channels as string[]).map(channelId) };
  await tx.insert(t.notificationOverrides).values({ targetType: "monitor", targetId: monitorId, settings, updatedAt: now });
}
