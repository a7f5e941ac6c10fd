// Per-location results of monitors checked from several places (server/probes/): each location's own checks in
// probe_results, kept like raw checks (--raw-retention-days), so only the part of a period they still cover counts.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { addBin, binSql, newHistogram, type Histogram } from "./histogram";
import { percent, percentiles } from "./compute";
import type { ReportLocation } from "./public";

export async function locationsOf(db: Db, ids: number[], from: number, to: number): Promise<Map<number, ReportLocation[]>> {
  const out = new Map<number, ReportLocation[]>();
  if (ids.length === 0) return out;
  const inIds = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const where = sql`p.monitor_id IN (${inIds}) AND p.monitor_id IN (SELECT monitor_id FROM monitor_locations) AND p.time >= ${from} AND p.time < ${to}`;
  const rows = await db.rows<{ monitor_id: number; agent_id: number; name: string | null; checks: number; up: number; rt_min: number | null; rt_max: number | null }>(
    sql`SELECT p.monitor_id, p.agent_id, a.name, count(*) AS checks, sum(CASE WHEN p.up THEN 1 ELSE 0 END) AS up,
        min(p.response_time) AS rt_min, max(p.response_time) AS rt_max
        FROM probe_results p LEFT JOIN agents a ON a.id = p.agent_id WHERE ${where} GROUP BY p.monitor_id, p.agent_id, a.name`,
  );
  const hists = new Map<string, Histogram>();
  for (const r of await db.rows<{ monitor_id: number; agent_id: number; bin: number; n: number }>(
    sql`SELECT p.monitor_id, p.agent_id, ${binSql(sql.raw("p.response_time"))} AS bin, count(*) AS n FROM probe_results p
        WHERE ${where} AND p.response_time IS NOT NULL GROUP BY 1, 2, 3`,
  )) {
    const key = `${r.monitor_id}:${r.agent_id}`;
    const h = hists.get(key) ?? newHistogram();
    addBin(h, Number(r.bin), Number(r.n));
    hists.set(key, h);
  }
  for (const r of rows) {
    let list = out.get(r.monitor_id);
    if (!list) out.set(r.monitor_id, (list = []));
    const h = hists.get(`${r.monitor_id}:${r.agent_id}`) ?? newHistogram();
    list.push({
      agentId: Number(r.agent_id),
      name: r.name ?? "",
      checks: Number(r.checks),
      availability: percent(Number(r.up), Number(r.checks)),
      ...percentiles(h, r.rt_min === null ? null : Number(r.rt_min), r.rt_max === null ? null : Number(r.rt_max)),
    });
  }
  for (const list of out.values()) list.sort((a, b) => a.agentId - b.agentId);
  return out;
}
