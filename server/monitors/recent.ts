// The last checks of each monitor, in memory, for the 50-cell strip on the list and the detail page.
// Filled lazily: a monitor's ring is read from check_results (one index seek, LIMIT 50) the first time someone asks,
// after the writer flushed its queue; from then on every recorded check is appended. Monitors nobody looks at cost
// nothing, and start-up reads nothing.
import type { Database } from "bun:sqlite";
import type { CheckOutcome } from "./types/check-type";
import type { RecentCheck } from "./public";

export const RECENT_CHECKS = 50;

/** A fixed ring in typed arrays: ~0.8 KB per monitor instead of 50 objects. */
class Ring {
  private readonly time = new Float64Array(RECENT_CHECKS);
  private readonly responseTime = new Int32Array(RECENT_CHECKS); // -1: no answer
  private readonly httpStatus = new Uint16Array(RECENT_CHECKS); // 0: none
  private readonly up = new Uint8Array(RECENT_CHECKS);
  private readonly error: (string | null)[] = new Array(RECENT_CHECKS).fill(null);
  private next = 0;
  private size = 0;

  push(c: CheckOutcome) {
    const i = this.next;
    this.time[i] = c.time;
    this.responseTime[i] = c.responseTime ?? -1;
    this.httpStatus[i] = c.httpStatus ?? 0;
    this.up[i] = c.up ? 1 : 0;
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
        status: this.up[i] ? "up" : "down",
        responseTime: this.responseTime[i]! < 0 ? null : this.responseTime[i]!,
        httpStatus: this.httpStatus[i] || null,
        error: this.error[i] ?? null,
      });
    }
    return out;
  }
}

type Row = { time: number; up: number; response_time: number | null; http_status: number | null; error: string | null };

export function createRecentChecks(sqlite: Database, flush: () => void) {
  const rings = new Map<number, Ring>();
  const newest = sqlite.query<Row, [number, number]>(
    "SELECT time, up, response_time, http_status, error FROM check_results WHERE monitor_id = ?1 ORDER BY time DESC LIMIT ?2",
  );

  const load = (id: number): Ring => {
    const ring = new Ring();
    const rows = newest.all(id, RECENT_CHECKS);
    for (let k = rows.length - 1; k >= 0; k--) {
      const r = rows[k]!;
      ring.push({ time: r.time, up: r.up === 1, responseTime: r.response_time, httpStatus: r.http_status, error: r.error });
    }
    rings.set(id, ring);
    return ring;
  };

  return {
    /** A recorded check: kept only for monitors already in memory (the others are read from the table when asked). */
    add(id: number, outcome: CheckOutcome) {
      rings.get(id)?.push(outcome);
    },
    forget(id: number) {
      rings.delete(id);
    },
    /** The last checks of these monitors, oldest first. */
    of(ids: readonly number[]): Map<number, RecentCheck[]> {
      if (ids.some((id) => !rings.has(id))) flush(); // what the table lacks is still queued in the writer
      return new Map(ids.map((id) => [id, (rings.get(id) ?? load(id)).list()]));
    },
  };
}
