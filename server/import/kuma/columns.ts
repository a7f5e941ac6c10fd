// Reading Kuma's monitor columns: the small conversions every type's mapping shares (monitor-fields.ts,
// monitor-settings.ts), and the request headers and JSON assertion both HTTP and other types take from Kuma.
import type { MonitorHeader } from "../../monitors/public";
import { note } from "./notes";
import type { Note } from "./section";

export type Row = Record<string, unknown>;

export const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
export const num = (v: unknown, fallback: number): number => {
  const n = Number(v);
  return v === null || v === undefined || v === "" || !Number.isFinite(n) ? fallback : n;
};
export const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "true";

export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== "string" || text.trim() === "") return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Headers from Kuma's JSON text ({"Name": "value"}), then the body encoding and auth as Kuma would send them. */
export function requestHeaders(row: Row, sendsBody: boolean, notes: Note[]): MonitorHeader[] | { skip: Note } {
  const parsed = parseJson<unknown>(row.headers, null);
  if (str(row.headers).trim() !== "" && (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))) {
    return { skip: note("monitor.headersNotObject") };
  }
  const headers: MonitorHeader[] = Object.entries((parsed ?? {}) as Row).map(([name, value]) => ({ name, value: str(value) }));
  const hasHeader = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  if (sendsBody && !hasHeader("content-type")) {
    const encoding = str(row.http_body_encoding || "json").toLowerCase();
    const type = encoding === "form" ? "application/x-www-form-urlencoded" : encoding === "xml" ? "text/xml; charset=utf-8" : "application/json";
    headers.push({ name: "Content-Type", value: type });
  }
  const auth = str(row.auth_method);
  if (auth === "basic" || (auth === "" && str(row.basic_auth_user) !== "")) {
    const basic = Buffer.from(`${str(row.basic_auth_user)}:${str(row.basic_auth_pass)}`).toString("base64");
    const others = headers.filter((h) => h.name.toLowerCase() !== "authorization");
    return [...others, { name: "Authorization", value: `Basic ${basic}` }];
  }
  if (auth === "bearer") {
    const others = headers.filter((h) => h.name.toLowerCase() !== "authorization");
    return [...others, { name: "Authorization", value: `Bearer ${str(row.bearer_token)}` }];
  }
  if (auth === "ntlm") return { skip: note("monitor.ntlm") };
  if (auth === "oauth2-cc") return { skip: note("monitor.oauth2") };
  if (auth === "mtls") return { skip: note("monitor.mtls") };
  if (auth !== "") notes.push(note("monitor.authUnknown", { auth }));
  return headers;
}

/** Kuma's expected value as the JSON literal Vigil compares with: Kuma compares text, Vigil JSON values. */
function jsonLiteral(expected: string, notes: Note[]): string {
  const trimmed = expected.trim();
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) {
    notes.push(note("monitor.jsonNumber", { expected, value: trimmed }));
    return trimmed;
  }
  if (trimmed === "true" || trimmed === "false") {
    notes.push(note("monitor.jsonBoolean", { expected, value: trimmed }));
    return trimmed;
  }
  return JSON.stringify(expected);
}

/** Kuma's JSONata query and operator as Vigil's JSON path assertion (server/monitors/types/http/json-path.ts). */
export function jsonAssertion(row: Row, notes: Note[]): string | { skip: Note } {
  let path = str(row.json_path).trim();
  if (!path) return { skip: note("monitor.jsonQueryEmpty") };
  // JSONata reads "status" as "$.status"; Vigil's paths start at $.
  if (!path.startsWith("$")) path = `$.${path}`;
  const op = str(row.json_path_operator || "==");
  const expected = str(row.expected_value);
  if (op === "<" || op === "<=" || op === ">" || op === ">=") {
    if (!Number.isFinite(Number(expected)) || expected.trim() === "") return { skip: note("monitor.jsonNotNumber", { op, expected }) };
    return `${path} ${op} ${Number(expected)}`;
  }
  if (op === "contains") return `${path} contains ${JSON.stringify(expected)}`;
  if (op === "==" || op === "!=") return `${path} ${op} ${jsonLiteral(expected, notes)}`;
  return { skip: note("monitor.jsonOperator", { op }) };
}
