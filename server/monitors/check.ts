// One HTTP check, and the TLS certificate expiry lookup that goes with https monitors.
import { isIP } from "node:net";
import { connect } from "node:tls";
import { VERSION } from "../version";
import { CHECK_ERROR_TEXT, statusError, timeoutError } from "./check-errors";
import { statusMatches } from "./expected-status";
import type { MonitorFields } from "./schemas";
import { ALLOW_PRIVATE, defaultResolve, targetProblem, type Resolve, type TargetPolicy } from "../net/targets";

/** At most this much of a response body is read; then the stream is cancelled (endless or huge bodies never stall). */
export const BODY_PREFIX_BYTES = 64 * 1024;
const USER_AGENT = `Vigil/${VERSION} (uptime monitor)`;

export type CheckTarget = Pick<MonitorFields, "url" | "method" | "timeout" | "expectedStatus" | "headers" | "body" | "followRedirects">;

export interface CheckOutcome {
  /** When the check started (Unix ms). */
  time: number;
  up: boolean;
  /** Time to the response headers plus the body prefix, ms; null when no response came. */
  responseTime: number | null;
  httpStatus: number | null;
  error: string | null;
}

export type Checker = (target: CheckTarget, signal?: AbortSignal) => Promise<CheckOutcome>;


/** A short, human error for a failed fetch (one of check-errors.ts's sentences). */
export function describeError(error: unknown, timeoutSeconds: number): string {
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  const name = e?.name ?? "";
  const code = String(e?.code ?? "");
  const message = String(e?.message ?? error ?? "");
  if (name === "TimeoutError") return timeoutError(timeoutSeconds);
  if (name === "AbortError") return CHECK_ERROR_TEXT.CANCELLED;
  switch (code) {
    case "ECONNREFUSED":
    case "ConnectionRefused":
      return CHECK_ERROR_TEXT.REFUSED;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "DNSError":
      return CHECK_ERROR_TEXT.DNS;
    case "ECONNRESET":
    case "ConnectionClosed":
      return CHECK_ERROR_TEXT.RESET;
    case "ETIMEDOUT":
    case "ConnectionTimeout":
      return CHECK_ERROR_TEXT.CONNECT_TIMEOUT;
    case "EHOSTUNREACH":
      return CHECK_ERROR_TEXT.HOST_UNREACHABLE;
    case "ENETUNREACH":
      return CHECK_ERROR_TEXT.NETWORK_UNREACHABLE;
    case "TooManyRedirects":
      return CHECK_ERROR_TEXT.TOO_MANY_REDIRECTS;
    case "CERT_HAS_EXPIRED":
      return CHECK_ERROR_TEXT.TLS_EXPIRED;
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
      return CHECK_ERROR_TEXT.TLS_SELF_SIGNED;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return CHECK_ERROR_TEXT.TLS_HOSTNAME;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return CHECK_ERROR_TEXT.TLS_UNTRUSTED;
    case "EPROTO":
      return CHECK_ERROR_TEXT.TLS_HANDSHAKE;
  }
  if (/CERT|TLS|SSL/i.test(code)) return `TLS error: ${message.slice(0, 160)}`;
  if (/redirect/i.test(message)) return CHECK_ERROR_TEXT.TOO_MANY_REDIRECTS;
  return (message || "request failed").replace(/\s+/g, " ").slice(0, 200);
}

/** Reads up to `limit` bytes of a body, then cancels the rest. */
async function drainPrefix(body: ReadableStream<Uint8Array> | null, limit: number): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read < limit) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel().catch(() => {});
  } finally {
    reader.releaseLock();
  }
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
  return async (target, signal) => {
    const time = Date.now();
    const started = performance.now();
    const timeout = AbortSignal.timeout(target.timeout * 1000);
    const headers = new Headers();
    headers.set("user-agent", USER_AGENT);
    for (const h of target.headers) {
      if (h.name.toLowerCase() === "user-agent") headers.set(h.name, h.value);
      else headers.append(h.name, h.value);
    }
    let httpStatus: number | null = null;
    let url = target.url;
    let method: string = target.method;
    let body = target.body ?? undefined;
    try {
      for (let hop = 0; ; hop++) {
        const problem = await targetProblem(url, policy, resolve);
        if (problem) return { time, up: false, responseTime: null, httpStatus: null, error: `Target refused: ${problem}` };
        const res = await fetch(url, {
          method,
          headers,
          body,
          redirect: "manual",
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
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
            headers.delete("content-type");
          }
          // Credentials set for one host are not sent to another.
          if (next.origin !== new URL(url).origin) headers.delete("authorization");
          url = next.href;
          continue;
        }
        if (method === "HEAD") await res.body?.cancel().catch(() => {});
        else await drainPrefix(res.body, BODY_PREFIX_BYTES);
        const responseTime = Math.round(performance.now() - started);
        const up = statusMatches(target.expectedStatus, res.status);
        return {
          time,
          up,
          responseTime,
          httpStatus,
          error: up ? null : statusError(res.status, target.expectedStatus),
        };
      }
    } catch (e) {
      return { time, up: false, responseTime: null, httpStatus, error: describeError(e, target.timeout) };
    }
  };
}

/**
 * Host name lookups for the policy, kept a minute (at most 10 000 names): 10 000 monitors on one host must not
 * mean 10 000 lookups a minute. The request itself resolves again through fetch's own cache.
 */
export function cachedResolve(resolve: Resolve = defaultResolve, ttlMs = 60_000, max = 10_000): Resolve {
  const cache = new Map<string, { addresses: string[]; at: number }>();
  return async (hostname) => {
    const hit = cache.get(hostname);
    const now = Date.now();
    if (hit && now - hit.at < ttlMs) return hit.addresses;
    const addresses = await resolve(hostname);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(hostname, { addresses, at: now });
    return addresses;
  };
}

/**
 * Runs one check: the request as configured, a timeout covering headers and body prefix, at most 64 KB of body read.
 * Never throws: every failure is a down outcome with a short error. Private targets allowed (the default policy).
 */
export const runCheck: Checker = createChecker();

// ── TLS certificate expiry ──────────────────────────────────────────────────────────────────────────────────────

export interface TlsProbeOptions {
  /** How long a found expiry is trusted. */
  ttlMs?: number;
  /** How long to wait before asking again after a failed lookup. */
  failureTtlMs?: number;
  timeoutMs?: number;
  /** Lookups running at once; more are skipped until a later check. */
  maxConcurrent?: number;
  now?: () => number;
  /** Replaceable in tests. */
  lookup?: (host: string, port: number, timeoutMs: number) => Promise<number | null>;
}

/** Connects with TLS (any certificate accepted: we only read it) and returns the leaf certificate's expiry. */
export function certificateExpiry(host: string, port: number, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const socket = connect({ host, port, servername: isIP(host) ? undefined : host, rejectUnauthorized: false }, () => {
      const validTo = socket.getPeerCertificate()?.valid_to;
      const at = validTo ? Date.parse(validTo) : NaN;
      done(Number.isFinite(at) ? at : null);
    });
    socket.on("error", () => done(null));
    const timer = setTimeout(() => done(null), timeoutMs);
  });
}

/**
 * Certificate expiry per host:port, cached (12 h by default) and looked up in the background: the check path only
 * reads the cache and, when stale, starts a lookup whose answer arrives through the callback.
 */
export function createTlsProbe(options: TlsProbeOptions = {}) {
  const ttl = options.ttlMs ?? 12 * 3_600_000;
  const failureTtl = options.failureTtlMs ?? 3_600_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxConcurrent = options.maxConcurrent ?? 4;
  const now = options.now ?? Date.now;
  const lookup = options.lookup ?? certificateExpiry;
  const cache = new Map<string, { expiresAt: number | null; checkedAt: number }>();
  const pending = new Set<string>();

  return {
    /**
     * The cached expiry for an https URL (undefined when unknown or not https). When missing or stale, a lookup
     * starts (unless too many run) and `onFound` receives its answer.
     */
    get(url: string, onFound: (expiresAt: number | null) => void): number | null | undefined {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (parsed.protocol !== "https:") return undefined;
      const host = parsed.hostname.replace(/^\[|\]$/g, "");
      const port = Number(parsed.port || 443);
      const key = `${host}:${port}`;
      const hit = cache.get(key);
      const fresh = hit && now() - hit.checkedAt < (hit.expiresAt === null ? failureTtl : ttl);
      if (!fresh && !pending.has(key) && pending.size < maxConcurrent) {
        pending.add(key);
        lookup(host, port, timeoutMs)
          .catch(() => null)
          .then((expiresAt) => {
            pending.delete(key);
            if (cache.size > 10_000) cache.clear();
            cache.set(key, { expiresAt, checkedAt: now() });
            onFound(expiresAt);
          });
      }
      return hit?.expiresAt;
    },
    clear: () => cache.clear(),
  };
}

export type TlsProbe = ReturnType<typeof createTlsProbe>;
