// The http check type: one request (redirects followed hop by hop under the address policy), the expected status,
// and the optional assertions: a keyword in the body, a JSON path assertion, a slow-answer limit, TLS expiry.
import { VERSION } from "../../../version";
import {
  CHECK_ERROR_TEXT,
  jsonFalseError,
  jsonMissingError,
  keywordFoundError,
  keywordMissingError,
  statusError,
  tlsExpiresSoonError,
  tooSlowError,
} from "../../check-errors";
import { statusMatches } from "../../expected-status";
import { validateHttpFields, type MonitorFields } from "../../field-rules";
import { ALLOW_PRIVATE, createTargetGuard, type TargetPolicy, type Resolve } from "../../../net/targets";
import { createCheckSignals, requestHeaders } from "./request-parts";
import { cachedResolve } from "../../../net/cached-resolve";
import { badRequest } from "../../../http/http-error";
import type { CheckOutcome, CheckType } from "../check-type";
import { describeError } from "../network-errors";
import { evaluateJsonAssertion } from "./json-eval";
import { JsonPathError, parseJsonAssertion, type JsonAssertion } from "./json-path";

export type { CheckOutcome };

/** Without assertions at most this much of a body is read; then the stream is cancelled (endless bodies never stall). */
export const BODY_PREFIX_BYTES = 64 * 1024;
/** With a keyword or JSON assertion, the body is read up to this much (the assertions see no more). */
export const ASSERTED_BODY_BYTES = 1024 * 1024;
const USER_AGENT = `Vigil/${VERSION} (uptime monitor)`;

type AssertionFields = "keyword" | "keywordInvert" | "keywordCaseSensitive" | "jsonPath" | "maxResponseTime" | "ignoreTls" | "freshConnection";
export type CheckTarget = Pick<MonitorFields, "url" | "method" | "timeout" | "expectedStatus" | "headers" | "body" | "followRedirects"> &
  Partial<Pick<MonitorFields, AssertionFields>>;

export type Checker = (target: CheckTarget, signal?: AbortSignal) => Promise<CheckOutcome>;

/** Reads up to `limit` bytes of a body, then cancels the rest; returns what was read when `keep`. */
async function readPrefix(body: ReadableStream<Uint8Array> | null, limit: number, keep: boolean): Promise<Uint8Array | null> {
  if (!body) return keep ? new Uint8Array(0) : null;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    while (read < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (keep) chunks.push(value);
    }
    if (read >= limit) await reader.cancel().catch(() => {});
  } finally {
    reader.releaseLock();
  }
  if (!keep) return null;
  const all = Buffer.concat(chunks);
  return all.byteLength > limit ? all.subarray(0, limit) : all;
}

/**
 * The body, or up to `limit` bytes of it. A plain body that says it is no longer than the limit is read in one native
 * call (no stream, reader or chunks: most checks' answers); a compressed, chunked or larger one through the stream.
 */
async function readBody(res: Response, limit: number, keep: boolean): Promise<Uint8Array | null> {
  const length = res.headers.get("content-length");
  if (length !== null && !res.headers.has("content-encoding") && Number(length) <= limit) {
    const bytes = await res.bytes(); // no more than the declared length arrives
    return keep ? bytes : null;
  }
  return readPrefix(res.body, limit, keep);
}

/** Parsed JSON assertions by source text: a monitor's expression is parsed once, not per check. */
const parsedAssertions = new Map<string, JsonAssertion>();
function jsonAssertionOf(source: string): JsonAssertion {
  let parsed = parsedAssertions.get(source);
  if (!parsed) {
    parsed = parseJsonAssertion(source);
    if (parsedAssertions.size >= 10_000) parsedAssertions.clear();
    parsedAssertions.set(source, parsed);
  }
  return parsed;
}

/** The first failing body assertion's sentence, or null when all hold. */
export function bodyAssertionError(target: Pick<CheckTarget, "keyword" | "keywordInvert" | "keywordCaseSensitive" | "jsonPath">, body: Uint8Array): string | null {
  const text = new TextDecoder().decode(body);
  if (target.keyword) {
    const found = target.keywordCaseSensitive ? text.includes(target.keyword) : text.toLowerCase().includes(target.keyword.toLowerCase());
    if (found && target.keywordInvert) return keywordFoundError(target.keyword);
    if (!found && !target.keywordInvert) return keywordMissingError(target.keyword);
  }
  if (target.jsonPath) {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return CHECK_ERROR_TEXT.JSON_INVALID;
    }
    const assertion = jsonAssertionOf(target.jsonPath);
    const verdict = evaluateJsonAssertion(assertion, document);
    if (!verdict.ok) return verdict.missing ? jsonMissingError(verdict.path) : jsonFalseError(assertion.source, verdict.actual);
  }
  return null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Redirects followed before a check gives up (browsers allow 20; a monitor needs far fewer). */
export const MAX_REDIRECTS = 10;

export interface CheckerOptions {
  /** Which addresses may be contacted (link-local never; private ones unless the instance forbids them). */
  policy?: TargetPolicy;
  /** Resolves host names for the policy (tests). */
  resolve?: Resolve;
}

/**
 * A checker under a target policy. Redirects are followed here, hop by hop, rather than by fetch: each hop's host is
 * checked against the policy first, so a public URL cannot redirect a check to the metadata service.
 */
export function createChecker({ policy = ALLOW_PRIVATE, resolve = cachedResolve() }: CheckerOptions = {}): Checker {
  const targetProblem = createTargetGuard(policy, resolve);
  const signals = createCheckSignals();
  return async (target, signal) => {
    const time = Date.now();
    const started = performance.now();
    // The monitor's headers as built once for its configuration; a Headers copy only when a redirect edits them.
    let headers: HeadersInit = requestHeaders(target.headers, USER_AGENT);
    const editableHeaders = () => (headers instanceof Headers ? headers : (headers = new Headers(headers)));
    let httpStatus: number | null = null;
    let url = target.url;
    let method: string = target.method;
    let body = target.body ?? undefined;
    const asserts = Boolean(target.keyword || target.jsonPath);
    try {
      for (let hop = 0; ; hop++) {
        const problem = await targetProblem(url);
        if (problem) return { time, up: false, responseTime: null, httpStatus: null, error: `Target refused: ${problem}` };
        const res = await fetch(url, {
          method,
          headers,
          body,
          redirect: "manual",
          signal: signals.of(target.timeout * 1000, signal),
          // Bun's fetch option: an operator's choice for self-signed or internal certificates.
          ...(target.ignoreTls ? { tls: { rejectUnauthorized: false } } : {}),
          // Bun's fetch option: a new socket for this request, so a new TCP connect and TLS handshake. A check over a
          // kept-alive connection does not see a new handshake fail (a broken certificate chain, a TLS setting the
          // server no longer accepts) until the server drops the old connection; this mode measures connect + TLS
          // every time.
          ...(target.freshConnection ? { keepalive: false } : {}),
        });
        httpStatus = res.status;
        const location = res.headers.get("location");
        if (target.followRedirects && REDIRECT_STATUSES.has(res.status) && location) {
          await res.body?.cancel().catch(() => {});
          if (hop >= MAX_REDIRECTS) return { time, up: false, responseTime: null, httpStatus, error: CHECK_ERROR_TEXT.TOO_MANY_REDIRECTS };
          const next = new URL(location, url);
          if (next.protocol !== "http:" && next.protocol !== "https:") {
            return { time, up: false, responseTime: null, httpStatus, error: `Redirected to a ${next.protocol} address, which is not checked` };
          }
          // What browsers do (Fetch standard): 303 turns into GET, and so does a POST answered by 301/302.
          if ((res.status === 303 && method !== "HEAD") || ((res.status === 301 || res.status === 302) && method === "POST")) {
            method = "GET";
            body = undefined;
            editableHeaders().delete("content-type");
          }
          // Credentials set for one host are not sent to another.
          if (next.origin !== new URL(url).origin) editableHeaders().delete("authorization");
          url = next.href;
          continue;
        }
        let content: Uint8Array | null = null;
        if (method === "HEAD") await res.body?.cancel().catch(() => {});
        else content = await readBody(res, asserts ? ASSERTED_BODY_BYTES : BODY_PREFIX_BYTES, asserts);
        const responseTime = Math.round(performance.now() - started);
        const statusOk = statusMatches(target.expectedStatus, res.status);
        // The status first, then what the body says, then speed: the most telling failure is the one reported.
        const error = !statusOk
          ? statusError(res.status, target.expectedStatus)
          : (content && bodyAssertionError(target, content)) ||
            (target.maxResponseTime != null && responseTime > target.maxResponseTime ? tooSlowError(responseTime, target.maxResponseTime) : null);
        return { time, up: error === null, responseTime, httpStatus, error };
      }
    } catch (e) {
      return { time, up: false, responseTime: null, httpStatus, error: describeError(e, target.timeout) };
    }
  };
}

/**
 * Runs one check: the request as configured, a timeout covering headers and body prefix, at most 64 KB of body read.
 * Never throws: every failure is a down outcome with a short error. Private targets allowed (the default policy).
 */
export const runCheck: Checker = createChecker();

/** A certificate expiring within the monitor's days (or expired) is down; null otherwise or while unknown. */
export function tlsExpiryError(fields: Pick<MonitorFields, "url" | "tlsExpiryDays">, expiresAt: number | null, now: number): string | null {
  if (fields.tlsExpiryDays == null || expiresAt == null || !/^https:/i.test(fields.url)) return null;
  const days = Math.floor((expiresAt - now) / 86_400_000);
  if (expiresAt <= now) return CHECK_ERROR_TEXT.TLS_EXPIRED;
  return days < fields.tlsExpiryDays ? tlsExpiresSoonError(days) : null;
}

/** The http type. `checker` replaces the request in tests. */
export function httpType(checker: Checker): CheckType {
  return {
    type: "http",
    validate(fields, policy) {
      validateHttpFields(fields, policy);
      if (fields.jsonPath !== null) {
        try {
          fields.jsonPath = jsonAssertionOf(fields.jsonPath.trim()).source;
        } catch (e) {
          if (e instanceof JsonPathError) throw badRequest("INVALID_JSON_PATH", e.message);
          throw e;
        }
      }
    },
    async check(fields, ctx, state) {
      const outcome = await checker(fields, ctx.signal);
      if (!outcome.up) return outcome;
      const expiring = tlsExpiryError(fields, state.tlsExpiresAt, ctx.now());
      return expiring ? { ...outcome, up: false, error: expiring } : outcome;
    },
    target: (fields) => fields.url,
    facts: (fields) => ({
      ...(fields.keyword ? { keyword: `${fields.keywordInvert ? "≠ " : ""}${fields.keyword}` } : {}),
      ...(fields.jsonPath ? { jsonPath: fields.jsonPath } : {}),
    }),
  };
}
