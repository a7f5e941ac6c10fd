// The monitor form's logic (unit-tested without a DOM): its values, validation matching the server's rules
// (server/monitors/schemas.ts, types/*), tags, server errors mapped to fields, and the request it sends.
import type { ParseKeys } from "i18next";
import {
  DEFAULTS,
  LIMITS,
  RESERVED_HEADERS,
  defaultRetries,
  uniqueTags,
  type DnsRecordType,
  type GroupRule,
  type MonitorHeader,
  type MonitorInput,
  type MonitorMethod,
  type MonitorType,
  type PingFamily,
  type PublicMonitor,
} from "../../api/monitors";
import { isValidExpectedStatus } from "../../../server/monitors/expected-status";
import { parseHost, parseResolver } from "../../../server/monitors/types/address";
import { scheduleInput, scheduleOf, validateSchedule, type ScheduleValues } from "./intervals";
import { isSettingsType, UNSCHEDULED_TYPES, type SettingsTypeName } from "../../../server/monitors/public";
import { settingFields, settingsForm, settingsInput, validateSettingsForm, type SettingsValues } from "./settingsModel";

// ── Form ────────────────────────────────────────────────────────────────────────────────────────────────────────

export interface HeaderRow extends MonitorHeader {
  /** A stable React key for the row. */
  key: number;
}

/**
 * What the form edits: numbers as typed (strings), so a half-typed value is not lost. It holds the fields of every
 * type at once: switching the type back and forth in the form finds what was typed before (tcp and dns share `host`,
 * as the server does).
 */
export interface MonitorFormValues extends ScheduleValues {
  type: MonitorType;
  name: string;
  tags: string[];
  /** Text typed in the tag input and not yet turned into a tag (it is added when the form is sent). */
  tagDraft: string;
  retries: string;
  active: boolean;
  /** Up when the check fails, down when it passes (every type). */
  upsideDown: boolean;
  /** Availability objective in percent ("" for none) and its window in days. */
  objective: string;
  objectiveDays: string;
  /** The monitors this one depends on (ids). */
  dependsOn: number[];
  // http
  url: string;
  method: MonitorMethod;
  expectedStatus: string;
  followRedirects: boolean;
  headers: HeaderRow[];
  body: string;
  keyword: string;
  keywordInvert: boolean;
  keywordCaseSensitive: boolean;
  jsonPath: string;
  maxResponseTime: string;
  ignoreTls: boolean;
  freshConnection: boolean;
  tlsExpiryDays: string;
  // tcp (host, port) and dns (host = the name to look up)
  host: string;
  port: string;
  dnsRecordType: DnsRecordType;
  dnsResolver: string;
  dnsExpected: string;
  // push
  pushGrace: string;
  // ping (host; timeout per packet; maxResponseTime limits the average round trip)
  pingCount: string;
  pingFamily: PingFamily;
  pingLossThreshold: string;
  /** The group it belongs to: a group's id as text, "" for none. */
  parentId: string;
  // group
  groupRule: GroupRule;
  /** The later types' settings as typed, by type (switching types back and forth keeps what was typed). */
  settings: Partial<Record<SettingsTypeName, SettingsValues>>;
}

/** The form's fields that hold text (the inputs bound by name). */
export type TextKey = {
  [K in keyof MonitorFormValues]: MonitorFormValues[K] extends string ? K : never;
}[keyof MonitorFormValues];

export const methodHasBody = (method: MonitorMethod) => method !== "GET" && method !== "HEAD";

/** Whether a type has a timeout: push, group and manual fetch nothing, so they have none. */
export const hasTimeout = (type: MonitorType) => type !== "push" && !UNSCHEDULED_TYPES.includes(type);
/** Whether a type has retries: a group's state follows its members' at once. */
export const hasRetries = (type: MonitorType) => type !== "group" && type !== "manual";

let rowKey = 0;
export const headerRow = (name = "", value = ""): HeaderRow => ({ key: ++rowKey, name, value });

/** A new monitor: the server's defaults. */
export function emptyForm(): MonitorFormValues {
  return {
    type: DEFAULTS.type,
    name: "",
    tags: [],
    tagDraft: "",
    ...scheduleOf({ intervalSeconds: DEFAULTS.intervalSeconds, retryIntervalSeconds: null, timeout: DEFAULTS.timeout }, true),
    retries: String(defaultRetries(DEFAULTS.type)),
    active: DEFAULTS.active,
    upsideDown: false,
    objective: "",
    objectiveDays: "30",
    dependsOn: [],
    url: "",
    method: DEFAULTS.method,
    expectedStatus: DEFAULTS.expectedStatus,
    followRedirects: DEFAULTS.followRedirects,
    headers: [],
    body: "",
    keyword: "",
    keywordInvert: false,
    keywordCaseSensitive: false,
    jsonPath: "",
    maxResponseTime: "",
    ignoreTls: false,
    freshConnection: false,
    tlsExpiryDays: "",
    host: "",
    port: "",
    dnsRecordType: DEFAULTS.dnsRecordType,
    dnsResolver: "",
    dnsExpected: "",
    pushGrace: String(DEFAULTS.pushGrace),
    pingCount: String(DEFAULTS.pingCount),
    pingFamily: DEFAULTS.pingFamily,
    pingLossThreshold: String(DEFAULTS.pingLossThreshold),
    parentId: "",
    groupRule: "worst",
    settings: {},
  };
}

/** A later type's settings in the form: as typed, else its defaults. */
export const settingsOf = (v: MonitorFormValues, type: SettingsTypeName): SettingsValues => v.settings[type] ?? settingsForm(type);

const optionalNumber = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

/** The form after choosing a type; a new monitor's untouched retries follow the type's default (push: 0). */
export function withType(v: MonitorFormValues, type: MonitorType, creating: boolean): Partial<MonitorFormValues> {
  return creating && v.retries === String(defaultRetries(v.type)) ? { type, retries: String(defaultRetries(type)) } : { type };
}

export function formFromMonitor(m: PublicMonitor): MonitorFormValues {
  return {
    type: m.type,
    name: m.name,
    tags: [...m.tags],
    tagDraft: "",
    ...scheduleOf(m),
    retries: String(m.retries),
    active: m.active,
    upsideDown: m.upsideDown,
    objective: m.objective === null ? "" : String(m.objective),
    objectiveDays: String(m.objectiveDays),
    dependsOn: [...m.dependsOn],
    url: m.url,
    method: m.method,
    expectedStatus: m.expectedStatus,
    followRedirects: m.followRedirects,
    headers: m.headers.map((h) => headerRow(h.name, h.value)),
    body: m.body ?? "",
    keyword: m.keyword ?? "",
    keywordInvert: m.keywordInvert,
    keywordCaseSensitive: m.keywordCaseSensitive,
    jsonPath: m.jsonPath ?? "",
    maxResponseTime: optionalNumber(m.maxResponseTime),
    ignoreTls: m.ignoreTls,
    freshConnection: m.freshConnection,
    tlsExpiryDays: optionalNumber(m.tlsExpiryDays),
    host: m.host,
    port: optionalNumber(m.port),
    dnsRecordType: m.dnsRecordType,
    dnsResolver: m.dnsResolver ?? "",
    dnsExpected: m.dnsExpected ?? "",
    pushGrace: String(m.pushGrace),
    pingCount: String(m.pingCount),
    pingFamily: m.pingFamily,
    pingLossThreshold: String(m.pingLossThreshold),
    parentId: m.parentId === null ? "" : String(m.parentId),
    groupRule: m.groupRule,
    settings: isSettingsType(m.type) ? { [m.type]: settingsForm(m.type, m.settings) } : {},
  };
}

/** Field names for errors: the form's keys, and `headers.<row key>.name|value`. */
export type FormErrors = Partial<Record<string, ParseKeys>>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;

/** A whole number written in plain digits (no "1e3", no "1.0"), or null. */
function wholeNumber(raw: string): number | null {
  const text = raw.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** Whether a URL is one the server accepts: http or https, with a host, no spaces. */
export function isMonitorUrl(raw: string): boolean {
  const url = raw.trim();
  if (/\s/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
  } catch {
    return false;
  }
}

// ── Hosts and resolvers: the server's own syntax (server/monitors/types/address.ts) ──

const isMonitorHost = (raw: string) => parseHost(raw) !== null;

/** A DNS resolver: an IP address, optionally with a port ("9.9.9.9", "127.0.0.1:5353", "::1", "[::1]:53"). */
const isResolver = (raw: string) => raw.trim().length <= LIMITS.resolverLength && parseResolver(raw) !== null;

const validPort = (text: string) => /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;

// ── Tags ──

/** Splits typed text into tags: commas (either width) separate, spaces inside a tag are kept (collapsed). */
export const splitTags = (raw: string) =>
  raw
    .split(/[,，]/)
    .map((t) => t.trim().replace(/\s+/g, " "))
    .filter((t) => t !== "");

/**
 * Adds typed text to the tags as the server keeps them (uniqueTags). A tag that is too long, or one too many, is not
 * added: the error says why and the caller keeps the text for correction.
 */
export function addTags(tags: readonly string[], raw: string): { tags: string[]; error: ParseKeys | null } {
  const next = uniqueTags([...tags, ...splitTags(raw)]);
  if (next.some((tag) => tag.length > LIMITS.tagLength)) return { tags: [...tags], error: "monitors.validation.tagTooLong" };
  if (next.length > LIMITS.maxTags) return { tags: [...tags], error: "monitors.validation.tooManyTags" };
  return { tags: next, error: null };
}

/** Header rows with both name and value empty are ignored (an "add header" clicked by mistake). */
const usedHeaders = (rows: HeaderRow[]) => rows.filter((h) => h.name.trim() !== "" || h.value !== "");

/** Every problem of the form, by field; empty when it can be sent. Only the chosen type's fields are checked. */
export function validateMonitorForm(v: MonitorFormValues): FormErrors {
  const errors: FormErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = "monitors.validation.nameRequired";
  else if (name.length > LIMITS.nameLength) errors.name = "monitors.validation.nameTooLong";

  const tags = addTags(v.tags, v.tagDraft);
  if (tags.error) errors.tags = tags.error;

  const schedule = validateSchedule(v, hasTimeout(v.type));
  Object.assign(errors, schedule.errors);
  const timeout = schedule.timeout;
  const timeoutOk = timeout !== null;

  const retries = wholeNumber(v.retries);
  if (hasRetries(v.type) && (retries === null || retries > LIMITS.maxRetries)) errors.retries = "monitors.validation.retriesInvalid";
  const objective = Number(v.objective.trim());
  if (v.objective.trim() !== "" && !(objective >= LIMITS.minObjective && objective <= LIMITS.maxObjective)) errors.objective = "monitors.validation.objectiveInvalid";
  const days = wholeNumber(v.objectiveDays);
  if (days === null || days < LIMITS.minObjectiveDays || days > LIMITS.maxObjectiveDays) errors.objectiveDays = "monitors.validation.objectiveDaysInvalid";

  if (isSettingsType(v.type)) Object.assign(errors, validateSettingsForm(v.type, settingsOf(v, v.type)));
  switch (v.type) {
    case "http":
      validateHttp(v, errors, timeoutOk ? timeout : null);
      break;
    case "tcp": {
      validateHost(v, errors, "monitors.validation.hostRequired");
      const port = v.port.trim();
      if (!port) errors.port = "monitors.validation.portRequired";
      else if (!validPort(port)) errors.port = "monitors.validation.portInvalid";
      break;
    }
    case "dns":
      validateHost(v, errors, "monitors.validation.dnsNameRequired");
      if (v.dnsResolver.trim() !== "" && !isResolver(v.dnsResolver)) errors.dnsResolver = "monitors.validation.resolverInvalid";
      if (v.dnsExpected.trim().length > LIMITS.dnsExpectedLength) errors.dnsExpected = "monitors.validation.dnsExpectedTooLong";
      break;
    case "push": {
      const grace = wholeNumber(v.pushGrace);
      if (grace === null || grace > LIMITS.maxPushGrace) errors.pushGrace = "monitors.validation.pushGraceInvalid";
      break;
    }
    case "ping": {
      validateHost(v, errors, "monitors.validation.hostRequired");
      const count = wholeNumber(v.pingCount);
      if (count === null || count < 1 || count > LIMITS.maxPingCount) errors.pingCount = "monitors.validation.pingCountInvalid";
      const loss = wholeNumber(v.pingLossThreshold);
      if (loss === null || loss < 1 || loss > 100) errors.pingLossThreshold = "monitors.validation.pingLossInvalid";
      validateMaxResponseTime(v, errors, timeoutOk ? timeout : null);
      break;
    }
  }
  return errors;
}

/** The slow-answer limit (http) or the round-trip limit (ping): optional, below the timeout. */
function validateMaxResponseTime(v: MonitorFormValues, errors: FormErrors, timeout: number | null) {
  if (v.maxResponseTime.trim() === "") return;
  const ms = wholeNumber(v.maxResponseTime);
  if (ms === null || ms < 1 || ms > LIMITS.maxResponseTime) errors.maxResponseTime = "monitors.validation.maxResponseTimeInvalid";
  else if (timeout !== null && ms >= timeout * 1000) errors.maxResponseTime = "monitors.validation.maxResponseTimeTooLong";
}

function validateHost(v: MonitorFormValues, errors: FormErrors, required: ParseKeys) {
  const host = v.host.trim();
  if (!host) errors.host = required;
  else if (!isMonitorHost(host)) errors.host = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? "monitors.validation.hostScheme" : "monitors.validation.hostInvalid";
}

function validateHttp(v: MonitorFormValues, errors: FormErrors, timeout: number | null) {
  const url = v.url.trim();
  if (!url) errors.url = "monitors.validation.urlRequired";
  else if (url.length > LIMITS.urlLength) errors.url = "monitors.validation.urlTooLong";
  else if (!isMonitorUrl(url)) errors.url = "monitors.validation.urlInvalid";

  if (!isValidExpectedStatus(v.expectedStatus)) errors.expectedStatus = "monitors.validation.expectedStatusInvalid";

  const headers = usedHeaders(v.headers);
  if (headers.length > LIMITS.maxHeaders) errors.headers = "monitors.validation.tooManyHeaders";
  for (const h of headers) {
    const headerName = h.name.trim();
    if (!headerName) errors[`headers.${h.key}.name`] = "monitors.validation.headerNameRequired";
    else if (headerName.length > LIMITS.headerNameLength || !HEADER_NAME.test(headerName)) errors[`headers.${h.key}.name`] = "monitors.validation.headerNameInvalid";
    else if (RESERVED_HEADERS.includes(headerName.toLowerCase())) errors[`headers.${h.key}.name`] = "monitors.validation.headerReserved";
    if (h.value.length > LIMITS.headerValueLength || !HEADER_VALUE.test(h.value)) errors[`headers.${h.key}.value`] = "monitors.validation.headerValueInvalid";
  }

  if (methodHasBody(v.method) && new TextEncoder().encode(v.body).length > LIMITS.bodyBytes) errors.body = "monitors.validation.bodyTooLarge";

  if (v.keyword.length > LIMITS.keywordLength) errors.keyword = "monitors.validation.keywordTooLong";
  // The JSON path's grammar is the server's to judge: its precise sentence is shown under the field.
  if (v.jsonPath.trim().length > LIMITS.jsonPathLength) errors.jsonPath = "monitors.validation.jsonPathTooLong";

  validateMaxResponseTime(v, errors, timeout);
  if (v.tlsExpiryDays.trim() !== "") {
    const days = wholeNumber(v.tlsExpiryDays);
    if (days === null || days < 1 || days > LIMITS.maxTlsExpiryDays) errors.tlsExpiryDays = "monitors.validation.tlsExpiryDaysInvalid";
  }
}

/** The order problems are reported in, as the form shows the fields (the first one gets the focus). */
export const FIELD_ORDER = [
  "type",
  "name",
  "tags",
  "parentId",
  "method",
  "url",
  "host",
  "port",
  "dnsRecordType",
  "dnsResolver",
  "dnsExpected",
  "interval",
  "retryInterval",
  "timeout",
  "pushGrace",
  "pingCount",
  "pingFamily",
  "pingLossThreshold",
  "expectedStatus",
  "retries",
  "dependsOn",
  "headers",
  "body",
  "keyword",
  "jsonPath",
  "maxResponseTime",
  "tlsExpiryDays",
];

/**
 * The field a server refusal is about, so its sentence shows under that field (the server is the judge: a JSON path's
 * syntax, for one, is only checked there). null: a problem of the whole form.
 */
export function serverErrorField(code: string | undefined, type: MonitorType): string | null {
  switch (code) {
    case "INVALID_JSON_PATH":
      return "jsonPath";
    case "MAX_RESPONSE_TIME_TOO_LONG":
      return "maxResponseTime";
    case "INVALID_URL":
      return "url";
    case "TARGET_FORBIDDEN":
      // What the address policy refuses: http's URL, tcp's host, dns's resolver (the name itself is only looked up).
      if (isSettingsType(type)) {
        const host = settingFields(type).find((f) => f.schema.host === true);
        return host ? `settings.${host.key}` : null;
      }
      return ({ http: "url", tcp: "host", dns: "dnsResolver", push: null, ping: "host", group: null } as const)[type];
    case "PARENT_NOT_FOUND":
    case "PARENT_NOT_GROUP":
    case "GROUP_CYCLE":
      return "parentId";
    case "INVALID_HOST":
      return "host";
    case "PORT_REQUIRED":
      return "port";
    case "INVALID_RESOLVER":
      return "dnsResolver";
    case "TIMEOUT_TOO_LONG":
      return hasTimeout(type) ? "timeout" : null;
    case "DEPENDENCY_UNKNOWN":
    case "DEPENDENCY_SELF":
    case "DEPENDENCY_CYCLE":
    case "TOO_MANY_DEPENDENCIES":
      return "dependsOn";
    case "BODY_NOT_ALLOWED":
      return type === "http" ? "body" : null;
    default:
      return null;
  }
}

const optional = (text: string) => (text.trim() === "" ? null : text.trim());
const optionalInt = (text: string) => (text.trim() === "" ? null : Number(text.trim()));

/**
 * The payload for POST / PUT. Call only when `validateMonitorForm` found nothing. It carries the common fields and
 * the chosen type's: the other types' fields are left as the server has them (an edit that switches the type keeps
 * them for a switch back).
 */
export function toMonitorInput(v: MonitorFormValues): MonitorInput {
  const input: MonitorInput = {
    name: v.name.trim(),
    type: v.type,
    tags: addTags(v.tags, v.tagDraft).tags,
    ...scheduleInput(v, hasTimeout(v.type)),
    active: v.active,
    upsideDown: v.upsideDown,
    objective: v.objective.trim() === "" ? null : Number(v.objective.trim()),
    objectiveDays: Number(v.objectiveDays.trim()),
    dependsOn: v.dependsOn,
    parentId: v.parentId === "" ? null : Number(v.parentId),
  };
  if (hasRetries(v.type)) input.retries = Number(v.retries.trim());
  switch (v.type) {
    case "http":
      return {
        ...input,
        url: v.url.trim(),
        method: v.method,
        expectedStatus: v.expectedStatus.trim(),
        followRedirects: v.followRedirects,
        headers: usedHeaders(v.headers).map((h) => ({ name: h.name.trim(), value: h.value })),
        // GET and HEAD cannot carry a body: a body typed before switching method is dropped, not refused.
        body: methodHasBody(v.method) && v.body !== "" ? v.body : null,
        keyword: v.keyword === "" ? null : v.keyword,
        keywordInvert: v.keywordInvert,
        keywordCaseSensitive: v.keywordCaseSensitive,
        jsonPath: optional(v.jsonPath),
        maxResponseTime: optionalInt(v.maxResponseTime),
        ignoreTls: v.ignoreTls,
        freshConnection: v.freshConnection,
        tlsExpiryDays: optionalInt(v.tlsExpiryDays),
      };
    case "tcp":
      return { ...input, host: v.host.trim(), port: Number(v.port.trim()) };
    case "dns":
      return { ...input, host: v.host.trim(), dnsRecordType: v.dnsRecordType, dnsResolver: optional(v.dnsResolver), dnsExpected: optional(v.dnsExpected) };
    case "push":
      return { ...input, pushGrace: Number(v.pushGrace.trim()) };
    case "ping":
      return {
        ...input,
        host: v.host.trim(),
        pingCount: Number(v.pingCount.trim()),
        pingFamily: v.pingFamily,
        pingLossThreshold: Number(v.pingLossThreshold.trim()),
        maxResponseTime: optionalInt(v.maxResponseTime),
      };
    case "group":
      return { ...input, groupRule: v.groupRule };
    default:
      return { ...input, settings: settingsInput(v.type, settingsOf(v, v.type)) };
  }
}
