// The last checks of each monitor, in memory, for the 50-cell strip on the list and the detail page.
// Filled lazily: a monitor's ring is read from check_results (one index seek, LIMIT 50) the first time someone asks,
// after the writer flushed its queue; from then on every recorded check is appended. Monitors nobody looks at cost
// nothing, and start-up reads nothing.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { newestChecks } from "./check-rows";
import type { CheckOutcome } from "./types/check-type";
import type { RecentCheck } from "./public";

export const RECENT_CHECKS = 50;
/** How long another node's check may wait in its writer's queue before it is in the table. */
const UNWRITTEN_MS = 15_000;

/** A fixed ring in typed arrays: ~0.8 KB per monitor instead of 50 objects. */
class Ring {
  private readonly time = new Float64Array(RECENT_CHECKS);
  private readonly responseTime = new Int32Array(RECENT_CHECKS); // -1: no answer
  private readonly httpStatus = new Uint16Array(RECENT_CHECKS); // 0: none
  private readonly up = new Uint8Array(RECENT_CHECKS); // bit 0: up, bit 1: made in maintenance
  private readonly error: (string | null)[] = new Array(RECENT_CHECKS).fill(null);
  private next = 0;
  private size = 0;

  push(c: CheckOutcome) {
    const i = this.next;
    this.time[i] = c.time;
    this.responseTime[i] = c.responseTime ?? -1;
    this.httpStatus[i] = c.httpStatus ?? 0;
    this.up[i] = (c.up ? 1 : 0) | (c.maintenance ? 2 : 0);
    this.error[i] = c.up ? null : c.error;
    this.next = (i + 1) % RECENT_CHECKS;
    this.size = Math.min(this.size + 1, RECENT_CHECKS);
  }

  /** Oldest first. */
  list(): RecentCheck[] {
    const out: RecentCheck[] = [];
    for (let k = this.size; k > 0; k--) {
      const i = (this.next - k + RECENT_CHECKS) % RECENT_CHECKS;
      out.push({
        time: this.time[i]!,
        status: this.up[i]! & 1 ? "up" : "down",
        responseTime: this.responseTime[i]! < 0 ? null : this.responseTime[i]!,
        httpStatus: this.httpStatus[i] || null,
        error: this.error[i] ?? null,
        maintenance: (this.up[i]! & 2) !== 0,
      });
    }
    return out;
  }
}

type Row = { time: number; up: number | boolean; response_time: number | null; http_status: number | null; error: string | null; maintenance: number | boolean };

const same = (a: CheckOutcome, b: CheckOutcome) =>
  a.time === b.time && a.up === b.up && a.responseTime === b.responseTime && a.httpStatus === b.httpStatus && (a.up || a.error === b.error);

/** Rings read at once (a first look at a long list reads its monitors a few at a time). */
const LOAD_CONCURRENCY = 8;

export function createRecentChecks(db: Db, flush: () => Promise<unknown>) {
  const rings = new Map<number, Ring>();
  /** Monitors whose ring is being read, with the checks recorded since the read began (oldest first). */
  const loading = new Map<number, { promise: Promise<Ring>; recorded: CheckOutcome[] }>();
  /**
   * Other nodes' checks of monitors whose ring is not in memory, for the few seconds until their node has written
   * them: a first look here then still shows them.
   */
  const unwritten = new Map<number, CheckOutcome[]>();
  let remoteAdds = 0;
  const stale = (o: CheckOutcome, now: number) => o.time < now - UNWRITTEN_MS;
  function keepUnwritten(id: number, outcome: CheckOutcome) {
    const now = Date.now();
    let list = unwritten.get(id);
    if (!list) unwritten.set(id, (list = []));
    list.push(outcome);
    while (list.length > RECENT_CHECKS || (list.length > 1 && stale(list[0]!, now))) list.shift();
    if (++remoteAdds % 4096 === 0) for (const [k, l] of unwritten) if (stale(l[l.length - 1]!, now)) unwritten.delete(k);
  }

  async function read(id: number, recorded: CheckOutcome[]): Promise<Ring> {
    const rows = await db.rows<Row>(
      sql`SELECT time, up, response_time, http_status, error, maintenance FROM ${newestChecks(db.engine, id, RECENT_CHECKS)} AS c ORDER BY time DESC`,
    );
    const stored: CheckOutcome[] = rows
      .reverse()
      .map((r) => ({ time: r.time, up: Boolean(r.up), responseTime: r.response_time, httpStatus: r.http_status, error: r.error, maintenance: Boolean(r.maintenance) }));
    // The checks recorded since the read began: the first ones may have been written before the table was read (then
    // they end what it gave), the rest not yet. Keep the table's rows, then those it lacks.
    let overlap = Math.min(stored.length, recorded.length);
    while (overlap > 0 && !stored.slice(stored.length - overlap).every((o, k) => same(o, recorded[k]!))) overlap--;
    const ring = new Ring();
    for (const o of stored) ring.push(o);
    for (const o of recorded.slice(overlap)) ring.push(o);
    return ring;
  }

  /** Reads a monitor's ring once `ready` (the writer flushed), in turn with the others (`turn`). */
  function load(id: number, ready: Promise<unknown>, turn: <T>(fn: () => Promise<T>) => Promise<T>): Promise<Ring> {
    const pending = loading.get(id);
    if (pending) return pending.promise;
    const recorded: CheckOutcome[] = unwritten.get(id) ?? [];
    unwritten.delete(id);
    const promise = ready.then(() => turn(() => read(id, recorded))).then(
      (ring) => {
        // Not if the monitor was forgotten (deleted) meanwhile.
        if (loading.get(id)?.promise === promise) {
          loading.delete(id);
          rings.set(id, ring);
        }
        return ring;
      },
      (e) => {
        if (loading.get(id)?.promise === promise) loading.delete(id);
        throw e;
      },
    );
    loading.set(id, { promise, recorded });
    return promise;
  }

  return {
    /**
     * A recorded check: kept only for monitors already in memory (the others are read from the table when asked).
     * `remote`: another node's check, which it writes; kept a few seconds for a first look before it is written.
     */
    add(id: number, outcome: CheckOutcome, remote = false) {
      const ring = rings.get(id);
      const load = loading.get(id);
      ring?.push(outcome);
      load?.recorded.push(outcome);
      if (remote && !ring && !load) keepUnwritten(id, outcome);
    },
    forget(id: number) {
      rings.delete(id);
      loading.delete(id);
      unwritten.delete(id);
    },
    /** The last checks of these monitors, oldest first. */
    async of(ids: readonly number[]): Promise<Map<number, RecentCheck[]>> {
      const missing = [...new Set(ids.filter((id) => !rings.has(id)))];
      const loaded = new Map<number, Ring>();
      if (missing.length > 0) {
        // Recording starts before the flush (of what the table lacks, still queued in the writer): a check is then
        // written before the table is read, or recorded, or both.
        let flushed!: () => void;
        const ready = new Promise<void>((resolve) => (flushed = resolve));
        const turn = limiter(LOAD_CONCURRENCY);
        const promises = missing.map((id) => load(id, ready, turn));
        await flush().finally(flushed);
        (await Promise.all(promises)).forEach((ring, k) => loaded.set(missing[k]!, ring));
      }
      return new Map(ids.map((id) => [id, (rings.get(id) ?? loaded.get(id) ?? new Ring()).list()]));
    },
  };
}

/** Runs at most `n` of the functions given at once, the others in turn. */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
