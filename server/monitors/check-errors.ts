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
  | "OTHER";

export interface CheckError {
  code: CheckErrorCode;
  /** TIMEOUT: seconds; STATUS: status and expected; TLS_OTHER / TARGET_REFUSED / OTHER: detail (untranslated). */
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
} as const satisfies Partial<Record<CheckErrorCode, string>>;

export const timeoutError = (seconds: number) => `timeout after ${seconds} s`;
/** "status 503, expected 2xx or 301" */
export const statusError = (status: number, expected: string) => `status ${status}, expected ${expected.replace(/,/g, " or ")}`;

const BY_TEXT = new Map<string, CheckErrorCode>(Object.entries(CHECK_ERROR_TEXT).map(([code, text]) => [text, code as CheckErrorCode]));

/** The code and parameters of an error sentence (anything unknown is OTHER with the sentence as its detail). */
export function parseCheckError(message: string): CheckError {
  const known = BY_TEXT.get(message);
  if (known) return { code: known, params: {} };
  let m = /^timeout after (\d+) s$/.exec(message);
  if (m) return { code: "TIMEOUT", params: { seconds: m[1] } };
  m = /^status (\d{3}), expected (.+)$/.exec(message);
  if (m) return { code: "STATUS", params: { status: m[1], expected: m[2] } };
  m = /^TLS error: (.*)$/.exec(message);
  if (m) return { code: "TLS_OTHER", params: { detail: m[1] } };
  // server/net/targets.ts: the address policy refused the host (or a redirect's).
  m = /^Target refused: (.*)$/.exec(message);
  if (m) return { code: "TARGET_REFUSED", params: { detail: m[1] } };
  return { code: "OTHER", params: { detail: message } };
}
