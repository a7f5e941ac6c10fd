import { t } from "elysia";
import { MONITOR_METHODS } from "../db/schema";
import { HttpError, badRequest } from "../http/errors";
import { idParams } from "../http/ids";
import { isValidExpectedStatus, normaliseExpectedStatus } from "./expected-status";
import type { MonitorHeader, MonitorMethod } from "./public";
import { ALLOW_PRIVATE, literalHostProblem, type TargetPolicy } from "../net/targets";

// Request schemas for the monitor routes. Messages are the ones a user sees (the UI translates by `code`).

export const LIMITS = {
  nameLength: 100,
  urlLength: 2048,
  minInterval: 1,
  maxInterval: 1440,
  minTimeout: 1,
  maxTimeout: 60,
  maxRetries: 10,
  maxHeaders: 50,
  headerNameLength: 256,
  headerValueLength: 4096,
  bodyBytes: 64 * 1024,
} as const;

export const DEFAULTS = {
  method: "GET" as MonitorMethod,
  interval: 5,
  timeout: 30,
  expectedStatus: "2xx",
  retries: 1,
  active: true,
  followRedirects: true,
};

const INTERVAL_MESSAGE = `Interval must be a whole number of minutes from ${LIMITS.minInterval} to ${LIMITS.maxInterval}`;
const TIMEOUT_MESSAGE = `Timeout must be a whole number of seconds from ${LIMITS.minTimeout} to ${LIMITS.maxTimeout}`;
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
};

/** POST /api/monitors: name and url required, the rest defaulted. */
export const createBody = t.Object({
  name: fields.name,
  url: fields.url,
  method: t.Optional(fields.method),
  interval: t.Optional(fields.interval),
  timeout: t.Optional(fields.timeout),
  expectedStatus: t.Optional(fields.expectedStatus),
  headers: t.Optional(fields.headers),
  body: t.Optional(fields.body),
  active: t.Optional(fields.active),
  retries: t.Optional(fields.retries),
  followRedirects: t.Optional(fields.followRedirects),
});

/** PUT /api/monitors/:id: any subset; absent fields keep their value (so `{ "active": false }` pauses). */
export const updateBody = t.Partial(createBody);

export const monitorIdParams = idParams("monitor");

export const seriesQuery = t.Object({
  range: t.Optional(t.Union([t.Literal("24h"), t.Literal("7d"), t.Literal("30d")], { error: "range must be 24h, 7d or 30d" })),
});

/** A monitor's configuration once validated and normalised: what the store keeps. */
export interface MonitorFields {
  name: string;
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
}

export type MonitorPatch = Partial<MonitorFields>;

// Headers fetch computes itself: setting them by hand breaks the request.
const RESERVED_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"]);

const invalid = (code: string, message: string): HttpError => badRequest(code, message);

/** Parses and checks a monitor URL: http or https, with a host. Returns it normalised (trimmed). */
export function checkUrl(raw: string): string {
  const url = raw.trim();
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

/** "200, 3XX,200" → "200,3xx". */
/**
 * Merges a create or update body over the current fields (or the defaults), normalises it and checks what the
 * schemas cannot: a real http(s) URL, a name that is not blank, timeout below the interval, no body with GET/HEAD.
 */
export function resolveFields(input: MonitorPatch, current?: MonitorFields, policy: TargetPolicy = ALLOW_PRIVATE): MonitorFields {
  const base: MonitorFields = current ?? {
    name: "",
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
  };
  const merged: MonitorFields = { ...base };
  // Only the known fields, whatever else the body carried.
  for (const key of Object.keys(base) as (keyof MonitorFields)[]) {
    if (input[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = input[key];
  }

  merged.name = merged.name.trim();
  if (!merged.name) throw invalid("VALIDATION", "Name is required");
  merged.url = checkUrl(merged.url);
  // The address as written; names are checked again, resolved, before every request (server/net/targets.ts).
  const forbidden = literalHostProblem(merged.url, policy);
  if (forbidden) throw invalid("TARGET_FORBIDDEN", forbidden);
  if (!isValidExpectedStatus(merged.expectedStatus)) throw badRequest("VALIDATION", STATUS_MESSAGE);
  merged.expectedStatus = normaliseExpectedStatus(merged.expectedStatus);
  merged.body = merged.body === "" ? null : merged.body;
  merged.headers = merged.headers.map((h) => ({ name: h.name, value: h.value }));

  // A new monitor with a 1-minute interval and no timeout given gets the longest allowed one rather than an error.
  if (!current && input.timeout === undefined) merged.timeout = Math.min(DEFAULTS.timeout, merged.interval * 60 - 1);
  if (merged.timeout >= merged.interval * 60) {
    throw invalid("TIMEOUT_TOO_LONG", "Timeout must be shorter than the interval");
  }
  if (merged.body !== null) {
    if (merged.method === "GET" || merged.method === "HEAD") {
      throw invalid("BODY_NOT_ALLOWED", `A ${merged.method} request cannot have a body: choose another method or clear the body`);
    }
    if (Buffer.byteLength(merged.body) > LIMITS.bodyBytes) throw invalid("VALIDATION", "The request body must be text of at most 64 KB");
  }
  for (const h of merged.headers) {
    if (RESERVED_HEADERS.has(h.name.toLowerCase())) {
      throw invalid("RESERVED_HEADER", `The ${h.name} header is set by Vigil and cannot be changed`);
    }
  }
  return merged;
}
