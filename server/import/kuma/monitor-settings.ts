// The settings of a Kuma monitor whose Vigil type keeps its own settings object (server/monitors/types/<type>/
// settings.ts): Kuma's columns → those fields, by their names there. What Kuma did that Vigil cannot is a note; what
// leaves nothing to check is a skip. The values are only read here: the type's own validation (under the
// instance's address policy) judges them afterwards, as the API does. No secret goes into a note.
import type { SettingsTypeName } from "../../monitors/public";
import { parseCommand, READ_COMMANDS } from "../../monitors/types/mongodb/command";
import { UPGRADE_HEADERS } from "../../monitors/types/websocket/settings";
import { bool, jsonAssertion, num, parseJson, requestHeaders, str, type Row } from "./columns";
import { note } from "./notes";
import type { Note } from "./section";

/** Kuma's types whose Vigil type has a settings object, and what Vigil calls them. */
export const KUMA_SETTINGS_TYPES: Record<string, SettingsTypeName> = {
  postgres: "postgres",
  mysql: "mysql",
  redis: "redis",
  mongodb: "mongodb",
  "grpc-keyword": "grpc",
  mqtt: "mqtt",
  "websocket-upgrade": "websocket",
  smtp: "smtp",
  snmp: "snmp",
  ntp: "ntp",
  docker: "docker",
  "real-browser": "browser",
  manual: "manual",
};

/** The other Kuma tables a monitor refers to, by id. */
export interface KumaLinked {
  dockerHosts: Map<number, Row>;
  remoteBrowsers: Map<number, Row>;
}

type Settings = Record<string, unknown>;
type Mapped = { settings: Settings } | { skip: Note };

/** Percent-decoded, or as written when it is not valid percent-encoding. */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A URL as `new URL` reads it, with its host unbracketed and its credentials decoded; null when it is not one. */
function readUrl(text: string, schemes: string[]) {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, "").toLowerCase();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!schemes.includes(scheme) || !host) return null;
  return { url, scheme, host, port: url.port === "" ? null : Number(url.port), username: decode(url.username), password: decode(url.password), path: decode(url.pathname.replace(/^\//, "")) };
}

/** The query options Vigil does not take, named (never their values) in a note. */
function leftOptions(url: URL, taken: string[], notes: Note[]) {
  const left = [...new Set(url.searchParams.keys())].filter((k) => !taken.includes(k));
  if (left.length) notes.push(note("monitor.connectionParams", { params: left.join(", ") }));
}

function conditions(row: Row, notes: Note[]) {
  if (parseJson<unknown[]>(row.conditions, []).length > 0) notes.push(note("monitor.conditions"));
}

/** node-postgres' reading of sslmode/ssl (pg-connection-string, which Kuma used): "require" checks the certificate too. */
function postgresTls(params: URLSearchParams): string {
  const mode = params.get("sslmode");
  if (mode !== null) {
    if (mode === "disable") return "disable";
    if (mode === "no-verify" || (params.get("uselibpqcompat") === "true" && (mode === "require" || mode === "prefer"))) return "require";
    return "verify";
  }
  const ssl = params.get("ssl");
  return ssl === "true" || ssl === "1" ? "verify" : "disable";
}

/** mysql2's ssl option from the URL (a JSON value): {"rejectUnauthorized":false} encrypts without checking. */
function mysqlTls(params: URLSearchParams): string {
  const ssl = params.get("ssl");
  if (ssl === null || ssl === "" || ssl === "false" || ssl === "0") return "disable";
  const parsed = parseJson<unknown>(ssl, null);
  return parsed !== null && typeof parsed === "object" && (parsed as Row).rejectUnauthorized === false ? "require" : "verify";
}

function sql(kumaType: "postgres" | "mysql", row: Row, notes: Note[]): Mapped {
  const schemes = kumaType === "postgres" ? ["postgres", "postgresql"] : ["mysql", "mariadb"];
  const parsed = readUrl(str(row.database_connection_string), schemes);
  // A host option names another host (or a Unix socket) than the URL shows.
  if (!parsed || parsed.url.searchParams.has("host")) return { skip: note("monitor.connectionString", { form: `${schemes[0]}://user:password@host:port/database` }) };
  const params = parsed.url.searchParams;
  leftOptions(parsed.url, kumaType === "postgres" ? ["sslmode", "ssl", "uselibpqcompat"] : ["ssl"], notes);
  if (kumaType === "mysql") conditions(row, notes);
  // Kuma's MySQL form keeps the password apart (radius_password) and it wins over the URL's.
  const password = kumaType === "mysql" && str(row.radius_password) !== "" ? str(row.radius_password) : parsed.password;
  const settings: Settings = {
    host: parsed.host,
    port: parsed.port ?? (kumaType === "postgres" ? 5432 : 3306),
    database: parsed.path,
    username: parsed.username,
    password,
    tls: kumaType === "postgres" ? postgresTls(params) : mysqlTls(params),
    query: str(row.database_query).trim() || "SELECT 1",
  };
  return { settings };
}

function redis(row: Row, notes: Note[]): Mapped {
  const parsed = readUrl(str(row.database_connection_string), ["redis", "rediss"]);
  if (!parsed) return { skip: note("monitor.connectionString", { form: "redis://user:password@host:port/database" }) };
  leftOptions(parsed.url, [], notes);
  const settings: Settings = {
    host: parsed.host,
    port: parsed.port ?? 6379,
    username: parsed.username,
    password: parsed.password,
    tls: parsed.scheme === "rediss",
    ignoreTls: bool(row.ignore_tls),
    database: parsed.path === "" ? 0 : Number(parsed.path),
  };
  return { settings };
}

function mongodb(row: Row, notes: Note[]): Mapped {
  const connectionString = str(row.database_connection_string).trim();
  const m = /^mongodb(?:\+srv)?:\/\/[^/?]*\/?([^?]*)/i.exec(connectionString);
  if (!m) return { skip: note("monitor.connectionString", { form: "mongodb://user:password@host:port/database" }) };
  const settings: Settings = { connectionString };
  // Kuma ran the command in the connection string's database (the driver's client.db()).
  if (m[1]) settings.database = decode(m[1]);
  const command = str(row.database_query).trim();
  if (command && parseCommand(command)) settings.command = command;
  else if (command) notes.push(note("monitor.mongoCommand", { command: command.length > 100 ? `${command.slice(0, 100)}…` : command, allowed: READ_COMMANDS.join(", ") }));
  // "$" is Kuma's default query: the whole reply.
  const path = str(row.json_path).trim();
  if (path && path !== "$") notes.push(note("monitor.jsonQueryDropped", { path }));
  const expected = str(row.expected_value);
  if (expected) {
    settings.expected = expected;
    notes.push(note("monitor.expectedAsKeyword", { expected }));
  }
  return { settings };
}

/** Kuma's call as Vigil's unary method name, when its .proto describes it as one (Kuma wrote "check" or "Check"). */
function unaryMethod(proto: string, service: string, method: string, body: string): string | null {
  const { unaryCall } = require("../../monitors/types/grpc/proto") as typeof import("../../monitors/types/grpc/proto");
  for (const name of new Set([method, method.charAt(0).toUpperCase() + method.slice(1)])) {
    try {
      unaryCall(proto, `${service}/${name}`, body);
      return `${service}/${name}`;
    } catch {
      // not this spelling, or not a call Vigil can make: the health check below
    }
  }
  return null;
}

function grpc(row: Row, notes: Note[]): Mapped {
  const address = str(row.grpc_url).trim().replace(/^dns:(\/\/\/)?/i, "");
  const m = /^(?:\[([^\]]+)\]|([^:/\s[\]]+))(?::(\d{1,5}))?$/.exec(address);
  if (!m) return { skip: note("monitor.grpcAddress", { address }) };
  // Kuma looks the service up in its .proto: a short name lives in the file's package.
  const proto = str(row.grpc_protobuf);
  const pkg = /\bpackage\s+([\w.]+)\s*;/.exec(proto)?.[1];
  const name = str(row.grpc_service_name).trim();
  const full = name.includes(".") || !pkg ? name : `${pkg}.${name}`;
  const method = str(row.grpc_method).trim();
  const body = str(row.grpc_body).trim() || "{}";
  const keyword = str(row.keyword);
  const invert = bool(row.invert_keyword);
  const healthCall = full === "grpc.health.v1.Health" && /^check$/i.test(method);
  // Kuma's call of the health service itself asks about the service in its request.
  const request = parseJson<unknown>(body, {});
  const asked = request !== null && typeof request === "object" && typeof (request as Row).service === "string" ? String((request as Row).service) : "";
  let mode: Settings = { mode: "health", service: healthCall ? asked : full };
  // The health call asking for SERVING is Vigil's health check; anything else keeps its call.
  if (!healthCall || invert || (keyword !== "" && keyword !== "SERVING")) {
    // Any other call, or the health call with another keyword: the same call, when its .proto describes it.
    const unary = proto.trim() && full && method ? unaryMethod(proto, full, method, body) : null;
    if (unary) mode = { mode: "unary", service: "", proto, method: unary, request: body, keyword, keywordInvert: invert };
    else if (healthCall) notes.push(note("monitor.grpcKeyword", { keyword }));
    else notes.push(note("monitor.grpcCall", { method: `${full}/${method}`, service: full }));
  }
  const metadata: { name: string; value: string }[] = [];
  const rawMetadata = str(row.grpc_metadata).trim();
  if (rawMetadata) {
    const parsed = parseJson<unknown>(rawMetadata, null);
    const entries = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? Object.entries(parsed as Row) : null;
    if (entries && entries.every(([, v]) => typeof v === "string" || typeof v === "number")) {
      for (const [k, v] of entries) metadata.push({ name: k.toLowerCase(), value: String(v) });
    } else notes.push(note("monitor.grpcMetadata"));
  }
  // grpc-js's port when the address has none.
  return { settings: { host: m[1] ?? m[2], port: m[3] === undefined ? 443 : Number(m[3]), ...mode, tls: bool(row.grpc_enable_tls), metadata } };
}

const MQTT_PROTOCOLS: Record<string, string> = { mqtt: "mqtt", tcp: "mqtt", mqtts: "mqtts", ssl: "mqtts", tls: "mqtts", ws: "ws", wss: "wss" };
const MQTT_PORTS: Record<string, number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };

function mqtt(row: Row, notes: Note[]): Mapped {
  // Kuma's host field may carry the scheme (mqtt://broker); without one it is mqtt.
  const raw = str(row.hostname).trim();
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(raw);
  const scheme = m ? m[1]!.toLowerCase() : "mqtt";
  const protocol = MQTT_PROTOCOLS[scheme];
  if (!protocol) return { skip: note("monitor.mqttScheme", { scheme }) };
  const host = (m ? m[2]! : raw).replace(/\/+$/, "").replace(/^\[|\]$/g, "");
  const settings: Settings = {
    protocol,
    host,
    port: num(row.port, 0) || MQTT_PORTS[protocol]!,
    username: str(row.mqtt_username),
    password: str(row.mqtt_password),
    topic: str(row.mqtt_topic),
  };
  const path = str(row.mqtt_websocket_path).trim();
  if ((protocol === "ws" || protocol === "wss") && path) settings.path = path.startsWith("/") ? path : `/${path}`;
  const checkType = str(row.mqtt_check_type) || "keyword";
  if (checkType === "keyword") settings.keyword = str(row.mqtt_success_message);
  else if (checkType === "json-query") {
    // Kuma compares the query's result with the expected value as text: equality.
    const assertion = jsonAssertion({ ...row, json_path_operator: "==" }, notes);
    if (typeof assertion !== "string") return assertion;
    settings.jsonPath = assertion;
  } else return { skip: note("monitor.mqttCheckType", { checkType }) };
  conditions(row, notes);
  return { settings };
}

function websocket(row: Row, notes: Note[]): Mapped {
  const headers = requestHeaders(row, false, notes);
  if (!Array.isArray(headers)) return headers;
  const kept = headers.filter((h) => {
    if (!UPGRADE_HEADERS.includes(h.name.toLowerCase())) return true;
    notes.push(note("monitor.wsReservedHeader", { name: h.name }));
    return false;
  });
  const protocols = str(row.ws_subprotocol).replace(/\s/g, "").split(",").filter(Boolean);
  if (protocols.length > 1) notes.push(note("monitor.wsSubprotocols", { protocols: protocols.join(", "), protocol: protocols[0]! }));
  if (bool(row.ws_ignore_sec_websocket_accept_header)) notes.push(note("monitor.wsAcceptHeader"));
  const codes = parseJson<unknown[]>(row.accepted_statuscodes_json, ["1000"]).map(String);
  if (codes.join(",") !== "1000") notes.push(note("monitor.wsCloseCodes", { codes: codes.join(", ") }));
  return { settings: { url: str(row.url).trim(), headers: kept, subprotocol: protocols[0] ?? "" } };
}

function smtp(row: Row, notes: Note[]): Mapped {
  const security = { secure: "tls", starttls: "starttls", nostarttls: "none" }[str(row.smtp_security)];
  if (!security) notes.push(note("monitor.smtpOpportunistic"));
  // Kuma connects to port 25 whatever the security when none is given.
  return { settings: { host: str(row.hostname).trim(), port: num(row.port, 0) || 25, security: security ?? "starttls" } };
}

const SNMP_VERSIONS: Record<string, string> = { "1": "v1", "2c": "v2c", "3": "v3" };

function snmp(row: Row, notes: Note[]): Mapped {
  const version = SNMP_VERSIONS[str(row.snmp_version || "2c")];
  if (!version) return { skip: note("monitor.snmpVersion", { version: str(row.snmp_version) }) };
  // Kuma applies its JSON query to the value; "$" (its default) is the value itself.
  const path = str(row.json_path).trim();
  if (path && path !== "$") return { skip: note("monitor.snmpJsonQuery", { path }) };
  const op = str(row.json_path_operator || "==");
  let operator = op;
  let expected = str(row.expected_value);
  if (op === "<=" || op === ">=") {
    if (!/^-?\d+$/.test(expected.trim())) return { skip: note("monitor.jsonOperator", { op }) };
    const value = op === "<=" ? Number(expected) + 1 : Number(expected) - 1;
    operator = op[0]!;
    notes.push(note("monitor.snmpOperator", { op, expected: expected.trim(), vigilOp: operator, value }));
    expected = String(value);
  } else if (!["==", "!=", "<", ">", "contains"].includes(op)) return { skip: note("monitor.jsonOperator", { op }) };
  const settings: Settings = { host: str(row.hostname).trim(), port: num(row.port, 161), version, oid: str(row.snmp_oid).trim(), operator, expected };
  // Kuma keeps the community in radius_password; net-snmp's default is "public". Its v3 is noAuthNoPriv only.
  if (version === "v3") Object.assign(settings, { username: str(row.snmp_v3_username), securityLevel: "noAuthNoPriv" });
  else settings.community = str(row.radius_password) || "public";
  return { settings };
}

function ntp(row: Row, notes: Note[]): Mapped {
  // Kuma fails at its thresholds (stratum >= 5, offset >= 1000 ms); Vigil's are the highest allowed.
  const stratum = num(row.ntp_stratum_threshold, 0) || 5;
  const offset = num(row.ntp_time_offset_threshold, 0) || 1000;
  notes.push(note("monitor.ntpDispersion", { ms: num(row.ntp_root_dispersion_threshold, 0) || 500 }));
  const settings: Settings = {
    host: str(row.hostname).trim(),
    port: num(row.port, 0) || 123,
    maxStratum: Math.min(15, Math.max(1, Math.ceil(stratum) - 1)),
    maxOffsetMs: Math.min(3_600_000, Math.max(1, Math.round(offset))),
  };
  return { settings };
}

function docker(row: Row, linked: KumaLinked, notes: Note[]): Mapped {
  const host = linked.dockerHosts.get(Number(row.docker_host));
  if (!host) return { skip: note("monitor.dockerHostMissing") };
  const container = str(row.docker_container).trim();
  const daemon = str(host.docker_daemon).trim();
  if (str(host.docker_type) === "socket") {
    const socketPath = daemon.replace(/^unix:\/\//i, "");
    if (!socketPath.startsWith("/")) return { skip: note("monitor.dockerDaemon", { host: str(host.name) }) };
    return { settings: { container, endpoint: "socket", socketPath } };
  }
  // Kuma reads tcp:// as http:// (DockerHost.patchDockerURL).
  const parsed = readUrl(daemon.replace(/^tcp:\/\//i, "http://"), ["http", "https"]);
  if (!parsed) return { skip: note("monitor.dockerDaemon", { host: str(host.name) }) };
  const tls = parsed.scheme === "https";
  if (tls) notes.push(note("monitor.dockerTls"));
  return { settings: { container, endpoint: "tcp", host: parsed.host, port: parsed.port ?? (tls ? 2376 : 2375), tls } };
}

function browser(row: Row, linked: KumaLinked, notes: Note[]): Mapped {
  const remote = row.remote_browser;
  if (remote !== null && remote !== undefined && remote !== "") {
    // Its name only: a remote browser's URL often carries a token.
    notes.push(note("monitor.remoteBrowser", { name: str(linked.remoteBrowsers.get(Number(remote))?.name) || `#${str(remote)}` }));
  }
  return { settings: { url: str(row.url).trim() } };
}

/** The settings object for a Kuma monitor of one of KUMA_SETTINGS_TYPES, or why it cannot come across. */
export function kumaSettings(kumaType: string, row: Row, linked: KumaLinked, notes: Note[]): Mapped {
  switch (kumaType) {
    case "postgres":
    case "mysql":
      return sql(kumaType, row, notes);
    case "redis":
      return redis(row, notes);
    case "mongodb":
      return mongodb(row, notes);
    case "grpc-keyword":
      return grpc(row, notes);
    case "mqtt":
      return mqtt(row, notes);
    case "websocket-upgrade":
      return websocket(row, notes);
    case "smtp":
      return smtp(row, notes);
    case "snmp":
      return snmp(row, notes);
    case "ntp":
      return ntp(row, notes);
    case "docker":
      return docker(row, linked, notes);
    case "real-browser":
      return browser(row, linked, notes);
    case "manual":
      if (row.manual_status !== null && row.manual_status !== undefined) notes.push(note("monitor.manualState"));
      return { settings: {} };
    default:
      throw new Error(`${kumaType} is not one of KUMA_SETTINGS_TYPES`);
  }
}
