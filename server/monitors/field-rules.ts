// The rules a monitor's fields follow once the request schemas have passed them (schemas.ts), and the field shape
// the store and the check modules share. Free of the web framework and the database (no elysia, drizzle or
// server/db): the check modules (server/monitors/types/**) import these, and the agent runs those modules.
import { badRequest, type HttpError } from "../http/http-error";
import { ALLOW_PRIVATE, literalHostProblem, type TargetPolicy } from "../net/targets";
import { isValidExpectedStatus, normaliseExpectedStatus } from "./expected-status";
import { DEFAULTS, LIMITS, RESERVED_HEADERS, defaultRetries, isSettingsType, uniqueTags, type GroupRule, type MonitorType } from "./public";
import { firstTypeDefaults, type FirstTypeFields } from "./types/first-settings";
import { STATUS_MESSAGE } from "./types/http/settings";

/**
 * A monitor's configuration once validated and normalised: what the store keeps. Flat, every type's fields present
 * (the first five types' ones declared by their settings schemas, FirstTypeFields; a monitor of another type has
 * their defaults), as the API has always shown it.
 */
export interface MonitorFields extends FirstTypeFields {
  name: string;
  type: MonitorType;
  tags: string[];
  /** Seconds between checks. */
  intervalSeconds: number;
  /** Seconds between checks while a failure is retried; null: the interval. */
  retryIntervalSeconds: number | null;
  /** Seconds (fractions allowed) before a check gives up. */
  timeout: number;
  active: boolean;
  retries: number;
  /** Not set by users: generated when a monitor becomes a push monitor, replaced on request. */
  pushToken: string | null;
  /** Up when the check fails, down when it passes. */
  upsideDown: boolean;
  /** Availability objective, percent, over the last `objectiveDays` (server/objectives/); null: none. */
  objective: number | null;
  objectiveDays: number;
  /** The group (a monitor of type "group") this one belongs to. */
  parentId: number | null;
  /** type "group": how its state follows its members. */
  groupRule: GroupRule;
  /** The later types' own settings, validated by the type's schema ({} for the first five types: theirs are flat). */
  settings: Record<string, unknown>;
}

export type MonitorPatch = Partial<MonitorFields>;
/** A create or update body: the fields, and `interval` in minutes as the API has always taken it. */
export type MonitorChange = MonitorPatch & { interval?: number };

const invalid = (code: string, message: string): HttpError => badRequest(code, message);

/** Parses and checks a monitor URL: http or https, with a host. Returns it normalised (trimmed). */
export function checkUrl(raw: string): string {
  const url = raw.trim();
  if (!url) throw invalid("INVALID_URL", "URL is required: an http:// or https:// address");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("INVALID_URL", "URL must be a valid http:// or https:// address");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw invalid("INVALID_URL", "URL must start with http:// or https://");
  }
  if (!parsed.hostname) throw invalid("INVALID_URL", "URL must name a host");
  if (/\s/.test(url)) throw invalid("INVALID_URL", "URL must not contain spaces");
  return url;
}

/** The fields of a new monitor before its body is applied. */
export function defaultFields(): MonitorFields {
  return {
    ...firstTypeDefaults(),
    name: "",
    type: DEFAULTS.type,
    tags: [],
    intervalSeconds: DEFAULTS.intervalSeconds,
    retryIntervalSeconds: null,
    timeout: DEFAULTS.timeout,
    active: DEFAULTS.active,
    retries: DEFAULTS.retries,
    pushToken: null,
    upsideDown: false,
    objective: null,
    objectiveDays: 30,
    parentId: null,
    groupRule: "worst",
    settings: {},
  };
}

/** The tags as kept (public.ts uniqueTags); one too long is refused. */
export function normaliseTags(tags: string[]): string[] {
  const out = uniqueTags(tags);
  if (out.some((tag) => tag.length > LIMITS.tagLength)) throw invalid("VALIDATION", `At most ${LIMITS.maxTags} tags, each 1-${LIMITS.tagLength} characters`);
  return out;
}

/** A new monitor's timeout when none is given: 0.8 × its (shortest) interval, at most 30 s, to the tenth of a second. */
export const defaultTimeout = (intervalSeconds: number): number => Math.min(DEFAULTS.timeout, Math.floor(intervalSeconds * 8) / 10);

/**
 * The legacy `interval` (minutes) as intervalSeconds. It must be whole seconds (0.5 is 30 s; the 1/3 a GET shows for
 * 20 s comes back as 20), and a body with both must have them agree: a client that edits only the minutes of a
 * monitor it read would otherwise see its change ignored.
 */
function withLegacyInterval(input: MonitorChange): MonitorChange {
  if (input.interval === undefined) return input;
  const seconds = Math.round(input.interval * 60);
  if (Math.abs(input.interval * 60 - seconds) > 1e-6 || seconds < LIMITS.minIntervalSeconds || seconds > LIMITS.maxIntervalSeconds) {
    throw invalid("VALIDATION", `Interval must be a number of minutes up to ${LIMITS.maxInterval} that is a whole number of seconds (0.5 = 30 s)`);
  }
  if (input.intervalSeconds !== undefined && input.intervalSeconds !== seconds) {
    throw invalid("INTERVAL_MISMATCH", `interval (${input.interval} min) and intervalSeconds (${input.intervalSeconds} s) disagree: send one of them`);
  }
  return { ...input, intervalSeconds: seconds };
}

/**
 * Merges a create or update body over the current fields (or the defaults), normalises it and checks what the
 * schemas cannot: the shared rules here (a name that is not blank, timeout below the interval), the type's own in
 * server/monitors/types/<type>/ (an http(s) URL, a host and port, a resolver address…).
 */
export function resolveFields(
  input: MonitorChange,
  current: MonitorFields | undefined,
  policy: TargetPolicy,
  validateType: (fields: MonitorFields, policy: TargetPolicy, creating: boolean, stored: Record<string, unknown>) => void,
): MonitorFields {
  const base: MonitorFields = current ?? defaultFields();
  const merged: MonitorFields = { ...base };
  input = withLegacyInterval(input);
  // Only the known fields, whatever else the body carried.
  for (const key of Object.keys(base) as (keyof MonitorFields)[]) {
    if (key !== "pushToken" && key !== "settings" && input[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = input[key];
  }
  // A type's settings are merged over the stored ones of the same type (a PUT may send only what changes); a new
  // type starts from its defaults. The first five types keep theirs in the flat fields.
  const stored = current && current.type === merged.type ? current.settings : {};
  merged.settings = isSettingsType(merged.type) ? { ...stored, ...(input.settings ?? {}) } : {};

  merged.name = merged.name.trim();
  if (!merged.name) throw invalid("VALIDATION", "Name is required");
  merged.tags = normaliseTags(merged.tags);

  // Kept to the millisecond, as stored.
  merged.timeout = Math.round(merged.timeout * 1000) / 1000;
  // A check must end before the next one is due, retries included: the timeout is below both intervals. A new
  // monitor given no timeout gets Kuma's default, 0.8 × the shorter interval (at most 30 s), rather than an error.
  const shortest = Math.min(merged.intervalSeconds, merged.retryIntervalSeconds ?? merged.intervalSeconds);
  if (!current && input.timeout === undefined) merged.timeout = defaultTimeout(shortest);
  if (!current && input.retries === undefined) merged.retries = defaultRetries(merged.type);
  // A manual monitor's state is what was set: no failure waits for a retry.
  if (merged.type === "manual") merged.retries = 0;
  if (merged.timeout >= shortest && merged.type !== "push") {
    throw invalid(
      "TIMEOUT_TOO_LONG",
      merged.retryIntervalSeconds !== null && merged.retryIntervalSeconds < merged.intervalSeconds
        ? "Timeout must be shorter than the interval and the retry interval"
        : "Timeout must be shorter than the interval",
    );
  }
  validateType(merged, policy, !current, stored);
  return merged;
}

/**
 * The http type's rules: a real http(s) URL allowed by the address policy, a valid expected status, no body with
 * GET/HEAD, no reserved header; the assertions' limits. (Kept here with the URL and status helpers they use.)
 */
export function validateHttpFields(merged: MonitorFields, policy: TargetPolicy = ALLOW_PRIVATE): void {
  merged.url = checkUrl(merged.url);
  // The address as written; names are checked again, resolved, before every request (server/net/targets.ts).
  const forbidden = literalHostProblem(merged.url, policy);
  if (forbidden) throw invalid("TARGET_FORBIDDEN", forbidden);
  if (!isValidExpectedStatus(merged.expectedStatus)) throw badRequest("VALIDATION", STATUS_MESSAGE);
  merged.expectedStatus = normaliseExpectedStatus(merged.expectedStatus);
  merged.body = merged.body === "" ? null : merged.body;
  merged.headers = merged.headers.map((h) => ({ name: h.name, value: h.value }));
  if (merged.body !== null) {
    if (merged.method === "GET" || merged.method === "HEAD") {
      throw invalid("BODY_NOT_ALLOWED", `A ${merged.method} request cannot have a body: choose another method or clear the body`);
    }
    if (Buffer.byteLength(merged.body) > LIMITS.bodyBytes) throw invalid("VALIDATION", "The request body must be text of at most 64 KB");
  }
  for (const h of merged.headers) {
    if (RESERVED_HEADERS.includes(h.name.toLowerCase())) {
      throw invalid("RESERVED_HEADER", `The ${h.name} header is set by Vigil and cannot be changed`);
    }
  }
  if (merged.keyword === "") merged.keyword = null;
  if (merged.jsonPath !== null && merged.jsonPath.trim() === "") merged.jsonPath = null;
  if (merged.maxResponseTime !== null && merged.maxResponseTime >= merged.timeout * 1000) {
    throw invalid("MAX_RESPONSE_TIME_TOO_LONG", "The slow-answer limit must be below the timeout");
  }
}
