// /api/notifications: channels (secrets masked), settings (global and per monitor / agent), test sends and the
// delivery log. Every signed-in user shares them (the team model of monitors and agents).
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { HttpError, badRequest, notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import type { Outbox } from "./outbox";
import { CHANNEL_TYPES } from "./public";
import { SAMPLE_CHECK_TYPES, TEMPLATE_KINDS } from "./template-context";
import { previewTemplate } from "./templates";
import type { AgentNotificationSettings, MonitorNotificationSettings, NotificationSettings, PublicChannel } from "./public";
import { DEFAULT_SETTINGS, type NotificationStore, type TargetType } from "./store";

/** A channel's body, the team's and a person's own (server/contacts/routes.ts) alike; the store checks each part. */
export const channelBody = t.Object({
  name: t.Optional(t.Unknown()),
  type: t.Optional(t.Unknown()),
  enabled: t.Optional(t.Boolean({ error: "enabled must be true or false" })),
  config: t.Optional(t.Record(t.String(), t.Unknown(), { error: "config must be an object of the type's fields" })),
  templates: t.Optional(t.Unknown()),
  quietHours: t.Optional(t.Unknown({ description: "{ from: \"HH:MM\", to: \"HH:MM\", timeZone, days?: [1-7], holdDown } or null (none)" })),
});

const previewBody = t.Object({
  type: t.Union(CHANNEL_TYPES.map((c) => t.Literal(c)), { error: `type must be one of ${CHANNEL_TYPES.join(", ")}` }),
  kind: t.Union(TEMPLATE_KINDS.map((k) => t.Literal(k)), { error: `kind must be one of ${TEMPLATE_KINDS.join(", ")}` }),
  title: t.Optional(t.String({ maxLength: 500, error: "title must be text of at most 500 characters" })),
  body: t.Optional(t.String({ maxLength: 10_000, error: "body must be text of at most 10000 characters" })),
  lang: t.Optional(t.Union([t.Literal("zh-CN"), t.Literal("en-US")], { error: "lang must be zh-CN or en-US" })),
  checkType: t.Optional(
    t.Union(SAMPLE_CHECK_TYPES.map((c) => t.Literal(c)), {
      error: `checkType must be one of ${SAMPLE_CHECK_TYPES.join(", ")}`,
      description: "A monitor event's sample: an HTTP monitor (the default) or a later type's, with its target line and error code",
    }),
  ),
});

const ids = t.Array(t.Integer({ minimum: 1, error: "channelIds must be channel ids (positive integers)" }), { maxItems: 100, error: "channelIds must be a list of channel ids" });
const flag = (name: string) => t.Boolean({ error: `${name} must be true or false` });
const percent = t.Number({ error: "Thresholds are percentages from 1 to 100" });

const monitorPart = t.Object({
  enabled: flag("enabled"),
  channelIds: ids,
  events: t.Object({ down: flag("events.down"), recovery: flag("events.recovery"), budget: t.Optional(flag("events.budget")) }),
  reminderMinutes: t.Optional(t.Integer({ minimum: 0, maximum: 10_080, error: "reminderMinutes must be whole minutes from 0 (off) to 10080 (a week)" })),
});

const agentPart = t.Object({
  enabled: flag("enabled"),
  channelIds: ids,
  events: t.Object({
    offline: flag("events.offline"),
    online: flag("events.online"),
    cpu: flag("events.cpu"),
    memory: flag("events.memory"),
    disk: flag("events.disk"),
    container: t.Optional(flag("events.container")),
  }),
  thresholds: t.Object({ cpu: percent, memory: percent, disk: percent }),
  containers: t.Optional(
    t.Object({
      watch: t.Array(t.String({ minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f\\u007f]+$", error: "Container names are 1-256 characters" }), {
        maxItems: 100,
        error: "At most 100 watched containers, each a name of 1-256 characters (or * for all)",
      }),
      restarts: t.Integer({ minimum: 0, maximum: 1000, error: "restarts must be a whole number from 0 (off) to 1000" }),
      restartMinutes: t.Integer({ minimum: 1, maximum: 1440, error: "restartMinutes must be whole minutes from 1 to 1440" }),
    }),
  ),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function checkThresholds(part: { thresholds: AgentNotificationSettings["thresholds"] }) {
  for (const v of Object.values(part.thresholds)) {
    if (!(v >= 1 && v <= 100)) throw badRequest("THRESHOLD_INVALID", "Thresholds are percentages from 1 to 100");
  }
}

/** The monitor part as stored: error budget alerts defaulted for clients that send none. */
const monitorSettings = (p: typeof monitorPart.static): MonitorNotificationSettings => ({
  ...p,
  events: { ...p.events, budget: p.events.budget ?? DEFAULT_SETTINGS.monitor.events.budget },
  reminderMinutes: p.reminderMinutes ?? 0,
});

/** The agent part as stored: container alerts defaulted for clients that send none; watched names trimmed, once each. */
const agentSettings = (p: typeof agentPart.static): AgentNotificationSettings => {
  const containers = p.containers ?? DEFAULT_SETTINGS.agent.containers;
  const watch = [...new Set(containers.watch.map((n) => n.trim()).filter(Boolean))];
  return { ...p, events: { ...p.events, container: p.events.container ?? DEFAULT_SETTINGS.agent.events.container }, containers: { ...containers, watch } };
};

/** Sends a test message through a channel the caller may use: the provider's own verdict, 502 when it refused or could not be reached. */
export async function sendTestMessage(outbox: Outbox, channel: PublicChannel) {
  const result = await outbox.sendTest(channel.id, { kind: "test", target: { type: "channel", id: channel.id, name: channel.name }, time: Date.now(), facts: {} });
  if (!result.ok) throw new HttpError(502, "PROVIDER_ERROR", result.error);
  return { success: true, message: "Test message sent" };
}

export interface NotificationRouteDeps {
  store: NotificationStore;
  /** The instance's public address (--public-url): the preview's target.url. */
  publicUrl?: string;
  outbox: Outbox;
  session: ReturnType<typeof sessions>;
  /** Whether a monitor / agent exists (an override for nothing is a 404). */
  exists: (type: TargetType, id: number) => boolean | Promise<boolean>;
}

export function notificationRoutes({ store, outbox, session, exists, publicUrl }: NotificationRouteDeps) {
  const target = async (type: TargetType, id: number) => {
    if (!(await exists(type, id))) throw type === "monitor" ? notFound("MONITOR_NOT_FOUND", "Monitor not found") : notFound("AGENT_NOT_FOUND", "Agent not found");
  };
  const targetReply = async (type: TargetType, id: number) => ({
    success: true,
    settings: await store.effective(type, id),
    override: (await store.getOverride(type, id)) !== null,
  });

  return (
    new Elysia({ prefix: "/api/notifications", detail: { tags: ["notifications"] } })
      .use(session)
      // --- channels ----------------------------------------------------------------------------------------------
      .get("/channels", async () => ({ success: true, channels: await store.listChannels() }), { auth: "user", detail: doc("List the channels (secrets masked)") })
      .post(
        "/channels",
        async ({ body, set }) => {
          const channel = await store.createChannel({ ...body, config: body.config ?? {} });
          set.status = 201;
          return { success: true, message: "Channel created", channel };
        },
        { auth: "user", body: channelBody, detail: doc("Create a channel") },
      )
      .get("/channels/:id", async ({ params }) => ({ success: true, channel: await store.getChannel(params.id) }), { auth: "user", params: idParams("channel"), detail: doc("A channel (secrets masked)") })
      .put(
        "/channels/:id",
        async ({ params, body }) => ({ success: true, message: "Channel updated", channel: await store.updateChannel(params.id, body) }),
        { auth: "user", params: idParams("channel"), body: channelBody, detail: doc("Update a channel (a masked secret sent back keeps the stored one)") },
      )
      .delete(
        "/channels/:id",
        async ({ params }) => {
          await store.deleteChannel(params.id);
          return { success: true, message: "Channel deleted" };
        },
        { auth: "user", params: idParams("channel"), detail: doc("Delete a channel") },
      )
      .post(
        "/channels/:id/test",
        async ({ params }) => sendTestMessage(outbox, await store.getChannel(params.id)),
        { auth: "user", params: idParams("channel"), detail: doc("Send a test message through a channel", 502) },
      )
      .post(
        "/templates/preview",
        async ({ body }) => {
          const { language, timeZone } = await store.getSettings();
          const preview = previewTemplate({ type: body.type, kind: body.kind, checkType: body.checkType, title: body.title, body: body.body, lang: body.lang ?? language, timeZone, baseUrl: publicUrl });
          return { success: true, ...preview };
        },
        { auth: "user", body: previewBody, detail: doc("Render a message template against a sample event of its kind (each part's text, or its problem with line and column)") },
      )
      // --- settings ----------------------------------------------------------------------------------------------
      .get("/settings", async () => ({ success: true, settings: await store.getSettings() }), { auth: "user", detail: doc("The global notification settings") })
      .put(
        "/settings",
        async ({ body }) => {
          checkThresholds(body.agent);
          if (body.timeZone !== undefined && !isTimeZone(body.timeZone)) throw badRequest("VALIDATION", `Unknown time zone: ${JSON.stringify(body.timeZone).slice(0, 80)}`);
          const current = await store.getSettings();
          const next: NotificationSettings = {
            monitor: monitorSettings(body.monitor),
            agent: agentSettings(body.agent),
            language: body.language ?? current.language,
            timeZone: body.timeZone ?? current.timeZone,
          };
          return { success: true, message: "Notification settings saved", settings: await store.saveSettings(next) };
        },
        {
          auth: "user",
          detail: doc("Save the global notification settings"),
          body: t.Object({
            monitor: monitorPart,
            agent: agentPart,
            language: t.Optional(t.Union([t.Literal("zh-CN"), t.Literal("en-US")], { error: "language must be zh-CN or en-US" })),
            timeZone: t.Optional(t.String({ minLength: 1, maxLength: 64, error: "timeZone must be an IANA zone such as Asia/Shanghai" })),
          }),
        },
      )
      // Which monitors and agents have their own settings: the override lists mark them without one call per row.
      .get("/settings/overrides", async () => ({ success: true, monitors: await store.overrideIds("monitor"), agents: await store.overrideIds("agent") }), { auth: "user", detail: doc("Which monitors and agents have their own settings") })
      .get("/settings/monitors/:id", async ({ params }) => (await target("monitor", params.id), targetReply("monitor", params.id)), { auth: "user", params: idParams("monitor"), detail: doc("A monitor's effective settings, and whether it has its own") })
      .put(
        "/settings/monitors/:id",
        async ({ params, body }) => {
          await target("monitor", params.id);
          await store.saveOverride("monitor", params.id, monitorSettings(body));
          return { ...(await targetReply("monitor", params.id)), message: "Notification settings saved" };
        },
        { auth: "user", params: idParams("monitor"), body: monitorPart, detail: doc("Give a monitor its own settings") },
      )
      .delete(
        "/settings/monitors/:id",
        async ({ params }) => {
          await target("monitor", params.id);
          await store.deleteOverride("monitor", params.id);
          return targetReply("monitor", params.id);
        },
        { auth: "user", params: idParams("monitor"), detail: doc("Return a monitor to the global settings") },
      )
      .get("/settings/agents/:id", async ({ params }) => (await target("agent", params.id), targetReply("agent", params.id)), { auth: "user", params: idParams("agent"), detail: doc("An agent's effective settings, and whether it has its own") })
      .put(
        "/settings/agents/:id",
        async ({ params, body }) => {
          await target("agent", params.id);
          checkThresholds(body);
          await store.saveOverride("agent", params.id, agentSettings(body));
          return { ...(await targetReply("agent", params.id)), message: "Notification settings saved" };
        },
        { auth: "user", params: idParams("agent"), body: agentPart, detail: doc("Give an agent its own settings") },
      )
      .delete(
        "/settings/agents/:id",
        async ({ params }) => {
          await target("agent", params.id);
          await store.deleteOverride("agent", params.id);
          return targetReply("agent", params.id);
        },
        { auth: "user", params: idParams("agent"), detail: doc("Return an agent to the global settings") },
      )
      // --- the delivery log --------------------------------------------------------------------------------------
      .get(
        "/deliveries",
        async ({ query }) => {
          if (query.channelId !== undefined) await store.getChannel(query.channelId); // 404 for an unknown channel
          return { success: true, deliveries: await store.deliveries({ channelId: query.channelId, limit: query.limit ?? 50 }) };
        },
        {
          auth: "user",
          detail: doc("The delivery log, newest first", 404),
          query: t.Object({
            channelId: t.Optional(t.Integer({ minimum: 1, error: "channelId must be a channel id" })),
            limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, error: "limit must be from 1 to 500" })),
          }),
        },
      )
  );
}
