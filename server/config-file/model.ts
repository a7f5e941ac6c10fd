// Each object's "file form": what a configuration file says of it, with references by key. Both sides of a plan are
// in this form — the file's entries resolved by the API's own rules (resolveFields and the type's validate, as POST
// /api/monitors applies them), and the database's objects read back — so comparing them field by field is the plan,
// and a hash of it is what config_links.applied_hash remembers for drift.
import { createHash } from "node:crypto";
import { resolveFields, type MonitorFields } from "../monitors/field-rules";
import { isSettingsType } from "../monitors/public";
import { createCheckTypes } from "../monitors/types";
import type { CheckType } from "../monitors/types/check-type";
import { FIRST_TYPE_SETTINGS, isFirstType } from "../monitors/types/first-settings";
import { laterCheckTypes } from "../monitors/types/later-types";
import { SETTINGS_TYPES } from "../monitors/types/settings-registry";
import { secretFields } from "../monitors/types/settings-type";
import type { TargetPolicy } from "../net/targets";
import type { Kind } from "./schema";
import { notifyForm } from "./sections/notify";

export type Form = Record<string, unknown>;

/** An object in file form, with what identifies it. */
export interface FileObject {
  kind: Kind;
  key: string;
  name: string;
  form: Form;
}

/** Field paths ("settings.password") whose values are secrets: never shown, exported as ${ENV} references. */
export function secretPaths(kind: Kind, form: Form): Map<string, true | "url"> {
  const out = new Map<string, true | "url">();
  if (kind !== "monitor" || typeof form.type !== "string" || !isSettingsType(form.type as never)) return out;
  const type = SETTINGS_TYPES[form.type as keyof typeof SETTINGS_TYPES];
  for (const [field, how] of secretFields(type.schema)) out.set(`settings.${field}`, how);
  return out;
}

/** Stable JSON (keys sorted) for hashing and comparing. */
export function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Form)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable((value as Form)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export const hashForm = (form: Form): string => createHash("sha256").update(stable(form)).digest("hex");

/** A key from a name: lower case, dashes between words (what export gives objects that have none yet). */
export function slug(name: string): string {
  const s = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return s || "item";
}

/** References of a monitor or group, by key. */
export interface Refs {
  group: string | null;
  dependsOn: string[];
  /** Its own notification settings (sections/notify.ts), or null for the global ones. */
  notify: Form | null;
}

const GROUP_FIELDS = ["name", "active", "tags", "groupRule"] as const;
const MONITOR_FIELDS = ["name", "type", "tags", "intervalSeconds", "retryIntervalSeconds", "timeout", "active", "retries", "upsideDown"] as const;

/** A monitor's or group's file form from its fields: only what its type has (a tcp monitor has no url). */
export function monitorForm(kind: "monitor" | "group", f: MonitorFields, refs: Refs): Form {
  const form: Form = {};
  if (kind === "group") for (const k of GROUP_FIELDS) form[k] = f[k];
  else {
    for (const k of MONITOR_FIELDS) form[k] = f[k];
    if (isFirstType(f.type)) for (const k of Object.keys(FIRST_TYPE_SETTINGS[f.type].properties)) form[k] = f[k as keyof MonitorFields];
    else form.settings = f.settings;
  }
  form.group = refs.group;
  form.dependsOn = [...refs.dependsOn].sort();
  form.notify = refs.notify;
  return structuredClone(form);
}

/** The tag colour's form. */
export const tagForm = (name: string, color: string): Form => ({ name, color: color.toLowerCase() });

/**
 * Resolves monitor and group entries by the API's rules, as POST /api/monitors would create them from the same body:
 * the file says everything about an object (a field left out is its default), so the result does not depend on what
 * the database holds. Throws the API's HttpError for a refused entry.
 */
export function createResolver(policy: TargetPolicy) {
  const types = createCheckTypes({ policy, later: laterCheckTypes() });
  // A group has no check fields of its own to validate (as in the Kuma import).
  const validate = (f: MonitorFields, p: TargetPolicy, creating: boolean, stored: Record<string, unknown>) => (types.of(f.type) as CheckType | undefined)?.validate(f, p, creating, stored);
  return {
    resolve(kind: "monitor" | "group", entry: Form): MonitorFields {
      const { key: _k, group: _g, dependsOn: _d, notify: _n, ...body } = entry;
      return resolveFields(kind === "group" ? { ...body, type: "group" } : body, undefined, policy, validate);
    },
    close: () => types.close(),
  };
}
export type Resolver = ReturnType<typeof createResolver>;

/**
 * The entry as export writes it: the fields that equal what leaving them out gives are left out (defaults, and
 * those that follow from others such as the timeout from the interval), so files stay short.
 */
export function shorten(kind: "monitor" | "group", entry: Form, resolver: Resolver): Form {
  const full = (e: Form) => {
    try {
      return stable(monitorForm(kind, resolver.resolve(kind, e), { group: (e.group as string) ?? null, dependsOn: (e.dependsOn as string[]) ?? [], notify: notifyForm(e.notify) }));
    } catch {
      return null;
    }
  };
  const target = full(entry);
  let out = { ...entry };
  for (const field of Object.keys(entry)) {
    if (field === "key" || field === "name" || field === "type" || field === "notify") continue;
    if (field === "settings" && out.settings && typeof out.settings === "object") {
      for (const s of Object.keys(out.settings as Form)) {
        const { [s]: _, ...rest } = out.settings as Form;
        if (full({ ...out, settings: rest }) === target) out = { ...out, settings: rest };
      }
      if (Object.keys(out.settings as Form).length > 0) continue;
    }
    const { [field]: _, ...rest } = out;
    if (full(rest) === target) out = rest;
  }
  return out;
}
