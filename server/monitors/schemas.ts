import { t } from "elysia";
import { DNS_RECORD_TYPE_VALUES, MONITOR_METHODS, MONITOR_TYPE_VALUES, PING_FAMILY_VALUES } from "../db/schema";
import { HttpError, badRequest } from "../http/errors";
import { idParams } from "../http/ids";
import { isValidExpectedStatus, normaliseExpectedStatus } from "./expected-status";
import { DEFAULTS, LIMITS, RESERVED_HEADERS, SERIES_RANGES, defaultRetries, uniqueTags, type DnsRecordType, type MonitorHeader, type MonitorMethod, type MonitorType, type PingFamily } from "./public";
import { ALLOW_PRIVATE, literalHostProblem, type TargetPolicy } from "../net/targets";
import { PUSH_PING_MAX_MS } from "./types/push/push";

// Request schemas for the monitor routes. Messages are the ones a user sees (the UI translates by `code`).

const INTERVAL_MESSAGE = `Interval must be a whole number of minutes from ${LIMITS.minInterval} to ${LIMITS.maxInterval}`;
const TIMEOUT_MESSAGE = `Timeout must be a whole number of seconds from ${LIMITS.minTimeout} to ${LIMITS.maxTimeout}`;
export const RESOLVER_MESSAGE = "Resolver must be an IP address, optionally with a port (9.9.9.9, 127.0.0.1:5353 or [::1]:53)";
const STATUS_MESSAGE = "Expected status must be a code like 200, a class like 2xx or a range like 200-299 (several separated by commas)";

const fields = {
  name: t.String({ minLength: 1, maxLength: LIMITS.nameLength, error: `Name is required (at most ${LIMITS.nameLength} characters)` }),
  url: t.String({
    minLength: 1,
    maxLength: LIMITS.urlLength,
    error: `URL is required: an http:// or https:// address of at most ${LIMITS.urlLength} characters`,
  }),
  method: t.Union(
    MONITOR_METHODS.map((m) => t.Literal(m)),
    { error: `Method must be one of ${MONITOR_METHODS.join(", ")}` },
  ),
  interval: t.Integer({ minimum: LIMITS.minInterval, maximum: LIMITS.maxInterval, error: INTERVAL_MESSAGE }),
  timeout: t.Integer({ minimum: LIMITS.minTimeout, maximum: LIMITS.maxTimeout, error: TIMEOUT_MESSAGE }),
  // Checked by expected-status.ts in resolveFields (ranges must go low to high, which a pattern cannot say).
  // A client sending the number 200 means the code 200: taken as the text "200" rather than refused.
  expectedStatus: t
    .Transform(
      t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Integer({ minimum: 100, maximum: 599 })], { error: STATUS_MESSAGE }),
    )
    .Decode((value) => String(value))
    .Encode((value) => value),
  headers: t.Array(
    t.Object({
      // RFC 9110 token characters.
      name: t.String({
        minLength: 1,
        maxLength: LIMITS.headerNameLength,
        pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
        error: "Header names may only contain letters, digits and !#$%&'*+-.^_`|~",
      }),
      // Visible characters, spaces and tabs: no line breaks (no header injection).
      value: t.String({
        maxLength: LIMITS.headerValueLength,
        pattern: "^[\\t\\x20-\\x7E\\x80-\\xFF]*$",
        error: `Header values must be at most ${LIMITS.headerValueLength} characters, without line breaks`,
      }),
    }, { error: "Each header needs a name and a value" }),
    { maxItems: LIMITS.maxHeaders, error: `At most ${LIMITS.maxHeaders} headers` },
  ),
  body: t.Union([t.Null(), t.String({ maxLength: LIMITS.bodyBytes })], { error: "The request body must be text of at most 64 KB" }),
  active: t.Boolean({ error: "active must be true or false" }),
  retries: t.Integer({ minimum: 0, maximum: LIMITS.maxRetries, error: `Retries must be a whole number from 0 to ${LIMITS.maxRetries}` }),
  followRedirects: t.Boolean({ error: "followRedirects must be true or false" }),
  type: t.Union(
    MONITOR_TYPE_VALUES.map((v) => t.Literal(v)),
    { error: `Type must be one of ${MONITOR_TYPE_VALUES.join(", ")}` },
  ),
  tags: t.Array(t.String({ maxLength: 200, error: "Each tag must be text" }), {
    maxItems: LIMITS.maxTags,
    error: `At most ${LIMITS.maxTags} tags, each 1-${LIMITS.tagLength} characters`,
  }),
  keyword: t.Union([t.Null(), t.String({ maxLength: LIMITS.keywordLength })], { error: `The keyword must be text of at most ${LIMITS.keywordLength} characters` }),
  keywordInvert: t.Boolean({ error: "keywordInvert must be true or false" }),
  keywordCaseSensitive: t.Boolean({ error: "keywordCaseSensitive must be true or false" }),
  jsonPath: t.Union([t.Null(), t.String({ maxLength: LIMITS.jsonPathLength })], { error: `The JSON path must be text of at most ${LIMITS.jsonPathLength} characters` }),
  maxResponseTime: t.Union([t.Null(), t.Integer({ minimum: 1, maximum: LIMITS.maxResponseTime })], {
    error: `The slow-answer limit must be a whole number of milliseconds from 1 to ${LIMITS.maxResponseTime}`,
  }),
  ignoreTls: t.Boolean({ error: "ignoreTls must be true or false" }),
  tlsExpiryDays: t.Union([t.Null(), t.Integer({ minimum: 1, maximum: LIMITS.maxTlsExpiryDays })], {
    error: `TLS expiry warning must be a whole number of days from 1 to ${LIMITS.maxTlsExpiryDays}`,
  }),
  host: t.String({ maxLength: LIMITS.hostLength, error: `Host must be a host name or IP address of at most ${LIMITS.hostLength} characters` }),
  port: t.Union([t.Null(), t.Integer({ minimum: 1, maximum: 65535 })], { error: "Port must be a whole number from 1 to 65535" }),
  dnsRecordType: t.Union(
    DNS_RECORD_TYPE_VALUES.map((v) => t.Literal(v)),
    { error: `Record type must be one of ${DNS_RECORD_TYPE_VALUES.join(", ")}` },
  ),
  dnsResolver: t.Union([t.Null(), t.String({ maxLength: LIMITS.resolverLength })], { error: RESOLVER_MESSAGE }),
  dnsExpected: t.Union([t.Null(), t.String({ maxLength: LIMITS.dnsExpectedLength })], {
    error: `The expected answer must be text of at most ${LIMITS.dnsExpectedLength} characters`,
  }),
  pushGrace: t.Integer({ minimum: 0, maximum: LIMITS.maxPushGrace, error: `Grace must be a whole number of seconds from 0 to ${LIMITS.maxPushGrace}` }),
  pingCount: t.Integer({ minimum: 1, maximum: LIMITS.maxPingCount, error: `Packets must be a whole number from 1 to ${LIMITS.maxPingCount}` }),
  pingFamily: t.Union(
    PING_FAMILY_VALUES.map((v) => t.Literal(v)),
    { error: `The address family must be one of ${PING_FAMILY_VALUES.join(", ")}` },
  ),
  pingLossThreshold: t.Integer({ minimum: 1, maximum: 100, error: "The packet loss threshold must be a whole percentage from 1 to 100" }),
};

/** POST /api/monitors: name required (and what the type needs: url, host and port…), the rest defaulted. */
export const createBody = t.Object({
  name: fields.name,
  type: t.Optional(fields.type),
  tags: t.Optional(fields.tags),
  url: t.Optional(fields.url),
  method: t.Optional(fields.method),
  interval: t.Optional(fields.interval),
  timeout: t.Optional(fields.timeout),
  expectedStatus: t.Optional(fields.expectedStatus),
  headers: t.Optional(fields.headers),
  body: t.Optional(fields.body),
  active: t.Optional(fields.active),
  retries: t.Optional(fields.retries),
  followRedirects: t.Optional(fields.followRedirects),
  keyword: t.Optional(fields.keyword),
  keywordInvert: t.Optional(fields.keywordInvert),
  keywordCaseSensitive: t.Optional(fields.keywordCaseSensitive),
  jsonPath: t.Optional(fields.jsonPath),
  maxResponseTime: t.Optional(fields.maxResponseTime),
  ignoreTls: t.Optional(fields.ignoreTls),
  tlsExpiryDays: t.Optional(fields.tlsExpiryDays),
  host: t.Optional(fields.host),
  port: t.Optional(fields.port),
  dnsRecordType: t.Optional(fields.dnsRecordType),
  dnsResolver: t.Optional(fields.dnsResolver),
  dnsExpected: t.Optional(fields.dnsExpected),
  pushGrace: t.Optional(fields.pushGrace),
  pingCount: t.Optional(fields.pingCount),
  pingFamily: t.Optional(fields.pingFamily),
  pingLossThreshold: t.Optional(fields.pingLossThreshold),
});

/** PUT /api/monitors/:id: any subset; absent fields keep their value (so `{ "active": false }` pauses). */
export const updateBody = t.Partial(createBody);

export const monitorIdParams = idParams("monitor");

/** A token that cannot be one is answered like an unknown one (404), not as a validation error. */
export const pushParams = t.Object({ token: t.String({ maxLength: 64 }) });
export const pushQuery = t.Object({
  status: t.Optional(t.Union([t.Literal("up"), t.Literal("down")], { error: "status must be up or down" })),
  // Any length: a failing job's long message must not cost its failure. The first PUSH_MESSAGE_LENGTH characters are
  // kept (push.ts); the server's request-line limit bounds what is read at all.
  msg: t.Optional(t.String({ error: "msg must be text" })),
  // A whole number in the range charts and the in-memory ring (Int32Array) hold: anything else is refused, not stored.
  ping: t.Optional(t.Integer({ minimum: 0, maximum: PUSH_PING_MAX_MS, error: `ping must be a whole number of milliseconds from 0 to ${PUSH_PING_MAX_MS}` })),
});

/** The most monitors one call for recent checks may name: the list asks for the rows in view (a few dozen). */
export const RECENT_IDS_MAX = 200;

export const recentChecksQuery = t.Object({
  ids: t.Optional(
    t
      .Transform(
        t.String({
          pattern: `^[1-9][0-9]{0,14}(,[1-9][0-9]{0,14}){0,${RECENT_IDS_MAX - 1}}$`,
          error: `ids must be up to ${RECENT_IDS_MAX} monitor ids separated by commas`,
        }),
      )
      .Decode((value) => value.split(",").map(Number))
      .Encode((ids) => ids.join(",")),
  ),
});

export const seriesQuery = t.Object({
  range: t.Optional(t.Union(SERIES_RANGES.map((r) => t.Literal(r)), { error: `range must be ${SERIES_RANGES.slice(0, -1).join(", ")} or ${SERIES_RANGES.at(-1)}` })),
});

/** A monitor's configuration once validated and normalised: what the store keeps. */
export interface MonitorFields {
  name: string;
  type: MonitorType;
  tags: string[];
  url: string;
  method: MonitorMethod;
  interval: number;
  timeout: number;
  expectedStatus: string;
  headers: MonitorHeader[];
  body: string | null;
  active: boolean;
  retries: number;
  followRedirects: boolean;
  keyword: string | null;
  keywordInvert: boolean;
  keywordCaseSensitive: boolean;
  jsonPath: string | null;
  maxResponseTime: number | null;
  ignoreTls: boolean;
  tlsExpiryDays: number | null;
  host: string;
  port: number | null;
  dnsRecordType: DnsRecordType;
  dnsResolver: string | null;
  dnsExpected: string | null;
  pushGrace: number;
  /** Not set by users: generated when a monitor becomes a push monitor, replaced on request. */
  pushToken: string | null;
  pingCount: number;
  pingFamily: PingFamily;
  pingLossThreshold: number;
}

export type MonitorPatch = Partial<MonitorFields>;

// Headers fetch computes itself: setting them by hand breaks the request.

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
    name: "",
    type: DEFAULTS.type,
    tags: [],
    url: "",
    method: DEFAULTS.method,
    interval: DEFAULTS.interval,
    timeout: DEFAULTS.timeout,
    expectedStatus: DEFAULTS.expectedStatus,
    headers: [],
    body: null,
    active: DEFAULTS.active,
    retries: DEFAULTS.retries,
    followRedirects: DEFAULTS.followRedirects,
    keyword: null,
    keywordInvert: false,
    keywordCaseSensitive: false,
    jsonPath: null,
    maxResponseTime: null,
    ignoreTls: false,
    tlsExpiryDays: null,
    host: "",
    port: null,
    dnsRecordType: DEFAULTS.dnsRecordType,
    dnsResolver: null,
    dnsExpected: null,
    pushGrace: DEFAULTS.pushGrace,
    pushToken: null,
    pingCount: DEFAULTS.pingCount,
    pingFamily: DEFAULTS.pingFamily,
    pingLossThreshold: DEFAULTS.pingLossThreshold,
  };
}

/** The tags as kept (public.ts uniqueTags); one too long is refused. */
export function normaliseTags(tags: string[]): string[] {
  const out = uniqueTags(tags);
  if (out.some((tag) => tag.length > LIMITS.tagLength)) throw invalid("VALIDATION", `At most ${LIMITS.maxTags} tags, each 1-${LIMITS.tagLength} characters`);
  return out;
}

/**
 * Merges a create or update body over the current fields (or the defaults), normalises it and checks what the
 * schemas cannot: the shared rules here (a name that is not blank, timeout below the interval), the type's own in
 * server/monitors/types/<type>/ (an http(s) URL, a host and port, a resolver address…).
 */
export function resolveFields(
  input: MonitorPatch,
  current: MonitorFields | undefined,
  policy: TargetPolicy,
  validateType: (fields: MonitorFields, policy: TargetPolicy, creating: boolean) => void,
): MonitorFields {
  const base: MonitorFields = current ?? defaultFields();
  const merged: MonitorFields = { ...base };
  // Only the known fields, whatever else the body carried.
  for (const key of Object.keys(base) as (keyof MonitorFields)[]) {
    if (key !== "pushToken" && input[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = input[key];
  }

  merged.name = merged.name.trim();
  if (!merged.name) throw invalid("VALIDATION", "Name is required");
  merged.tags = normaliseTags(merged.tags);

  // A new monitor with a 1-minute interval and no timeout given gets the longest allowed one rather than an error.
  if (!current && input.timeout === undefined) merged.timeout = Math.min(DEFAULTS.timeout, merged.interval * 60 - 1);
  if (!current && input.retries === undefined) merged.retries = defaultRetries(merged.type);
  if (merged.timeout >= merged.interval * 60 && merged.type !== "push") {
    throw invalid("TIMEOUT_TOO_LONG", "Timeout must be shorter than the interval");
  }
  validateType(merged, policy, !current);
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
