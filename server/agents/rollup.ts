// Agent rollups: raw samples into minutes, minutes into hours (server/agents/service.ts runs the passes, in chunks).
import type { Orm } from "../db/database";
import { rollUp } from "./series";
import type { AgentStore, RollupRow } from "./store";

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Some agents, in one transaction (`q`): the closed minutes in [from, closedMinute) plus their late ones, then
 * every hour those touch. One read and one upsert for the whole chunk, plus one read per hour touched (and one
 * per late minute, after an outage). Only database calls are awaited here.
 */
export async function rollUpAgents(store: AgentStore, q: Orm, ids: number[], from: number, closedMinute: number, late: Map<number, Set<number>>) {
  /** "agent minute" → its rows */
  const byMinute = new Map<string, { agentId: number; minute: number; rows: RollupRow[] }>();
  const collect = (rows: RollupRow[]) => {
    for (const row of rows) {
      const minute = Math.floor(row.time / MINUTE) * MINUTE;
      if (minute >= closedMinute) continue;
      const key = `${row.agentId} ${minute}`;
      const bucket = byMinute.get(key);
      if (bucket) bucket.rows.push(row);
      else byMinute.set(key, { agentId: row.agentId, minute, rows: [row] });
    }
  };
  collect(await store.rangeOf(ids, "raw", from, closedMinute, q));
  for (const id of ids) {
    for (const minute of late.get(id) ?? []) {
      if (minute < from && minute < closedMinute) collect(await store.range(id, "raw", minute, minute + MINUTE, q));
    }
  }
  if (byMinute.size === 0) return;

  const minutes: RollupRow[] = [];
  /** hour → the agents with a minute rolled up in it */
  const hours = new Map<number, Set<number>>();
  for (const { agentId, minute, rows } of byMinute.values()) {
    minutes.push({ agentId, time: minute, ...rollUp(rows) });
    const hour = Math.floor(minute / HOUR) * HOUR;
    if (!hours.has(hour)) hours.set(hour, new Set());
    hours.get(hour)!.add(agentId);
  }
  // In key order: two nodes upserting the same rows lock them in the same order.
  await store.upsertRollups("minute", minutes.sort((a, b) => a.agentId - b.agentId || a.time - b.time), q);

  // An hour is re-rolled whenever one of its minutes changed, so the current hour is always up to date.
  const hourRows: RollupRow[] = [];
  for (const [hour, agentIds] of hours) {
    const byAgent = new Map<number, RollupRow[]>();
    for (const row of await store.rangeOf([...agentIds], "minute", hour, hour + HOUR, q)) {
      const list = byAgent.get(row.agentId);
      if (list) list.push(row);
      else byAgent.set(row.agentId, [row]);
    }
    for (const [agentId, rows] of byAgent) hourRows.push({ agentId, time: hour, ...rollUp(rows) });
  }
  await store.upsertRollups("hour", hourRows.sort((a, b) => a.agentId - b.agentId || a.time - b.time), q);
}
