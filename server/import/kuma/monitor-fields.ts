// One Kuma monitor row → Vigil monitor fields: what maps, and what does not (notes, notes.ts), or why the monitor
// cannot come across at all (skip). Reads Kuma's columns by name, so 1.23, 2.x and the 1.x JSON backup (mapped onto
// the same column names by read.ts) go through the same code; a column a schema lacks reads as its Kuma default.
import { DNS_RECORD_TYPES, LIMITS, type DnsRecordType, type MonitorMethod, type MonitorType } from "../../monitors/public";
import type { MonitorChange } from "../../monitors/field-rules";
import { PUSH_TOKEN_PATTERN } from "../../monitors/types/push/push";
import { bool, jsonAssertion, num, parseJson, requestHeaders, str, type Row } from "./columns";
import { KUMA_SETTINGS_TYPES, kumaSettings, type KumaLinked } from "./monitor-settings";
import { note } from "./notes";
import type { Note } from "./section";

/** Kuma's types that Vigil checks, and what Vigil calls them (the later types' settings: monitor-settings.ts). */
const TYPES: Record<string, MonitorType> = {
  http: "http",
  keyword: "http",
  "json-query": "http",
  port: "tcp",
  ping: "ping",
  dns: "dns",
  push: "push",
  group: "group",
  ...KUMA_SETTINGS_TYPES,
};

export interface MappedMonitor {
  /** The fields to validate and write; pushToken is kept apart (resolveFields never takes one from input). */
  change: MonitorChange;
  pushToken: string | null;
  /** Kuma's id of its parent group, or null. */
  parentKumaId: number | null;
  notes: Note[];
}

export type MonitorMapping = { skip: Note } | MappedMonitor;

/** Seconds as Vigil takes them (1 s to a day); beyond that the nearest allowed, said in a note. */
function seconds(value: number, what: "interval" | "retryInterval", notes: Note[]): number {
  const s = Math.round(value);
  if (s > 86_400) {
    notes.push(note(`monitor.${what}TooLong`, { seconds: s }));
    return 86_400;
  }
  return Math.max(1, s);
}

/** Kuma's tags on this monitor as Vigil's tag strings: "name", or "name:value" when Kuma gave a value. */
export function kumaTags(monitorId: number, monitorTags: Row[], tagsById: Map<number, Row>, notes: Note[]): string[] {
  const out: string[] = [];
  for (const mt of monitorTags) {
    if (Number(mt.monitor_id) !== monitorId) continue;
    const tag = tagsById.get(Number(mt.tag_id));
    if (!tag) continue;
    const value = str(mt.value).trim();
    const text = value ? `${str(tag.name).trim()}:${value}` : str(tag.name).trim();
    if (text.length > LIMITS.tagLength) notes.push(note("monitor.tagTooLong", { tag: text, max: LIMITS.tagLength }));
    else if (out.length >= LIMITS.maxTags) notes.push(note("monitor.tooManyTags", { tag: text, max: LIMITS.maxTags }));
    else out.push(text);
  }
  return out;
}

/** Kuma's resolver (dns_resolve_server, and the monitor's port) as Vigil's "ip", "ip:port" or "[v6]:port". */
function resolverOf(row: Row, notes: Note[]): string | null {
  const servers = str(row.dns_resolve_server).split(",").map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) return null;
  if (servers.length > 1) notes.push(note("monitor.oneResolver", { servers: servers.join(", "), server: servers[0]! }));
  const server = servers[0]!;
  const port = num(row.port, 53);
  if (port === 53) return server;
  return server.includes(":") ? `[${server}]:${port}` : `${server}:${port}`;
}

const METHODS: readonly MonitorMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Maps one Kuma monitor row. `tags` are the Vigil tag strings already worked out for it. */
export function mapKumaMonitor(row: Row, tags: string[], settings: { tlsExpiryDays: number | null } & Partial<KumaLinked>): MonitorMapping {
  const kumaType = str(row.type);
  const type = TYPES[kumaType];
  if (!type) return { skip: kumaType ? note("monitor.noCheck", { type: kumaType }) : note("monitor.untyped") };
  const notes: Note[] = [];

  let name = str(row.name).trim();
  if (name.length > LIMITS.nameLength) {
    notes.push(note("monitor.nameCut", { max: LIMITS.nameLength }));
    name = name.slice(0, LIMITS.nameLength).trim();
  }
  const description = str(row.description).trim();
  if (description) notes.push(note("monitor.description", { description }));

  const intervalSeconds = seconds(num(row.interval, 60), "interval", notes);
  const retryRaw = num(row.retry_interval, 0);
  const retryIntervalSeconds = retryRaw > 0 && Math.round(retryRaw) !== intervalSeconds ? seconds(retryRaw, "retryInterval", notes) : null;
  // Vigil's checks never overlap: the timeout must be shorter than the interval and the retry interval (Kuma allows
  // a retry every 15 s with a 20 s timeout).
  const shortest = Math.min(intervalSeconds, retryIntervalSeconds ?? intervalSeconds);
  // Kuma 1.x kept 0 for "80 % of the interval", its default.
  let timeout = num(row.timeout, 0) > 0 ? num(row.timeout, 0) : Math.max(0.1, Math.round(shortest * 0.8 * 10) / 10);
  if (timeout > LIMITS.maxTimeout) {
    notes.push(note("monitor.timeoutTooLong", { timeout, max: LIMITS.maxTimeout }));
    timeout = LIMITS.maxTimeout;
  }
  if (timeout >= shortest && type !== "push" && kumaType !== "group") {
    const fitted = Math.max(0.1, Math.round(shortest * 0.8 * 10) / 10);
    notes.push(note(shortest === intervalSeconds ? "monitor.timeoutInterval" : "monitor.timeoutRetryInterval", { timeout, fitted }));
    timeout = fitted;
  }
  let retries = Math.max(0, Math.round(num(row.maxretries, 0)));
  if (retries > LIMITS.maxRetries) {
    notes.push(note("monitor.retries", { retries, max: LIMITS.maxRetries }));
    retries = LIMITS.maxRetries;
  }

  const change: MonitorChange = {
    name,
    type,
    tags,
    intervalSeconds,
    retryIntervalSeconds,
    timeout: kumaType === "group" ? Math.min(timeout, intervalSeconds * 0.8) : timeout,
    retries,
    active: bool(row.active ?? 1),
    upsideDown: bool(row.upside_down),
  };
  const parent = row.parent === null || row.parent === undefined || row.parent === "" ? null : Number(row.parent);

  if (row.proxy_id !== null && row.proxy_id !== undefined && row.proxy_id !== "") notes.push(note("monitor.proxy"));

  if (type === "http") {
    const method = str(row.method || "GET").toUpperCase() as MonitorMethod;
    if (!METHODS.includes(method)) return { skip: note("monitor.method", { method }) };
    let body: string | null = str(row.body).trim() === "" ? null : str(row.body);
    if (body !== null && (method === "GET" || method === "HEAD")) {
      notes.push(note("monitor.bodyLeftOut", { method }));
      body = null;
    }
    const headers = requestHeaders(row, body !== null, notes);
    if (!Array.isArray(headers)) return headers;
    change.headers = headers;
    const codes = parseJson<unknown[]>(row.accepted_statuscodes_json, ["200-299"]).map(String).filter(Boolean);
    const url = str(row.url).trim();
    Object.assign(change, {
      url,
      method,
      body,
      expectedStatus: codes.length ? codes.join(",") : "200-299",
      ignoreTls: bool(row.ignore_tls),
      followRedirects: num(row.maxredirects, 10) > 0,
    });
    if (kumaType === "keyword") {
      Object.assign(change, { keyword: str(row.keyword), keywordInvert: bool(row.invert_keyword), keywordCaseSensitive: true });
    }
    if (kumaType === "json-query") {
      const assertion = jsonAssertion(row, notes);
      if (typeof assertion !== "string") return assertion;
      change.jsonPath = assertion;
    }
    if (bool(row.cache_bust)) notes.push(note("monitor.cacheBust"));
    if (url.startsWith("https:") && bool(row.expiry_notification) && settings.tlsExpiryDays !== null) {
      change.tlsExpiryDays = settings.tlsExpiryDays;
      notes.push(note("monitor.tlsExpiry", { days: settings.tlsExpiryDays }));
    }
  } else if (type === "tcp") {
    Object.assign(change, { host: str(row.hostname).trim(), port: num(row.port, 0) || null });
  } else if (type === "ping") {
    let count = Math.max(1, Math.round(num(row.ping_count, 1)));
    if (count > LIMITS.maxPingCount) {
      notes.push(note("monitor.pingCount", { count, max: LIMITS.maxPingCount }));
      count = LIMITS.maxPingCount;
    }
    const family = str(row.ip_family);
    Object.assign(change, { host: str(row.hostname).trim(), pingCount: count, pingFamily: family === "ipv4" || family === "ipv6" ? family : "auto" });
    if (num(row.packet_size, 56) !== 56) notes.push(note("monitor.packetSize", { size: num(row.packet_size, 56) }));
  } else if (type === "dns") {
    const recordType = str(row.dns_resolve_type || "A").toUpperCase();
    if (!DNS_RECORD_TYPES.includes(recordType as DnsRecordType)) return { skip: note("monitor.dnsType", { type: recordType }) };
    Object.assign(change, { host: str(row.hostname).trim(), dnsRecordType: recordType, dnsResolver: resolverOf(row, notes) });
    if (parseJson<unknown[]>(row.conditions, []).length > 0) notes.push(note("monitor.dnsConditions"));
  } else if (kumaType in KUMA_SETTINGS_TYPES) {
    const linked = { dockerHosts: settings.dockerHosts ?? new Map(), remoteBrowsers: settings.remoteBrowsers ?? new Map() };
    const own = kumaSettings(kumaType, row, linked, notes);
    if ("skip" in own) return own;
    change.settings = own.settings;
  } else if (type === "push") {
    // Kuma calls a push monitor down as soon as one interval passes in silence: no grace.
    change.pushGrace = 0;
  }

  let pushToken: string | null = null;
  if (type === "push") {
    const token = str(row.push_token);
    if (PUSH_TOKEN_PATTERN.test(token)) pushToken = token;
    else notes.push(note("monitor.pushTokenShort", { length: token.length }));
  }
  return { change, pushToken, parentKumaId: parent !== null && Number.isFinite(parent) ? parent : null, notes };
}
