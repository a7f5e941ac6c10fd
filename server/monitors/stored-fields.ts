// A monitor's row and its fields: the first five types' settings are flat fields in memory and on the API, and the
// settings object in the row (only the monitor's own type's, as its schema declares them); the later types keep
// their settings object as is.
import type { MonitorRow } from "../db/schema";
import type { MonitorFields } from "./field-rules";
import { firstTypeDefaults, isFirstType, settingsOfType } from "./types/first-settings";

/**
 * Each row read brings its own copy of strings most monitors share ("http", "GET", "2xx", "pending"…): one instance
 * of each is kept. Bounded, for short values only, in case a field holds unique values.
 */
const shared = new Map<string, string>();
export function intern<T extends string | null>(value: T): T {
  if (value === null || value.length > 32) return value;
  const known = shared.get(value);
  if (known !== undefined) return known as T;
  if (shared.size < 512) shared.set(value, value);
  return value;
}

// Most monitors have no tags or headers, and the first five types no settings object: they share one empty array
// or object (frozen; nothing edits these in place).
const NO_TAGS = Object.freeze([]) as unknown as string[];
const NO_HEADERS = Object.freeze([]) as unknown as MonitorFields["headers"];
const NO_SETTINGS = Object.freeze({}) as Record<string, unknown>;
/** What a monitor shows for the first types' fields its type does not have (and its own that its row lacks). */
const TYPE_DEFAULTS = Object.freeze({ ...firstTypeDefaults(), headers: NO_HEADERS });

export function fieldsOf(row: MonitorRow): MonitorFields {
  const first = isFirstType(row.type);
  const fields: MonitorFields = {
    ...TYPE_DEFAULTS,
    ...(first ? (row.settings as Partial<MonitorFields>) : {}),
    name: row.name,
    type: intern(row.type),
    tags: row.tags.length === 0 ? NO_TAGS : row.tags,
    intervalSeconds: row.intervalSeconds,
    retryIntervalSeconds: row.retryIntervalSeconds,
    timeout: row.timeoutMs / 1000,
    active: row.active,
    retries: row.retries,
    pushToken: row.pushToken,
    upsideDown: row.upsideDown,
    objective: row.objective,
    objectiveDays: row.objectiveDays,
    parentId: row.parentId,
    groupRule: intern(row.groupRule),
    settings: first ? NO_SETTINGS : row.settings,
  };
  if (first) {
    fields.method = intern(fields.method);
    fields.expectedStatus = intern(fields.expectedStatus);
    fields.dnsRecordType = intern(fields.dnsRecordType);
    fields.dnsResolver = intern(fields.dnsResolver);
    fields.pingFamily = intern(fields.pingFamily);
    if (fields.headers.length === 0) fields.headers = NO_HEADERS;
  }
  return fields;
}

/** The columns of a monitor's fields (the row keeps the timeout in milliseconds). */
export function rowOf(fields: MonitorFields) {
  return {
    name: fields.name,
    type: fields.type,
    tags: fields.tags,
    intervalSeconds: fields.intervalSeconds,
    retryIntervalSeconds: fields.retryIntervalSeconds,
    timeoutMs: Math.round(fields.timeout * 1000),
    active: fields.active,
    retries: fields.retries,
    pushToken: fields.pushToken,
    upsideDown: fields.upsideDown,
    objective: fields.objective,
    objectiveDays: fields.objectiveDays,
    parentId: fields.parentId,
    groupRule: fields.groupRule,
    settings: isFirstType(fields.type) ? settingsOfType(fields.type, fields) : fields.settings,
  };
}
