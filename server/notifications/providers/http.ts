// What every provider does the same way: POST JSON with a timeout, read a bounded answer, and turn network errors,
// HTTP statuses and Retry-After into a SendResult. Error strings never carry secrets: network errors become fixed
// phrases (Bun puts the full URL, key included, into its errors), and any text taken from an answer is redacted.
import type { SendContext, SendResult } from "./provider";
import { TargetRefused } from "../../net/targets";

/** Answers are small JSON documents; a bigger one is read this far and the rest dropped. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export type Failure = Extract<SendResult, { ok: false }>;

export interface Answer {
  status: number;
  headers: Headers;
  /** The body as text (at most MAX_ANSWER_BYTES), secrets redacted. */
  text: string;
  /** The body parsed as JSON (secrets redacted in its strings), or undefined when it is not JSON. */
  json: unknown;
  /** Unix ms when the answer arrived (ctx.now()), for Retry-After dates. */
  receivedAt: number;
  /** Values removed from any error text built from this answer. */
  secrets: readonly string[];
}

export interface PostOptions {
  /** Extra headers; Content-Type and User-Agent are set already. */
  headers?: Record<string, string>;
  /** Values to keep out of error strings (tokens, keys, URLs that carry a key). */
  secrets?: readonly (string | undefined)[];
}

export const OK: SendResult = { ok: true };

/** POSTs `body` (a string is sent as is, anything else as JSON) and reads the answer, or says why it could not. */
export async function postJson(
  ctx: SendContext,
  url: string,
  body: unknown,
  options: PostOptions = {},
): Promise<{ ok: true; answer: Answer } | Failure> {
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  try {
    const response = await ctx.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "Vigil", ...options.headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(ctx.timeoutMs),
      // A redirect would resend a signed body, or drop it (POST → GET): report it instead.
      redirect: "manual",
    });
    const raw = await readPrefix(response, MAX_ANSWER_BYTES);
    // Redacted before anything is cut for an error string, so no prefix of a secret survives a cut.
    const answer = { status: response.status, headers: response.headers, text: redact(raw, secrets), json: parseJson(raw, secrets), receivedAt: ctx.now(), secrets };
    return { ok: true, answer };
  } catch (error) {
    // The address policy's refusal names only the host, and retrying cannot change it.
    if (error instanceof TargetRefused) return { ok: false, error: error.message, retryable: false };
    return { ok: false, error: networkError(error, ctx.timeoutMs), retryable: true };
  }
}

/** True for 2xx. */
export function success(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** 429 and 5xx may succeed later; any other status is final. */
export function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * A failed answer. `retryable` defaults to the status rule (a provider adds its own rate-limit codes);
 * `retryAfterMs` defaults to the Retry-After header.
 */
export function failure(answer: Answer, error: string, extra: { retryable?: boolean; retryAfterMs?: number } = {}): Failure {
  const retryable = extra.retryable ?? retryableStatus(answer.status);
  const result: Failure = { ok: false, error: redact(error, answer.secrets), retryable };
  const retryAfterMs = extra.retryAfterMs ?? parseRetryAfter(answer.headers.get("retry-after"), answer.receivedAt);
  if (retryable && retryAfterMs !== undefined) result.retryAfterMs = retryAfterMs;
  return result;
}

/** "HTTP 404" plus the start of the body when there is one, on one line. */
export function describeAnswer(answer: Answer): string {
  const body = snippet(answer.text);
  const redirect = answer.status >= 300 && answer.status < 400 ? " (redirect not followed)" : "";
  return body ? `HTTP ${answer.status}${redirect}: ${body}` : `HTTP ${answer.status}${redirect}`;
}

/** Text from an answer, fit for an error string: one line, at most `max` characters. */
export function snippet(text: string, max = 200): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // "-5" would parse as a year
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The parts of a webhook URL that carry its key (path, query values), to redact from error text. */
export function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [url, parsed.pathname + parsed.search, parsed.pathname, ...parsed.searchParams.values()].filter((s) => s.length >= 8);
  } catch {
    return [url];
  }
}

/**
 * The parts of a URL that may carry a key when its path does not (a generic webhook, see maskUrlKeys): the URL, its
 * query and fragment, each query value, and the credentials as written, decoded and as the Basic header fetch makes
 * of them, to redact from error text. The path stays readable.
 */
export function urlKeyParts(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const { username, password, search, hash } = parsed;
  const query = search.slice(1);
  const rawValues = query.split("&").map((pair) => pair.slice(pair.indexOf("=") + 1));
  return [url, parsed.href, search, query, hash, ...rawValues, ...parsed.searchParams.values(), ...(username || password ? credentialParts(username, password) : [])];
}

function credentialParts(username: string, password: string): string[] {
  const pair = `${decode(username)}:${decode(password)}`;
  return [username, password, decode(username), decode(password), pair, Buffer.from(pair).toString("base64")];
}

/** Replaces every secret found in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a URL goes before the path inside it.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (secret.length >= 4) out = out.split(secret).join("••••");
  return out;
}

/** A fixed phrase for a network error: never the error's own message, which holds the URL. */
export function networkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: unknown } | undefined;
  if (e?.name === "TimeoutError") return `timeout after ${Number((timeoutMs / 1000).toFixed(2))} s`;
  if (e?.name === "AbortError") return "request cancelled";
  switch (String(e?.code ?? "")) {
    case "ECONNREFUSED":
    case "ConnectionRefused":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "DNSError":
      return "host not found";
    case "ECONNRESET":
    case "ConnectionClosed":
      return "connection reset";
    case "ETIMEDOUT":
    case "ConnectionTimeout":
      return "connect timeout";
    case "EHOSTUNREACH":
      return "host unreachable";
    case "ENETUNREACH":
      return "network unreachable";
  }
  const code = String(e?.code ?? "");
  if (/CERT|TLS|SSL|EPROTO/i.test(code)) return `TLS error (${code})`;
  return code && /^[A-Za-z_]+$/.test(code) ? `request failed (${code})` : "request failed";
}

/** Reads at most `limit` bytes of the body, then cancels the rest. */
export async function readPrefix(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= limit) await reader.cancel().catch(() => {});
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(bytes);
}

/** Percent-decoded, or as it is when it is no valid encoding. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parseJson(text: string, secrets: readonly string[]): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text, (_key, value) => (typeof value === "string" ? redact(value, secrets) : value));
  } catch {
    return undefined;
  }
}

// ── Text layout helpers shared by the providers ─────────────────────────────────────────────────────────────────

/** At most `max` characters (code points), ending with "…" when cut. */
export function clip(text: string, max: number): string {
  if (max <= 0) return "";
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Like clip, for escaped text: a cut never leaves half an entity ("&am…"). */
export function clipEscaped(text: string, max: number): string {
  const cut = clip(text, max);
  return cut === text ? text : cut.replace(/&[a-z#0-9]*…$/, "…");
}

/** At most `max` UTF-8 bytes, ending with "…" when cut (WeCom counts bytes). */
export function clipBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= max) return text;
  let out = "";
  let size = 3; // the "…"
  for (const char of text) {
    const n = encoder.encode(char).length;
    if (size + n > max) break;
    out += char;
    size += n;
  }
  return `${out}…`;
}
