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
  m = /^TLS error: (.*)$/.exec(message);
  if (m) return { code: "TLS_OTHER", params: { detail: m[1] } };
  // server/net/targets.ts: the address policy refused the host (or a redirect's).
  m = /^Target refused: (.*)$/.exec(message);
  if (m) return { code: "TARGET_REFUSED", params: { detail: m[1] } };
  return { code: "OTHER", params: { detail: message } };
}
