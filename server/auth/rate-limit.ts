import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db/database";

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
 * What the sign-in route needs of a limiter: FailureLimiter (this process's memory: one node on SQLite) or
 * DatabaseFailureLimiter (shared by every node of a PostgreSQL cluster).
 */
export interface Limiter {
  retryAfter(key: string): number | Promise<number>;
  fail(key: string): void | Promise<void>;
  reset(key: string): void | Promise<void>;
}

export interface LoginLimits {
  /** Wrong passwords, keyed by the account the typed name resolved to (or by the unknown name). */
  byAccount: Limiter;
  byIp: Limiter;
  /**
   * Wrong second-factor codes, keyed by the account: at sign-in (whichever challenge or address they come with) and
   * where a signed-in user confirms a change. A right password does not clear it; only a right code does.
   */
  codes: Limiter;
}

/**
 * FailureLimiter's rule over the login_failures table, so every node of a cluster counts the same attempts. A failure
 * is one insert; a check reads at most `max` rows through the (scope, key, at) index; rows past the window are
 * deleted now and then.
 */
export class DatabaseFailureLimiter implements Limiter {
  private failures = 0;

  constructor(
    private readonly db: Db,
    private readonly scope: "account" | "ip" | "code",
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async retryAfter(raw: string): Promise<number> {
    const key = storable(raw);
    const { loginFailures: f } = this.db.t;
    const recent = await this.db.orm
      .select({ at: f.at })
      .from(f)
      .where(and(eq(f.scope, this.scope), eq(f.key, key), gt(f.at, this.now() - this.windowMs)))
      .orderBy(desc(f.at))
      .limit(this.max);
    if (recent.length < this.max) return 0;
    return Math.max(1, Math.ceil((recent[this.max - 1]!.at + this.windowMs - this.now()) / 1000));
  }

  async fail(raw: string): Promise<void> {
    const key = storable(raw);
    const { loginFailures: f } = this.db.t;
    const at = this.now();
    await this.db.orm.insert(f).values({ scope: this.scope, key, at });
    if (++this.failures % 100 === 0) await this.db.orm.delete(f).where(lt(f.at, at - this.windowMs));
  }

  async reset(raw: string): Promise<void> {
    const key = storable(raw);
    const { loginFailures: f } = this.db.t;
    await this.db.orm.delete(f).where(and(eq(f.scope, this.scope), eq(f.key, key)));
  }
}

/** A typed name may hold NUL, which PostgreSQL text cannot: such a name is still counted, under a stand-in. */
const storable = (key: string) => (key.includes("\u0000") ? key.replaceAll("\u0000", "\uFFFD") : key);

const LOGIN_WINDOW_MS = 15 * 60_000;

/**
 * 5 wrong passwords per account, 20 per address and 5 wrong second-factor codes per account in 15 minutes: slow
 * enough to stop guessing, kind to typos. Counted in memory on SQLite (one node), in the database on PostgreSQL
 * (every node counts the same attempts).
 */
export function defaultLoginLimits(db?: Db, now: () => number = Date.now): LoginLimits {
  if (db?.engine === "postgres") {
    return {
      byAccount: new DatabaseFailureLimiter(db, "account", 5, LOGIN_WINDOW_MS, now),
      byIp: new DatabaseFailureLimiter(db, "ip", 20, LOGIN_WINDOW_MS, now),
      codes: new DatabaseFailureLimiter(db, "code", 5, LOGIN_WINDOW_MS, now),
    };
  }
  return { byAccount: new FailureLimiter(5, LOGIN_WINDOW_MS), byIp: new FailureLimiter(20, LOGIN_WINDOW_MS), codes: new FailureLimiter(5, LOGIN_WINDOW_MS) };
}
