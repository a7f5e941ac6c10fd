// The TLS certificate expiry of https monitors, looked up beside the checks (fetch does not expose certificates).
import { closeSocket } from "../net/close-socket";
import { isIP } from "node:net";
import { connect } from "node:tls";

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
      closeSocket(socket);
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
