// The vocabulary of a failed check. The server stores and sends a short English sentence (readable in logs, the API
// and notifications); each sentence maps to a stable code with its parameters, which the UI translates. No imports:
// the UI uses this module too, so the two can never drift apart.

export type CheckErrorCode =
  | "TIMEOUT"
  | "CANCELLED"
  | "STATUS"
  | "REFUSED"
  | "DNS"
  | "RESET"
  | "CONNECT_TIMEOUT"
  | "HOST_UNREACHABLE"
  | "NETWORK_UNREACHABLE"
  | "TOO_MANY_REDIRECTS"
  | "TLS_EXPIRED"
  | "TLS_SELF_SIGNED"
  | "TLS_HOSTNAME"
  | "TLS_UNTRUSTED"
  | "TLS_HANDSHAKE"
  | "TLS_OTHER"
  | "TARGET_REFUSED"
  | "TOO_SLOW"
  | "KEYWORD_MISSING"
  | "KEYWORD_FOUND"
  | "JSON_INVALID"
  | "JSON_MISSING"
  | "JSON_FALSE"
  | "TLS_EXPIRES_SOON"
  | "DNS_NOT_FOUND"
  | "DNS_EMPTY"
  | "DNS_UNEXPECTED"
  | "DNS_FAILED"
  | "PUSH_MISSED"
  | "PUSH_MISSED_SECONDS"
  | "PUSH_REPORTED"
  | "PING_LOSS"
  | "PING_FAMILY"
  | "PING_UNAVAILABLE"
  | "LOCATIONS_DOWN"
  | "UNREACHABLE"
  | "UPSIDE_DOWN"
  | "GROUP_DOWN"
  | "AUTH_FAILED"
  | "QUERY_NO_ROWS"
  | "QUERY_FAILED"
  | "VALUE_MISMATCH"
  | "REPLY_UNEXPECTED"
  | "GRPC_STATUS"
  | "NO_MESSAGE"
  | "UPGRADE_REFUSED"
  | "STARTTLS_MISSING"
  | "NTP_OFFSET"
  | "NTP_STRATUM"
  | "CONTAINER_NOT_FOUND"
  | "CONTAINER_STATE"
  | "CONTAINER_UNHEALTHY"
  | "SELECTOR_MISSING"
  | "PAGE_FAILED"
  | "BROWSER_UNAVAILABLE"
  | "MANUAL_DOWN"
  | "MANUAL_NOTE"
  | "PROTOCOL_ERROR"
  | "OTHER";

export interface CheckError {
  code: CheckErrorCode;
  /** The sentence's parts (TIMEOUT: seconds; STATUS: status and expected; …); details are untranslated text. */
  params: Record<string, string>;
}

/** The fixed sentences, by code. */
export const CHECK_ERROR_TEXT = {
  CANCELLED: "check cancelled",
  REFUSED: "connection refused",
  DNS: "could not resolve host",
  RESET: "connection reset by the server",
  CONNECT_TIMEOUT: "connection timed out",
  HOST_UNREACHABLE: "host unreachable",
  NETWORK_UNREACHABLE: "network unreachable",
  TOO_MANY_REDIRECTS: "too many redirects",
  TLS_EXPIRED: "TLS error: certificate has expired",
  TLS_SELF_SIGNED: "TLS error: self-signed certificate",
  TLS_HOSTNAME: "TLS error: certificate does not match the host name",
  TLS_UNTRUSTED: "TLS error: certificate is not trusted",
  TLS_HANDSHAKE: "TLS error: handshake failed",
  JSON_INVALID: "body is not JSON",
  PING_UNAVAILABLE: "ping is not available on this server: no ICMP socket allowed and no ping program",
  /** An upside-down monitor whose check passed: recorded down. */
  UPSIDE_DOWN: "up, but this monitor is upside down",
  /** A database, broker or mail server refused the user name, password or token. */
  AUTH_FAILED: "authentication failed",
  QUERY_NO_ROWS: "query returned 0 rows",
  /** The mail server did not offer STARTTLS although the monitor requires it. */
  STARTTLS_MISSING: "STARTTLS not offered",
  BROWSER_UNAVAILABLE: "no browser on this server: install Chromium",
  MANUAL_DOWN: "set down manually",
} as const satisfies Partial<Record<CheckErrorCode, string>>;

export const timeoutError = (seconds: number) => `timeout after ${seconds} s`;
/** "status 503, expected 2xx or 301" */
export const statusError = (status: number, expected: string) => `status ${status}, expected ${expected.replace(/,/g, " or ")}`;

/** 2340 → "2 340" (the sentences group thousands with a space, whatever the reader's language). */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
/** "too slow: 2 340 ms > 1 000 ms" */
export const tooSlowError = (ms: number, max: number) => `too slow: ${grouped(ms)} ms > ${grouped(max)} ms`;
/** Keywords and values are quoted as JSON strings, so any text reads back unambiguously. */
export const keywordMissingError = (keyword: string) => `keyword ${JSON.stringify(keyword)} not found`;
export const keywordFoundError = (keyword: string) => `keyword ${JSON.stringify(keyword)} found`;
/** "JSON $.status not found" */
export const jsonMissingError = (path: string) => `JSON ${path} not found`;
/** "JSON $.status == \"ok\" is false (got \"error\")" */
export const jsonFalseError = (expression: string, actual: string) => `JSON ${expression} is false (got ${actual})`;
export const tlsExpiresSoonError = (days: number) => `TLS certificate expires in ${days} days`;
export const dnsNotFoundError = (name: string) => `DNS: ${name} does not exist`;
export const dnsEmptyError = (record: string, name: string) => `DNS: no ${record} records for ${name}`;
export const dnsUnexpectedError = (expected: string, answers: string[]) => `DNS: expected ${expected}, got ${answers.join(", ")}`;
export const dnsFailedError = (detail: string) => `DNS: ${detail}`;
/** A push monitor heard nothing within its interval plus grace. */
export const pushMissedError = (intervalSeconds: number, graceSeconds: number) =>
  intervalSeconds % 60 === 0 ? `no push within ${intervalSeconds / 60} min + ${graceSeconds} s` : `no push within ${intervalSeconds} s + ${graceSeconds} s`;
/** A push call said `status=down` (with its `msg`, if any). */
export const pushReportedError = (message: string | null) => (message ? `reported down: ${message}` : "reported down");

/** "packet loss 67 % (1 of 3 replies)" */
export const pingLossError = (loss: number, received: number, sent: number) => `packet loss ${loss} % (${received} of ${sent} replies)`;
/** The host has no address of the family asked for: "no IPv6 address for example.com". */
export const pingFamilyError = (family: 4 | 6, host: string) => `no IPv${family} address for ${host}`;

/**
 * A monitor checked from several locations is down by its rule: "down from 2 of 3: Vigil (connection refused),
 * tokyo (timeout after 30 s)" — each location that sees it down, with its own error.
 */
export const locationsDownError = (down: number, total: number, names: string) => `down from ${down} of ${total}: ${names}`;

/** A failure while a monitor this one depends on is down: recorded, alerting nobody (server/monitors/dependencies.ts). */
export const unreachableError = (parent: string) => `unreachable: ${parent} is down`;
/** A group down by its rule: "2 of 3 members down: api, db". */
export const groupDownError = (down: number, total: number, names: string) => `${down} of ${total} members down: ${names}`;

// The later check types (server/monitors/types/<type>/, settings-type.ts). Values are quoted as JSON strings.
/** A query or command the server refused: "query failed: relation \"x\" does not exist". */
export const queryFailedError = (detail: string) => `query failed: ${oneLine(detail)}`;
/** An asserted value (a query's first value, a reply, an SNMP value…): "expected value == \"1\", got \"0\"". */
export const valueMismatchError = (expectation: string, actual: string) => `expected value ${expectation}, got ${oneLine(actual)}`;
/** A reply that is not the one the protocol promises: "unexpected reply: \"LOADING\"". */
export const replyUnexpectedError = (detail: string) => `unexpected reply: ${oneLine(detail)}`;
/** gRPC health checking said something other than SERVING: "gRPC health: NOT_SERVING". */
export const grpcStatusError = (status: string) => `gRPC health: ${status}`;
/** MQTT / WebSocket: nothing arrived to assert on. */
export const noMessageError = (seconds: number) => `no message within ${seconds} s`;
/** WebSocket: the server answered the upgrade with another status than 101. */
export const upgradeRefusedError = (status: number) => `upgrade refused: status ${status}`;
/** NTP: "clock offset 1 250 ms > 500 ms" (the absolute offset). */
export const ntpOffsetError = (ms: number, max: number) => `clock offset ${grouped(ms)} ms > ${grouped(max)} ms`;
export const ntpStratumError = (stratum: number, max: number) => `stratum ${stratum} > ${max}`;
export const containerNotFoundError = (name: string) => `container ${name} not found`;
/** "container web is exited" (Docker's state words: created, restarting, paused, exited, dead). */
export const containerStateError = (name: string, state: string) => `container ${name} is ${state}`;
export const containerUnhealthyError = (name: string) => `container ${name} is unhealthy`;
export const selectorMissingError = (selector: string) => `selector ${JSON.stringify(selector)} not found`;
/** A browser check whose page did not load or whose script failed: "page failed: net::ERR_CONNECTION_REFUSED". */
export const pageFailedError = (detail: string) => `page failed: ${oneLine(detail)}`;
export const manualDownError = (message: string | null) => (message ? `set down manually: ${oneLine(message)}` : CHECK_ERROR_TEXT.MANUAL_DOWN);
/** What a protocol's client reported that no other sentence says: "SNMP error: noSuchName". */
export const PROTOCOLS = ["PostgreSQL", "MySQL", "Redis", "MongoDB", "gRPC", "MQTT", "WebSocket", "SMTP", "IMAP", "POP3", "SNMP", "NTP", "Docker", "Chromium"] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export const protocolError = (protocol: Protocol, detail: string) => `${protocol} error: ${oneLine(detail)}`;
/** Driver messages can span lines and run long: one line of at most 200 characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The name a combined verdict gives the Vigil server's own location; readers see it as "Vigil server" in their language. */
export const SERVER_LOCATION_NAME = "Vigil";

/**
 * The locations of a combined down verdict, "Vigil (connection refused), tokyo (timeout after 30 s)", each rewritten
 * by `each` (its name and its error, or null) and joined with `separator`. Best effort: a part that does not read as
 * "name (error)" is kept as it came, except a leading server name (the server is always listed first).
 */
export function mapLocations(names: string, separator: string, each: (name: string, error: string | null) => string): string {
  return names
    .split(/(?<=\)), /)
    .map((part, i) => {
      const m = /^(.+?) \((.*)\)$/.exec(part);
      if (m) return each(m[1]!, m[2]!);
      const server = i === 0 && (part === SERVER_LOCATION_NAME || part.startsWith(`${SERVER_LOCATION_NAME}, `));
      return server ? each(SERVER_LOCATION_NAME, null) + part.slice(SERVER_LOCATION_NAME.length) : part;
    })
    .join(separator);
}

const BY_TEXT = new Map<string, CheckErrorCode>(Object.entries(CHECK_ERROR_TEXT).map(([code, text]) => [text, code as CheckErrorCode]));

/** The code and parameters of an error sentence (anything unknown is OTHER with the sentence as its detail). */
export function parseCheckError(message: string): CheckError {
  const known = BY_TEXT.get(message);
  if (known) return { code: known, params: {} };
  let m = /^timeout after (\d+(?:\.\d+)?) s$/.exec(message);
  if (m) return { code: "TIMEOUT", params: { seconds: m[1] } };
  m = /^status (\d{3}), expected (.+)$/.exec(message);
  if (m) return { code: "STATUS", params: { status: m[1], expected: m[2] } };
  m = /^too slow: ([\d ]+) ms > ([\d ]+) ms$/.exec(message);
  if (m) return { code: "TOO_SLOW", params: { ms: m[1], max: m[2] } };
  m = /^keyword (".*") (not found|found)$/.exec(message);
  if (m) return { code: m[2] === "found" ? "KEYWORD_FOUND" : "KEYWORD_MISSING", params: { keyword: m[1] } };
  m = /^JSON (\$\S*) not found$/.exec(message);
  if (m) return { code: "JSON_MISSING", params: { path: m[1] } };
  m = /^JSON (.+) is false \(got (.*)\)$/.exec(message);
  if (m) return { code: "JSON_FALSE", params: { expression: m[1], actual: m[2] } };
  m = /^TLS certificate expires in (-?\d+) days$/.exec(message);
  if (m) return { code: "TLS_EXPIRES_SOON", params: { days: m[1] } };
  m = /^DNS: (\S+) does not exist$/.exec(message);
  if (m) return { code: "DNS_NOT_FOUND", params: { name: m[1] } };
  m = /^DNS: no (\S+) records for (\S+)$/.exec(message);
  if (m) return { code: "DNS_EMPTY", params: { record: m[1], name: m[2] } };
  m = /^DNS: expected (.+?), got (.*)$/.exec(message);
  if (m) return { code: "DNS_UNEXPECTED", params: { expected: m[1], answers: m[2] } };
  m = /^DNS: (.*)$/.exec(message);
  if (m) return { code: "DNS_FAILED", params: { detail: m[1] } };
  m = /^no push within (\d+) min \+ (\d+) s$/.exec(message);
  if (m) return { code: "PUSH_MISSED", params: { interval: m[1], grace: m[2] } };
  m = /^no push within (\d+) s \+ (\d+) s$/.exec(message);
  if (m) return { code: "PUSH_MISSED_SECONDS", params: { interval: m[1], grace: m[2] } };
  m = /^reported down(?:: (.*))?$/.exec(message);
  if (m) return { code: "PUSH_REPORTED", params: { detail: m[1] ?? "" } };
  m = /^packet loss (\d+) % \((\d+) of (\d+) replies\)$/.exec(message);
  if (m) return { code: "PING_LOSS", params: { loss: m[1], received: m[2], sent: m[3] } };
  m = /^no IPv([46]) address for (\S+)$/.exec(message);
  if (m) return { code: "PING_FAMILY", params: { family: m[1], host: m[2] } };
  m = /^down from (\d+) of (\d+): (.*)$/.exec(message);
  if (m) return { code: "LOCATIONS_DOWN", params: { down: m[1], total: m[2], names: m[3] } };
  m = /^unreachable: (.*) is down$/.exec(message);
  if (m) return { code: "UNREACHABLE", params: { parent: m[1] } };
  m = /^(\d+) of (\d+) members down: (.*)$/.exec(message);
  if (m) return { code: "GROUP_DOWN", params: { down: m[1], total: m[2], names: m[3] } };
  m = /^query failed: (.*)$/.exec(message);
  if (m) return { code: "QUERY_FAILED", params: { detail: m[1] } };
  m = /^expected value (.+?), got (.*)$/.exec(message);
  if (m) return { code: "VALUE_MISMATCH", params: { expected: m[1], actual: m[2] } };
  m = /^unexpected reply: (.*)$/.exec(message);
  if (m) return { code: "REPLY_UNEXPECTED", params: { detail: m[1] } };
  m = /^gRPC health: (\S+)$/.exec(message);
  if (m) return { code: "GRPC_STATUS", params: { status: m[1] } };
  m = /^no message within (\d+(?:\.\d+)?) s$/.exec(message);
  if (m) return { code: "NO_MESSAGE", params: { seconds: m[1] } };
  m = /^upgrade refused: status (\d+)$/.exec(message);
  if (m) return { code: "UPGRADE_REFUSED", params: { status: m[1] } };
  m = /^clock offset ([\d ]+) ms > ([\d ]+) ms$/.exec(message);
  if (m) return { code: "NTP_OFFSET", params: { ms: m[1], max: m[2] } };
  m = /^stratum (\d+) > (\d+)$/.exec(message);
  if (m) return { code: "NTP_STRATUM", params: { stratum: m[1], max: m[2] } };
  m = /^container (.+) not found$/.exec(message);
  if (m) return { code: "CONTAINER_NOT_FOUND", params: { name: m[1] } };
  m = /^container (.+) is unhealthy$/.exec(message);
  if (m) return { code: "CONTAINER_UNHEALTHY", params: { name: m[1] } };
  m = /^container (.+) is (\S+)$/.exec(message);
  if (m) return { code: "CONTAINER_STATE", params: { name: m[1], state: m[2] } };
  m = /^selector (".*") not found$/.exec(message);
  if (m) return { code: "SELECTOR_MISSING", params: { selector: m[1] } };
  m = /^page failed: (.*)$/.exec(message);
  if (m) return { code: "PAGE_FAILED", params: { detail: m[1] } };
  m = /^set down manually: (.*)$/.exec(message);
  if (m) return { code: "MANUAL_NOTE", params: { detail: m[1] } };
  m = new RegExp(`^(${PROTOCOLS.join("|")}) error: (.*)$`).exec(message);
  if (m) return { code: "PROTOCOL_ERROR", params: { protocol: m[1], detail: m[2] } };
  m = /^TLS error: (.*)$/.exec(message);
  if (m) return { code: "TLS_OTHER", params: { detail: m[1] } };
  // server/net/targets.ts: the address policy refused the host (or a redirect's).
  m = /^Target refused: (.*)$/.exec(message);
  if (m) return { code: "TARGET_REFUSED", params: { detail: m[1] } };
  return { code: "OTHER", params: { detail: message } };
}
