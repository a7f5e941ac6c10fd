// What the API docs say about monitors beyond the schemas that validate requests: each later type's settings object as
// its own JSON Schema (the very schema its module validates with, from the registry, titled by the type, its secrets
// described), and the replies of the monitor routes. The request body's `settings` is validated as any object, the
// type's module checking it once the type is known; the document points it at these schemas instead (openapi.ts).
import type { JsonSchema } from "../http/openapi";
import { MONITOR_TYPES, SETTINGS_TYPE_NAMES, type SettingsTypeName } from "./monitor-types";
import { SETTINGS_SCHEMAS } from "./types/settings-schemas";
import { SECRET_MASK, secretFields } from "./types/settings-type";

export const SETTINGS_SCHEMA_NAME = "MonitorSettings";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** PostgresSettings, MqttSettings…: the component name of a type's settings. */
export const settingsSchemaName = (type: SettingsTypeName) => `${type[0]!.toUpperCase()}${type.slice(1)}Settings`;

const SECRET_NOTE = `A secret: replies show it as "${SECRET_MASK}" (empty stays empty); send that mask back, or leave the field out, to keep the stored value.`;
const URL_SECRET_NOTE = `A connection string: replies mask its password (scheme://user:${SECRET_MASK}@host/…); send it back as read to keep the stored one.`;

/** A type's settings schema as JSON, with a title and its secrets said in words (format password for whole ones). */
function typeSettingsSchema(type: SettingsTypeName): JsonSchema {
  const schema = SETTINGS_SCHEMAS[type];
  const json = JSON.parse(JSON.stringify(schema)) as JsonSchema & { properties: Record<string, JsonSchema> };
  for (const [field, kind] of secretFields(schema)) {
    const prop = json.properties[field]!;
    const note = kind === "url" ? URL_SECRET_NOTE : SECRET_NOTE;
    json.properties[field] = { ...prop, ...(kind === true ? { format: "password" } : {}), description: prop.description ? `${prop.description} ${note}` : note };
  }
  // What the API needs sent: a field with a default may be left out (TypeBox lists every field of an object).
  const required = ((json.required as string[] | undefined) ?? []).filter((field) => json.properties[field]?.default === undefined);
  return { ...json, required, title: type, description: `The settings of a ${type} monitor (\`"type": "${type}"\`). Fields left out take their defaults.` };
}

const nullable = (type: string, description?: string) => ({ type: [type, "null"], ...(description ? { description } : {}) });

const MONITOR: JsonSchema = {
  type: "object",
  description:
    "A monitor as the caller's role sees it (viewers: header values, body, URL passwords, push token and the settings' secrets and name/value lists' values left out). The first five types' fields (url, method, host, port, dns…, ping…) are the request body's; the later types' are in `settings`.",
  required: ["id", "name", "type", "target", "settings", "status", "active"],
  properties: {
    id: { type: "integer", minimum: 1 },
    name: { type: "string" },
    type: { type: "string", enum: [...MONITOR_TYPES] },
    target: { type: "string", description: "What lists show and search: the URL, host:port, host:port/database, a topic, an OID… never a secret" },
    settings: ref(SETTINGS_SCHEMA_NAME),
    status: { type: "string", enum: ["pending", "up", "down"], description: "pending: no verdict yet (new, or failing within its retries); whether it is paused is `active`" },
    active: { type: "boolean" },
    lastCheckedAt: nullable("integer", "Unix ms"),
    lastError: nullable("string", "The latest check's error sentence, null when it was up"),
    responseTime: nullable("integer", "ms"),
  },
  additionalProperties: true,
};

const CHECK_RESULT: JsonSchema = {
  type: "object",
  description: "One check as recorded.",
  required: ["monitorId", "time", "status", "responseTime", "httpStatus", "error", "maintenance"],
  properties: {
    monitorId: { type: "integer" },
    time: { type: "integer", description: "When the check started (Unix ms)" },
    status: { type: "string", enum: ["up", "down"] },
    responseTime: nullable("integer", "ms; null when no answer came"),
    httpStatus: nullable("integer"),
    error: nullable("string", "Why it failed (a manual monitor set down: its note)"),
    maintenance: { type: "boolean", description: "Made during maintenance (left out of uptime)" },
  },
  additionalProperties: true,
};

const TYPE_INFO: JsonSchema = {
  type: "object",
  required: ["type", "settings", "runsOnAgents", "scheduled", "unavailable"],
  properties: {
    type: { type: "string", enum: [...MONITOR_TYPES] },
    settings: {
      description: `The type's settings JSON Schema (as in ${SETTINGS_SCHEMA_NAME}, with the keywords the form reads: error, secret, format, host); null for the first five types, whose fields are the monitor's own`,
      anyOf: [{ type: "object" }, { type: "null" }],
    },
    runsOnAgents: { type: "boolean" },
    scheduled: { type: "boolean", description: "false: not checked on a clock (a group follows its members, a manual monitor is set)" },
    unavailable: nullable("string", "Why this server cannot run it now (an i18n key under monitors.unavailable, e.g. no Chromium), or null"),
  },
};

/** A success envelope with the route's data (the Success component's fields, spelled out so the page lists them). */
const reply = (description: string, required: string[], properties: Record<string, unknown>): JsonSchema => ({
  type: "object",
  description,
  required: ["success", ...required],
  properties: { success: { const: true }, message: { type: "string" }, ...properties },
  additionalProperties: true,
});

/** The monitors' components of the document: each settings schema, their union, and the monitor routes' replies. */
export function monitorSchemas(): Record<string, JsonSchema> {
  return {
    [SETTINGS_SCHEMA_NAME]: {
      description:
        "A later type's settings object: the schema titled by the monitor's `type` applies (postgres → PostgresSettings…); GET /api/monitors/types gives the same schemas. The first five types (http, tcp, dns, push, ping) and groups take none ({}).",
      anyOf: SETTINGS_TYPE_NAMES.map((type) => ref(settingsSchemaName(type))),
    },
    ...Object.fromEntries(SETTINGS_TYPE_NAMES.map((type) => [settingsSchemaName(type), typeSettingsSchema(type)])),
    Monitor: MONITOR,
    CheckResult: CHECK_RESULT,
    MonitorTypeInfo: TYPE_INFO,
    MonitorReply: reply("One monitor.", ["monitor"], { monitor: ref("Monitor") }),
    MonitorListReply: reply("The monitors.", ["monitors"], { monitors: { type: "array", items: ref("Monitor") } }),
    MonitorNamesReply: reply("Every monitor, by name.", ["monitors"], {
      monitors: {
        type: "array",
        items: {
          type: "object",
          required: ["id", "name", "type", "target", "parentId", "tags", "active"],
          properties: {
            id: { type: "integer" },
            name: { type: "string" },
            type: { type: "string" },
            target: { type: "string", description: "What it checks, as the list shows it (a viewer: without a URL password)." },
            parentId: { type: ["integer", "null"], description: "Its group." },
            tags: { type: "array", items: { type: "string" } },
            active: { type: "boolean" },
          },
        },
      },
    }),
    MonitorPageReply: reply("One page of the monitor list.", ["total", "offset", "rows", "counts", "tags", "monitors"], {
      total: { type: "integer", description: "Rows in the whole filtered list (collapsed groups' members left out)." },
      offset: { type: "integer" },
      rows: {
        type: "array",
        items: {
          type: "object",
          required: ["monitor", "depth", "members", "toggles"],
          properties: {
            monitor: ref("Monitor"),
            depth: { type: "integer", description: "How deep in groups the row sits (0: top level; always 0 in a searched or filtered list)." },
            members: { type: "integer", description: "A group's direct members in the list." },
            toggles: { type: "boolean", description: "Whether the row opens and closes its members." },
          },
        },
      },
      counts: {
        type: "object",
        description: "Monitors by status among those the search and tags let through (the status filter aside).",
        properties: Object.fromEntries(["all", "down", "pending", "up", "maintenance", "paused"].map((k) => [k, { type: "integer" }])),
      },
      tags: { type: "array", items: { type: "object", properties: { tag: { type: "string" }, count: { type: "integer" } } } },
      monitors: { type: "integer", description: "Every monitor of the instance." },
    }),
    CheckReply: reply("The check made and the monitor after it.", ["result"], { result: ref("CheckResult"), monitor: ref("Monitor") }),
    ManualReply: reply("The state set, recorded as a check.", ["result"], { result: ref("CheckResult") }),
    MonitorTypesReply: reply("Every monitor type.", ["types"], { types: { type: "array", items: ref("MonitorTypeInfo") } }),
    ScreenshotsReply: reply("A browser monitor's failure screenshots, latest first.", ["screenshots"], {
      screenshots: {
        type: "array",
        items: {
          type: "object",
          required: ["time", "error"],
          properties: {
            time: { type: "integer", description: "The check's start time (Unix ms): GET /api/monitors/{id}/screenshots/{time} gives the PNG" },
            error: nullable("string", "The check's error"),
          },
        },
      },
    }),
  };
}
