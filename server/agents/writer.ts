// How a batch of agent samples is written: the one place the engines differ for agents. Agents report every few
// seconds, thousands of them, so samples are never written one transaction per report: the service queues them
// (BatchWriter) and this writes each batch in one transaction. Both engines guard every row with EXISTS (a sample
// or report of an agent deleted between the report and the write is dropped instead of failing the whole batch on
// the foreign key).
import { sqliteBatch } from "../db/sqlite";
import type { SQL } from "bun";
import type { Statement } from "bun:sqlite";
import type { Db } from "../db/database";
import type { LatestReport, SampleRow } from "./store";

export type SampleBatch = (rows: SampleRow[], latest: Map<number, LatestReport>) => Promise<void>;

/** Rows per statement on PostgreSQL (a bound on one statement's size; a batch may hold several). */
const PG_CHUNK = 5000;

/**
 * How long a report's write waits for other reports to share its commit. SQLite: none (a commit there costs a
 * fraction of a millisecond in-process). PostgreSQL: each commit costs its backend a wake-up, a plan and a WAL flush,
 * and 1 000 agents at 10 s send a report every ~10 ms, so a short window makes most commits carry several reports
 * (see docs/benchmarks.md#agent-benchmark); the reply waits for it, well within the 30 ms p99 goal.
 */
const PG_COMMIT_WINDOW_MS = 15;
export const commitWindowMs = (db: Db) => (db.engine === "postgres" ? PG_COMMIT_WINDOW_MS : 0);

/** One row per agent and time, the latest queued winning (PostgreSQL's upsert refuses to touch a row twice). */
function distinct(rows: SampleRow[]): SampleRow[] {
  const byKey = new Map<string, SampleRow>();
  for (const row of rows) byKey.set(`${row.agentId}:${row.time}`, row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

export function sampleWriter(db: Db): SampleBatch {
  if (db.engine === "sqlite") {
    // SQLite: prepared statements run row by row inside one synchronous transaction — the fastest way in, and a
    // synchronous transaction cannot interleave with anything else on the (single) connection.
    const sqlite = db.sqlite!;
    let insert: Statement | null = null;
    let update: Statement | null = null;
    const writeRows = (rows: SampleRow[], latest: Map<number, LatestReport>) => {
      insert ??= sqlite.prepare(
        `INSERT INTO agent_samples (agent_id, time, "values") SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM agents WHERE id = ?1) ` +
          `ON CONFLICT (agent_id, time) DO UPDATE SET "values" = excluded."values"`,
      );
      update ??= sqlite.prepare(
        `UPDATE agents SET hostname = ?2, ips = ?3, os = ?4, kernel = ?5, arch = ?6, agent_version = ?7, uptime = ?8, "interval" = ?9, ` +
          `latest = ?10, last_seen_at = ?11, last_address = ?12, containers = COALESCE(?13, containers) WHERE id = ?1`,
      );
      for (const r of rows) insert.run(r.agentId, r.time, JSON.stringify(r.values));
      for (const [id, l] of latest) {
        const h = l.host;
        const containers = l.containers ? JSON.stringify(l.containers) : null;
        update.run(id, h.hostname, JSON.stringify(h.ips), h.os, h.kernel, h.arch, h.agentVersion, h.uptime, l.interval, JSON.stringify(l.sample), l.seenAt, l.address, containers);
      }
    };
    return sqliteBatch(db, writeRows);
  }

  // PostgreSQL: one multi-row upsert (arrays unnested) for the samples and one UPDATE … FROM unnest for the agents'
  // rows. JSON travels as text and is cast to jsonb by the server. A batch that fits one chunk (every batch but a
  // backlog's) is ONE statement, the two as data-modifying CTEs: one round trip and an implicit transaction, where
  // BEGIN, INSERT, UPDATE, COMMIT cost four round trips and four wake-ups of a backend (at 1 000 agents, 100 reports a
  // second, mostly one per batch: the database's CPU went from 17 % to 12 % of a core). A bigger batch runs chunk by
  // chunk in one transaction.
  const pg = db.pg!;
  // (Tried: the batch as one JSON parameter opened by jsonb_to_recordset, whose row estimate does not depend on the
  // value, so the prepared statement keeps one generic plan. It did stop the planning, 0.28 ms a call, but that generic
  // plan's hash join over the agents table cost more than the planning had: 0.72 ms a call against 0.55.)
  const samplesOf = (tx: SQL, chunk: SampleRow[]) => tx`INSERT INTO agent_samples (agent_id, time, "values")
    SELECT s.agent_id, s.time, s.v::jsonb FROM unnest(
      ${tx.array(chunk.map((r) => r.agentId), "BIGINT")}::bigint[], ${tx.array(chunk.map((r) => r.time), "BIGINT")}::bigint[],
      ${tx.array(chunk.map((r) => JSON.stringify(r.values)), "TEXT")}::text[]
    ) AS s(agent_id, time, v)
    WHERE EXISTS (SELECT 1 FROM agents WHERE id = s.agent_id)
    ON CONFLICT (agent_id, time) DO UPDATE SET "values" = excluded."values"`;
  const reportsOf = (tx: SQL, chunk: [number, LatestReport][]) => {
    const col = <T>(f: (l: LatestReport) => T) => chunk.map(([, l]) => f(l));
    const text = (f: (l: LatestReport) => string | null) => tx.array(col(f), "TEXT");
    return tx`UPDATE agents SET hostname = l.hostname, ips = l.ips::jsonb, os = l.os, kernel = l.kernel, arch = l.arch,
        agent_version = l.agent_version, uptime = l.uptime, "interval" = l.every, latest = l.latest::jsonb,
        last_seen_at = l.seen_at, last_address = l.address, containers = COALESCE(l.containers::jsonb, agents.containers)
      FROM unnest(
        ${tx.array(chunk.map(([id]) => id), "BIGINT")}::bigint[], ${text((l) => l.host.hostname)}::text[],
        ${text((l) => JSON.stringify(l.host.ips))}::text[], ${text((l) => l.host.os)}::text[], ${text((l) => l.host.kernel)}::text[],
        ${text((l) => l.host.arch)}::text[], ${text((l) => l.host.agentVersion)}::text[],
        ${tx.array(col((l) => l.host.uptime), "DOUBLE PRECISION")}::float8[], ${tx.array(col((l) => l.interval), "BIGINT")}::bigint[],
        ${text((l) => JSON.stringify(l.sample))}::text[], ${tx.array(col((l) => l.seenAt), "BIGINT")}::bigint[],
        ${text((l) => l.address)}::text[], ${text((l) => (l.containers ? JSON.stringify(l.containers) : null))}::text[]
      ) AS l(id, hostname, ips, os, kernel, arch, agent_version, uptime, every, latest, seen_at, address, containers)
      WHERE agents.id = l.id`;
  };
  return async (queued, latest) => {
    const rows = distinct(queued);
    // In id order: two writers updating the same rows lock them in the same order.
    const reports = [...latest].sort((a, b) => a[0] - b[0]);
    if (rows.length <= PG_CHUNK && reports.length <= PG_CHUNK) {
      if (rows.length === 0 && reports.length === 0) return;
      if (reports.length === 0) return void (await samplesOf(pg, rows));
      if (rows.length === 0) return void (await reportsOf(pg, reports));
      await pg`WITH samples AS (${samplesOf(pg, rows)}) ${reportsOf(pg, reports)}`;
      return;
    }
    await pg.begin(async (tx) => {
      for (let i = 0; i < rows.length; i += PG_CHUNK) await samplesOf(tx, rows.slice(i, i + PG_CHUNK));
      for (let i = 0; i < reports.length; i += PG_CHUNK) await reportsOf(tx, reports.slice(i, i + PG_CHUNK));
    });
  };
}
