// Catching up after a takeover: when a node of a cluster gains monitors (the node that had them died or left), the
// slots those monitors missed meanwhile are checked at once instead of waiting a whole interval.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { checkRows } from "./check-rows";
import type { Clock, Scheduler } from "./scheduler";
import { slotAtOrAfter } from "./scheduler";
import type { MonitorFields } from "./schemas";
import type { MonitorStore } from "./store";
import type { Writer } from "./writer";

/** A kick this close before a slot stands for that slot (the scheduler's kick gap). */
const KICK_GAP_MS = 5000;
/**
 * How far back a node that gained monitors looks for unchecked slots: past a dead node's lease (15 s), the next
 * renewal (5 s) and the catch-up delay. Older misses (the whole cluster was down) are not made up, as on one node.
 */
export const CATCH_UP_HORIZON_MS = 45_000;

export interface CatchUpDeps {
  db: Db;
  store: MonitorStore;
  scheduler: Scheduler;
  writer: Writer;
  clock: Clock;
  owns: (id: number) => boolean;
  /** Seconds between a monitor's slots. */
  cadence: (fields: MonitorFields) => number;
  /** How long a minute of the intervals is (60 000; shorter in real-clock tests). */
  minuteMs: number;
}

/**
 * Checks now the monitors this node owns whose latest slot (within the horizon, and less than half an interval ago)
 * has no recorded check. The table
 * decides, not memory: a node killed mid-batch told the others of checks it never wrote.
 */
export async function catchUpMissed({ db, store, scheduler, writer, clock, owns, cadence, minuteMs }: CatchUpDeps): Promise<void> {
  const now = clock.now();
  const due = new Map<number, number>();
  for (const entry of store.all()) {
    const { id, fields } = entry;
    if (!fields.active || fields.type === "push" || !owns(id) || !scheduler.has(id)) continue;
    const intervalMs = Math.max(1, Math.round((cadence(fields) * minuteMs) / 60));
    let slot = slotAtOrAfter(now, id, intervalMs);
    if (slot > now) slot -= intervalMs;
    // Made up only while the next regular slot is more than half an interval away: later, that slot comes soon
    // enough, and checking now too would mean two checks close together (and a burst at the end of an outage).
    const nextRegular = slot + intervalMs;
    if (now - slot <= CATCH_UP_HORIZON_MS && nextRegular - now > intervalMs / 2 && entry.createdAt < slot) due.set(id, slot);
  }
  const ids = [...due.keys()];
  // This node's own checks of them, running or queued for writing, are in the table before it is asked.
  await scheduler.settled(ids);
  await writer.flush();
  const since = now - CATCH_UP_HORIZON_MS - KICK_GAP_MS;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.rows<{ monitor_id: number; last: number }>(
      sql`SELECT monitor_id, max(time) AS last FROM ${checkRows(db.engine, since)} WHERE monitor_id IN (${sql.join(chunk, sql`, `)}) AND time >= ${since} GROUP BY monitor_id`,
    );
    for (const r of rows) if (r.last >= due.get(r.monitor_id)! - KICK_GAP_MS) due.delete(r.monitor_id);
    for (const id of chunk) {
      const entry = store.get(id);
      if (!due.has(id) || !entry || !owns(id) || !scheduler.has(id) || scheduler.running(id)) continue;
      // The slot's own check may have fired here while the flush and query above were under way (done by now, its
      // result still queued for writing): the scheduler knows. Not what other nodes told of: a node killed mid-batch
      // told of checks it never wrote, and those slots are made up.
      if (scheduler.lastStarted(id) >= due.get(id)! - KICK_GAP_MS) continue;
      scheduler.schedule(id, cadence(entry.fields), { kick: true });
    }
  }
}
