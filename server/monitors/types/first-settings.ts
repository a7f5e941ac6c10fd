// The first five types' settings, each declared by its type (types/<type>/settings.ts). The API takes and shows them
// as flat fields of the monitor, as it always has (a name several types share, host or maxResponseTime, is one
// field); the store keeps a monitor's own type's ones as its settings object, like the later types'.
import type { Static, TSchema } from "@sinclair/typebox";
import type { MonitorType } from "../public";
import { dnsSettings } from "./dns/settings";
import { httpSettings } from "./http/settings";
import { pingSettings } from "./ping/settings";
import { pushSettings } from "./push/settings";
import { tcpSettings } from "./tcp/settings";

export const FIRST_TYPE_SETTINGS = { http: httpSettings, tcp: tcpSettings, dns: dnsSettings, push: pushSettings, ping: pingSettings } as const;
export type FirstTypeName = keyof typeof FIRST_TYPE_SETTINGS;

/** Every flat field of the first five types, typed by the schemas. */
export type FirstTypeFields = Static<typeof httpSettings> & Static<typeof tcpSettings> & Static<typeof dnsSettings> & Static<typeof pushSettings> & Static<typeof pingSettings>;

/** Each flat field's declaration (shared names are one shared declaration: shared-settings.ts). */
export const FIRST_TYPE_FIELDS = Object.assign({}, ...Object.values(FIRST_TYPE_SETTINGS).map((s) => s.properties)) as Record<keyof FirstTypeFields, TSchema>;

export const isFirstType = (type: MonitorType): type is FirstTypeName => Object.hasOwn(FIRST_TYPE_SETTINGS, type);

/** The flat fields of a new monitor: each field's default; "" for the one required text without one (http's url). */
export const firstTypeDefaults = (): FirstTypeFields =>
  Object.fromEntries(Object.entries(FIRST_TYPE_FIELDS).map(([key, schema]) => [key, "default" in schema ? structuredClone(schema.default) : ""])) as FirstTypeFields;

const FIELD_NAMES = Object.keys(FIRST_TYPE_FIELDS) as (keyof FirstTypeFields)[];

/** The flat fields of a monitor's fields, as replies show them. */
export function firstTypeFieldsOf(fields: FirstTypeFields): FirstTypeFields {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_NAMES) out[key] = fields[key];
  return out as FirstTypeFields;
}

/** The settings object a first-type monitor is stored with: its type's fields only. */
export function settingsOfType(type: FirstTypeName, fields: FirstTypeFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(FIRST_TYPE_SETTINGS[type].properties)) out[key] = fields[key as keyof FirstTypeFields];
  return out;
}
