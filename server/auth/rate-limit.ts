/**
 * Counts failed attempts per key in a sliding window. A key with `max` failures inside `windowMs` is blocked until
 * its oldest failure leaves the window. Memory stays bounded: at most `maxKeys` keys, the least recently touched
 * dropped first.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const times = this.recent(key);
    if (times.length < this.max) return 0;
    return Math.max(1, Math.ceil((times[times.length - this.max] + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.now());
    this.failures.delete(key);
    this.failures.set(key, times.slice(-this.max));
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}

/**
 * What the sign-in route needs of a limiter. FailureLimiter keeps its counts in this process's memory: with several
 * nodes sharing one PostgreSQL database each node counts alone. A limiter kept in the database would fit this
 * interface (hence the promises).
 */
export interface Limiter {
  retryAfter(key: string): number | Promise<number>;
  fail(key: string): void | Promise<void>;
  reset(key: string): void | Promise<void>;
}

export interface LoginLimits {
  /** Keyed by the account the typed name resolved to (or by the unknown name). */
  byAccount: Limiter;
  byIp: Limiter;
}

/** 5 wrong passwords per account and 20 per address in 15 minutes: slow enough to stop guessing, kind to typos. */
export function defaultLoginLimits(): LoginLimits {
  const window = 15 * 60_000;
  return { byAccount: new FailureLimiter(5, window), byIp: new FailureLimiter(20, window) };
}
