// `channels:` — notification channels: name, type, enabled, the type's config (its secret fields, as each provider
// lists them, exported as ${ENV} references), message templates and quiet hours, checked by the same rules as
// POST /api/notifications/channels (server/notifications/store.ts validConfig and friends).
import { and, eq, isNull } from "drizzle-orm";
import { t } from "elysia";
import { first, type Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import { HttpError } from "../../http/http-error";
import type { TargetPolicy } from "../../net/targets";
import { providerFor } from "../../notifications/providers/index";
import { CHANNEL_TYPES, type ChannelType } from "../../notifications/public";
import { validQuietHours } from "../../notifications/quiet-hours";
import { validConfig, validName, validType } from "../../notifications/store";
import { validateTemplates } from "../../notifications/templates";
import { stable, type Form } from "../model";
import { key } from "../schema-parts";
import { EntryProblem, shortenBy, type SectionDef, type SectionRow } from "./section";

const entry = t.Object(
  {
    key,
    name: t.String({ minLength: 1, maxLength: 100, error: "A channel's name is 1-100 characters" }),
    type: t.UnionEnum([...CHANNEL_TYPES], { error: `type must be one of ${CHANNEL_TYPES.join(", ")}` }),
    enabled: t.Optional(t.Boolean({ error: "enabled must be true or false" })),
    config: t.Optional(t.Record(t.String(), t.Unknown(), { error: "config must be an object of the type's fields", description: "The type's fields, as POST /api/notifications/channels takes them (docs/notifications.md); secret ones as ${ENV} references." })),
    templates: t.Optional(t.Record(t.String(), t.Unknown(), { error: "templates must be an object of event kinds", description: "Message templates by event kind: { title, body }." })),
    quietHours: t.Optional(t.Nullable(t.Record(t.String(), t.Unknown(), { error: "quietHours must be an object { from, to, timeZone, days?, holdDown } or null", description: "Quiet hours: { from: HH:MM, to: HH:MM, timeZone, days?: [1-7], holdDown } (docs/notifications.md#quiet-hours); absent or null: none." }))),
  },
  { additionalProperties: false, description: "A notification channel." },
);

const SETTINGS_KEY = "notifications";

function resolve(e: Form, policy: TargetPolicy): Form {
  const name = validName(e.name);
  const type = validType(e.type);
  const given = (e.config ?? {}) as Form;
  let config: Form;
  try {
    config = validConfig(type, given, policy);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // Point at the config field the provider's message names ("password must be a string"), else at config.
    const field = Object.keys(given).find((f) => new RegExp(`\\b${f}\\b`, "i").test(err.message));
    throw new EntryProblem(field ? ["config", field] : ["config"], err.message);
  }
  let templates: Form;
  try {
    templates = validateTemplates(e.templates, type) as Form;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    throw new EntryProblem(["templates"], err.message);
  }
  let quietHours: Form | null;
  try {
    quietHours = validQuietHours(e.quietHours) as Form | null;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    throw new EntryProblem(["quietHours"], err.message);
  }
  return { name, type, enabled: (e.enabled as boolean | undefined) ?? true, config, templates, quietHours };
}

export const channels: SectionDef = {
  section: "channels",
  kind: "channel",
  entry,
  keyField: "key",

  async read(orm, t) {
    // The team's channels: people's own contact channels are theirs, neither exported nor pruned.
    const rows = await orm.select().from(t.notificationChannels).where(isNull(t.notificationChannels.ownerUserId)).orderBy(t.notificationChannels.id);
    return rows.map((r): SectionRow => ({
      objectId: String(r.id),
      name: r.name,
      form: { name: r.name, type: r.type, enabled: r.enabled, config: r.config, templates: r.templates ?? {}, quietHours: r.quietHours ?? null },
    }));
  },

  resolve: (e, ctx) => resolve(e, ctx.policy),

  secrets(form) {
    const out = new Map<string, true | "url">();
    if (typeof form.type !== "string" || !(CHANNEL_TYPES as readonly string[]).includes(form.type)) return out;
    for (const field of providerFor(form.type as ChannelType).secretFields) out.set(`config.${field}`, true);
    return out;
  },

  shorten(e, ctx) {
    const full = (x: Form) => {
      try {
        return stable(resolve(x, ctx.policy));
      } catch {
        return null;
      }
    };
    return shortenBy(e, full, ["key", "name", "type"]);
  },

  async write(tx, t, form, current, _refs, now) {
    const values = { name: form.name as string, type: form.type as ChannelType, enabled: form.enabled as boolean, config: form.config as Form, templates: form.templates as Form, quietHours: (form.quietHours ?? null) as never, updatedAt: now };
    if (current) {
      await tx.update(t.notificationChannels).set(values).where(eq(t.notificationChannels.id, Number(current.objectId)));
      return current.objectId;
    }
    const [row] = await tx.insert(t.notificationChannels).values({ ...values, createdAt: now }).returning({ id: t.notificationChannels.id });
    return String(row!.id);
  },

  // As DELETE /api/notifications/channels/:id: the channel leaves the global settings and every override too.
  async remove(tx, t, objectId) {
    const id = Number(objectId);
    await tx.delete(t.notificationChannels).where(eq(t.notificationChannels.id, id));
    await dropChannelIds(tx, t, [id]);
  },
};

/** Takes channels out of the global notification settings and every override (their ids would point nowhere). */
export async function dropChannelIds(tx: Orm, t: Tables, ids: number[]) {
  const gone = new Set(ids);
  const drop = (list: unknown) => ((list as number[] | undefined) ?? []).filter((c) => !gone.has(c));
  const row = await first(tx.select().from(t.settings).where(eq(t.settings.key, SETTINGS_KEY)));
  if (row) {
    const global = JSON.parse(row.value) as Record<string, Form | undefined>;
    for (const part of ["monitor", "agent"]) if (global[part]) global[part] = { ...global[part], channelIds: drop(global[part]!.channelIds) };
    await tx.update(t.settings).set({ value: JSON.stringify(global) }).where(eq(t.settings.key, SETTINGS_KEY));
  }
  for (const o of await tx.select().from(t.notificationOverrides)) {
    const list = (o.settings.channelIds as number[] | undefined) ?? [];
    if (list.some((c) => gone.has(c))) {
      await tx.update(t.notificationOverrides).set({ settings: { ...o.settings, channelIds: drop(list) } }).where(and(eq(t.notificationOverrides.targetType, o.targetType), eq(t.notificationOverrides.targetId, o.targetId)));
    }
  }
}
